//go:build unix

package spillway_test

import (
	"testing"

	"github.com/spillway-dev/spillway"
)

// The text of a command's result, as docs/tools.md shows it.
func TestBashText(t *testing.T) {
	ts := bashToolset(t, spillway.Options{})
	cases := []struct {
		command string
		text    string
		isError bool
	}{
		{"echo out; echo err >&2; exit 1", "stdout:\nout\n\nstderr:\nerr\n\nexit code: 1", true},
		{"echo out", "stdout:\nout\n\nexit code: 0", false},
		{"echo err >&2", "stderr:\nerr\n\nexit code: 0", false},
		{"true", "(no output)\n\nexit code: 0", false},
		{"printf 'no newline'", "stdout:\nno newline\n\nexit code: 0", false},
		{"printf '\\033[31mred\\033[0m\\n10%%\\r20%%\\r30%%\\n'", "stdout:\nred\n30%\n\nexit code: 0", false},
		{"kill -KILL $$", "(no output)\n\nexit code: 137 (killed by SIGKILL)", true},
		{"exit 300", "(no output)\n\nexit code: 44", true},
	}
	for _, c := range cases {
		res := bashRun(t, ts, spillway.BashInput{Command: c.command})
		if res.Text != c.text || res.IsError != c.isError {
			t.Errorf("%q:\n got %q (is_error %v)\nwant %q (is_error %v)", c.command, res.Text, res.IsError, c.text, c.isError)
		}
	}

	p := spillway.DefaultPolicy()
	p.Bash.MergeStreams = true
	merged := bashToolset(t, spillway.Options{Policy: &p})
	if res := bashRun(t, merged, spillway.BashInput{Command: "echo a; echo b >&2; echo c"}); res.Text != "stdout:\na\nb\nc\n\nexit code: 0" {
		t.Errorf("merged: %q", res.Text)
	}
}
