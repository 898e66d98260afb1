package difflines

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// apply applies a unified diff to a's lines, as patch would.
func apply(t *testing.T, a []string, diff string) []string {
	t.Helper()
	var out []string
	pos := 0 // lines of a consumed
	for _, h := range strings.Split(diff, "\n@@ ")[1:] {
		head, body, _ := strings.Cut(h, "\n")
		fields := strings.Fields(head)
		sa, la := parseSpan(fields[0][1:])
		if la == 0 {
			sa++
		}
		for pos < sa-1 {
			out = append(out, a[pos])
			pos++
		}
		for _, l := range strings.Split(strings.TrimSuffix(body, "\n"), "\n") {
			if l == "" {
				continue
			}
			switch l[0] {
			case ' ':
				if a[pos] != l[1:] {
					t.Fatalf("context %q at %d, want %q", l[1:], pos+1, a[pos])
				}
				out = append(out, a[pos])
				pos++
			case '-':
				if a[pos] != l[1:] {
					t.Fatalf("removed %q at %d, want %q", l[1:], pos+1, a[pos])
				}
				pos++
			case '+':
				out = append(out, l[1:])
			}
		}
	}
	return append(out, a[pos:]...)
}

func TestUnifiedApplies(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 240 {
		n := rng.IntN(3000)
		if i < 200 {
			n = rng.IntN(60)
		}
		var a, b []string
		for j := range n {
			a = append(a, fmt.Sprintf("l%d", rng.IntN(max(1, n/3+j%7))))
		}
		for _, l := range a {
			switch rng.IntN(10) {
			case 0:
			case 1:
				b = append(b, "new", l)
			case 2:
				b = append(b, l+"x")
			default:
				b = append(b, l)
			}
		}
		as, bs := strings.Join(a, "\n"), strings.Join(b, "\n")
		if len(a) > 0 {
			as += "\n"
		}
		if len(b) > 0 {
			bs += "\n"
		}
		var out strings.Builder
		st, err := Unified(&out, strings.NewReader(as), strings.NewReader(bs), "a", "b")
		if err != nil {
			t.Fatal(err)
		}
		got := apply(t, a, out.String())
		if strings.Join(got, "\n") != strings.Join(b, "\n") {
			t.Fatalf("case %d (%d lines): the diff does not turn a into b\n%s", i, n, out.String())
		}
		if st.Same() != (as == bs) {
			t.Fatalf("case %d: Same %v", i, st.Same())
		}
	}
}

// The diff of a small change matches diff -u.
func TestUnifiedLikeDiffU(t *testing.T) {
	if _, err := exec.LookPath("diff"); err != nil {
		t.Skip("no diff on this machine")
	}
	var a, b strings.Builder
	for i := 1; i <= 200; i++ {
		fmt.Fprintf(&a, "line %d\n", i)
		switch i {
		case 50:
			b.WriteString("changed 50\n")
		case 120:
		default:
			fmt.Fprintf(&b, "line %d\n", i)
		}
	}
	b.WriteString("added\n")
	dir := t.TempDir()
	pa, pb := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	os.WriteFile(pa, []byte(a.String()), 0o600)
	os.WriteFile(pb, []byte(b.String()), 0o600)
	want, _ := exec.Command("diff", "-u", "--label", "a", "--label", "b", pa, pb).Output()
	var out strings.Builder
	if _, err := Unified(&out, strings.NewReader(a.String()), strings.NewReader(b.String()), "a", "b"); err != nil {
		t.Fatal(err)
	}
	if out.String() != string(want) {
		t.Errorf("got\n%s\nwant (diff -u)\n%s", out.String(), want)
	}
}

func parseSpan(s string) (start, n int) {
	n = 1
	if a, b, ok := strings.Cut(s, ","); ok {
		fmt.Sscan(a, &start)
		fmt.Sscan(b, &n)
		return start, n
	}
	fmt.Sscan(s, &start)
	return start, n
}
