# jest over 300 suites, one failing (jest 29's layout, transcribed).
exec 1>&2
awk 'BEGIN { for (i = 1; i <= 210; i++) { printf "PASS src/components/Widget%03d.test.tsx (%d.%03d s)\n", i, 1 + i % 4, (i * 37) % 1000; for (t = 1; t <= 6; t++) printf "  ✓ renders variant %d (%d ms)\n", t, 3 + (i * t) % 40 } }'
cat <<'FAIL'
FAIL src/components/CartSummary.test.tsx
  ● CartSummary › shows the total with tax

    expect(received).toBe(expected) // Object.is equality

    Expected: "$108.00"
    Received: "$100.00"

      40 |     render(<CartSummary items={items} taxRate={0.08} />);
      41 |     const total = screen.getByTestId("total");
    > 42 |     expect(total.textContent).toBe("$108.00");
         |                               ^
      43 |   });
      44 | });

      at Object.toBe (src/components/CartSummary.test.tsx:42:31)

FAIL
awk 'BEGIN { for (i = 212; i <= 300; i++) { printf "PASS src/components/Widget%03d.test.tsx (%d.%03d s)\n", i, 1 + i % 4, (i * 37) % 1000; for (t = 1; t <= 6; t++) printf "  ✓ renders variant %d (%d ms)\n", t, 3 + (i * t) % 40 } }'
cat <<'SUM'

Test Suites: 1 failed, 299 passed, 300 total
Tests:       1 failed, 1799 passed, 1800 total
Snapshots:   0 total
Time:        48.213 s
Ran all test suites.
SUM
exit 1
