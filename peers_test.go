package spillway_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spillway-dev/spillway"
)

// A peer's test input run through spillway's bash under the matching
// profile (TestPeerCases): the input is written to a file and the command
// is `cat` of it, so the input reaches spillway byte for byte.
type peerCase struct {
	in       string
	stderr   bool // the input goes to stderr
	maxLines int  // per call, as the peer's test passes them; 0: the profile's
	maxBytes int
}

func runPeerCase(t *testing.T, ts *spillway.Toolset, dir string, c peerCase) (string, spillway.StreamDetails) {
	t.Helper()
	f := filepath.Join(dir, "in.txt")
	if err := os.WriteFile(f, []byte(c.in), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := "cat in.txt"
	if c.stderr {
		cmd += " >&2"
	}
	r := bashRun(t, ts, spillway.BashInput{Command: cmd, MaxLines: c.maxLines, MaxBytes: c.maxBytes})
	if c.stderr {
		return r.Details.Stderr.Shown, r.Details.Stderr
	}
	return r.Content, r.Details.Stdout
}

func lines(n int, format string) []string {
	l := make([]string, n)
	for i := range n {
		l[i] = fmt.Sprintf(format, i)
	}
	return l
}

// pipe spills past 50 KiB of the bytes its collector receives, raw;
// spillway's threshold measures the sanitized text, as its limits do
// (docs/profiles.md, pipe): ANSI-heavy output whose text fits is shown
// whole and leaves no file.
func TestPipeSpillCountsText(t *testing.T) {
	ts, dir := profileToolset(t, "pipe")
	line := "\x1b[38;5;196m" + strings.Repeat("x", 20) + "\x1b[0m\n" // 36 bytes raw, 21 of text
	c := peerCase{in: strings.Repeat(line, 1500)}                    // 54,000 bytes raw, 31,500 of text
	out, d := runPeerCase(t, ts, dir, c)
	if out != strings.Repeat(strings.Repeat("x", 20)+"\n", 1500) || d.Truncation.Truncated || d.FullOutputPath != "" {
		t.Errorf("%d bytes shown, %+v, file %q", len(out), d.Truncation, d.FullOutputPath)
	}
}
