package output

import (
	"strings"
	"testing"
)

// Recent shows what was written, held lines and undecided bytes
// included, and leaves the next result as it would have been.
func TestRecentChangesNoResult(t *testing.T) {
	write := func(p *Pipeline) {
		p.Write([]byte("one\ntwo\n\x1b[31mthree\x1b[0m\nfour"))
	}
	a, b := New(Options{}), New(Options{})
	write(a)
	write(b)
	if got := string(a.Recent(1 << 10)); got != "one\ntwo\n[31mthree[0m\nfour" {
		t.Errorf("undecided: %q", got)
	}
	if got := string(a.Recent(4)); got != "four" {
		t.Errorf("the last 4 bytes: %q", got)
	}
	ra, rb := a.Cut(), b.Cut()
	if ra.Head+ra.Tail != rb.Head+rb.Tail {
		t.Errorf("Recent changed the result: %q, want %q", ra.Head, rb.Head)
	}
	a.Write([]byte(" five\nsix\n"))
	if got := string(a.Recent(1 << 10)); !strings.HasSuffix(got, "three\nfour five\nsix\n") {
		t.Errorf("after the decision: %q", got)
	}
}
