package main

import (
	"strings"
	"testing"
)

// Every usage error exits 2: a number the flag parser cannot read and a
// negative number alike. A failed call (a missing file) is 1.
func TestUsageErrorsExit2(t *testing.T) {
	cli := newBashCLI(t)
	for _, args := range [][]string{
		{"read", "/etc/hostname", "--offset", "-5"},
		{"read", "/etc/hostname", "--offset", "abc"},
		{"read", "/etc/hostname", "--limit=-1"},
		{"bash", "--timeout", "-1", "true"},
		{"bash", "--max-lines", "-3", "true"},
		{"ls", "--limit", "-1"},
		{"grep", "x", "--context", "-1"},
		{"find", "*", "--limit", "-2"},
	} {
		r := cli.run(t, args...)
		if r.status != 2 || !strings.Contains(r.stderr, "spillway:") || r.stdout != "" {
			t.Errorf("%q: status %d, stdout %q, stderr %q; want 2 and a usage error", args, r.status, r.stdout, r.stderr)
		}
	}
	if r := cli.run(t, "read", "/nonexistent/x"); r.status != 1 {
		t.Errorf("a failed call: status %d, want 1", r.status)
	}
}
