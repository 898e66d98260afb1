# go test -v over 251 tests, one failing (captured from go 1.2x).
cat real/gotest-v.txt
exit 1
