package spillway_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spillway-dev/spillway"
	"github.com/spillway-dev/spillway/internal/policy"
)

// Each profile is the system whose design it follows (docs/profiles.md):
// the rules below hold under the profile named, and the ones that hold for
// every profile are checked under each.

func profileToolset(t *testing.T, name string) (*spillway.Toolset, string) {
	t.Helper()
	pol, err := spillway.Profile(name)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	return bashToolset(t, spillway.Options{Policy: &pol, Cwd: dir}), dir
}

// pi never shows part of a line in a read: a first line over the byte
// limit gets only a notice with its size and the command that shows its
// start ("First line > 30KB" in docs/profiles.md), and no line.
func TestPiReadFirstLineOverLimit(t *testing.T) {
	ts, dir := profileToolset(t, "pi")
	long := strings.Repeat("x", 50*1024)
	path := filepath.Join(dir, "wide.json")
	var b strings.Builder
	b.WriteString(long + "\n")
	for i := 2; i <= 1500; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	b.WriteString(long + "\nafter\n")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()

	r, err := ts.Read(ctx, spillway.ReadInput{Path: "wide.json"})
	if err != nil {
		t.Fatal(err)
	}
	want := "[Line 1 is 50.0KB, exceeds 30.0KB limit. Use bash to read: head -c 30720 " + path + "]"
	tr := r.Details.Truncation
	if r.Text != want || r.Content != "" || r.Details.LinesShown != 0 {
		t.Errorf("pi read of a 50KB first line:\n got  %.200q\n want %q", r.Text, want)
	}
	if !tr.Truncated || tr.TruncatedBy != "bytes" || tr.OutputLines != 0 || tr.TotalLines != 1502 {
		t.Errorf("truncation %+v, want truncated by bytes, 0 output lines of 1502", tr)
	}

	// "With offset, first line at offset > 30KB": the sed form.
	r, err = ts.Read(ctx, spillway.ReadInput{Path: "wide.json", Offset: 1501})
	if err != nil {
		t.Fatal(err)
	}
	want = "[Line 1501 is 50.0KB, exceeds 30.0KB limit. Use bash: sed -n '1501p' " + path + " | head -c 30720]"
	if r.Text != want || r.Details.Truncation.OutputLines != 0 {
		t.Errorf("pi read at a 50KB line:\n got  %.200q\n want %q", r.Text, want)
	}

	// The default profile keeps showing the line's start, with char_offset.
	def, _ := profileToolset(t, "default")
	r, err = def.Read(ctx, spillway.ReadInput{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(r.Text, "xxxx") || !strings.Contains(r.Text, "char_offset=") {
		t.Errorf("default read of a 50KB first line: %.80q … %q", r.Text, r.Text[max(0, len(r.Text)-120):])
	}
}

// A carriage return moves to the start of the line and what follows
// overwrites it, leaving the rest, as a terminal shows it, under every
// profile.
func TestCarriageReturnEveryProfile(t *testing.T) {
	for _, name := range policy.ProfileNames() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ts, _ := profileToolset(t, name)
			r := bashRun(t, ts, spillway.BashInput{Command: `printf 'abcdef\rxy'`})
			if r.Content != "xycdef" {
				t.Errorf("stdout %q, want %q", r.Content, "xycdef")
			}
			r = bashRun(t, ts, spillway.BashInput{Command: `printf 'progress 10%%\rdone\n' >&2`})
			if !strings.Contains(r.Text, "doneress 10%\n") {
				t.Errorf("stderr not overwritten as a terminal does: %q", r.Text)
			}
		})
	}
}

// A few C0 control bytes in otherwise valid text are stripped; they do
// not make the output binary, under every profile but macos-shell, whose
// design calls a stream binary when over 30% of its first 1000
// characters are control characters (here 3 of 6).
func TestLoneControlsEveryProfile(t *testing.T) {
	for _, name := range policy.ProfileNames() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ts, _ := profileToolset(t, name)
			r := bashRun(t, ts, spillway.BashInput{Command: `printf 'a\001b\002c\007'`})
			if name == "macos-shell" {
				if r.Content != "" || !r.Details.Stdout.Binary {
					t.Errorf("stdout %q, binary %v; want binary, as the design's isBinaryOutput says", r.Content, r.Details.Stdout.Binary)
				}
				return
			}
			if r.Content != "abc" || strings.Contains(r.Text, "binary") {
				t.Errorf("stdout %q, text %q; want abc", r.Content, r.Text)
			}
		})
	}
}
