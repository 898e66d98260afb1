package spillway

import (
	"strings"
	"testing"

	"github.com/spillway-dev/spillway/internal/shell"
	"github.com/spillway-dev/spillway/output"
)

func resultOf(lim output.Limits, s string) output.Result {
	p := output.New(output.Options{Limits: lim})
	p.Write([]byte(s))
	p.Close()
	return p.Cut()
}

// The layout of a page: sections, blank lines, status and notes.
func TestBashPageText(t *testing.T) {
	lim := output.DefaultLimits
	empty := resultOf(lim, "")
	out := resultOf(lim, "a\nb")
	errs := resultOf(lim, "e\n")
	small := lim
	small.MaxLines = 2
	cut := resultOf(small, "1\n2\n3\n4\n5\n")
	bin := resultOf(lim, "\x00\x01\x02")
	ok := &shell.Exit{}
	cases := []struct {
		name string
		p    shell.Page
		want string
	}{
		{"both", shell.Page{Stdout: out, Stderr: &errs, Exit: ok}, "stdout:\na\nb\n\nstderr:\ne\n\nexit code: 0"},
		{"stderr only", shell.Page{Stdout: empty, Stderr: &errs, Exit: &shell.Exit{Code: 2}}, "stderr:\ne\n\nexit code: 2"},
		{"nothing", shell.Page{Stdout: empty, Stderr: &empty, Empty: "(no output)", Exit: ok}, "(no output)\n\nexit code: 0"},
		{"running", shell.Page{Stdout: out, Stderr: &empty, Notes: []string{"[note]"}}, "stdout:\na\nb\n\n[note]"},
		{"merged", shell.Page{Stdout: out, Exit: ok, Notes: []string{"[n1]", "[n2]"}}, "stdout:\na\nb\n\nexit code: 0\n[n1]\n[n2]"},
		{"cut", shell.Page{Stdout: cut, Stderr: &empty, Exit: ok},
			"stdout:\n" + cut.Text() + cut.Notice("stdout") + "\n\nexit code: 0"},
		{"binary", shell.Page{Stdout: bin, Stderr: &empty, Exit: ok}, "stdout:\n[binary output: 3 bytes]\n\nexit code: 0"},
		{"lead and screen", shell.Page{Lead: []string{"[lead]"}, Screen: "$ top\n", Stdout: out, Exit: &shell.Exit{Code: 137, Signal: "SIGKILL"}},
			"[lead]\n$ top\n\nexit code: 137 (killed by SIGKILL)"},
	}
	for _, c := range cases {
		if got := bashText(c.p); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
	if !strings.Contains(cut.Notice("stdout"), "[stdout: showing lines") {
		t.Errorf("cut notice %q", cut.Notice("stdout"))
	}
}
