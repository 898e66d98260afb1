# pytest -v over 640 tests, one failing (pytest 8's layout, transcribed).
cat <<'HEAD'
============================= test session starts ==============================
platform linux -- Python 3.11.7, pytest-8.3.3, pluggy-1.5.0 -- /srv/app/.venv/bin/python
cachedir: .pytest_cache
rootdir: /srv/app
configfile: pyproject.toml
plugins: anyio-4.6.2, cov-5.0.0
collecting ... collected 640 items

HEAD
awk 'BEGIN { n = 0; for (m = 1; m <= 32; m++) for (t = 1; t <= 20; t++) { n++; r = (m == 17 && t == 9) ? "FAILED" : "PASSED"; printf "tests/test_module%02d.py::test_case_%02d %s %*s[%3d%%]\n", m, t, r, 40 - length(r), "", int(n * 100 / 640) } }'
cat <<'TAIL'

=================================== FAILURES ===================================
_________________________________ test_case_09 _________________________________

    def test_case_09():
        rows = load_rows("fixtures/orders.csv")
>       assert len(rows) == 4
E       AssertionError: assert 3 == 4
E        +  where 3 = len([{'id': '1'}, {'id': '2'}, {'id': '3'}])

tests/test_module17.py:88: AssertionError
=========================== short test summary info ============================
FAILED tests/test_module17.py::test_case_09 - AssertionError: assert 3 == 4
======================== 1 failed, 639 passed in 12.48s ========================
TAIL
exit 1
