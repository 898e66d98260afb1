package spillway

import (
	"testing"

	"github.com/spillway-dev/spillway/internal/search"
	"github.com/spillway-dev/spillway/output"
)

// The notices of a grep that stopped in a file too full of matches and
// skipped unreadable paths, and of a find that skipped one: what the
// engine reports, said.
func TestSearchNoticesOfStopsAndSkips(t *testing.T) {
	lines := func(head string, n int, skipped ...string) search.Lines {
		return search.Lines{
			Out:      output.Result{Head: head, Truncation: output.Truncation{TotalLines: int64(n), OutputLines: int64(n)}},
			MaxBytes: 50 << 10, Count: n,
			Skipped: skipped[:min(len(skipped), 5)], SkippedCount: len(skipped),
		}
	}
	skipped := []string{"a (permission denied)", "b (permission denied)", "c/ (permission denied)", "d (permission denied)", "e (permission denied)", "f (permission denied)", "g (permission denied)"}
	g := foundResult(GrepInput{Pattern: "needle"}, search.Found{
		Lines: lines("d0/f000.txt:1: needle\n", 1, skipped...), Mode: search.ModeContent,
		Matches: 1, Files: 1, Limit: 100,
		Capped: "d0/f000.txt", Held: 4 << 10,
	})
	want := "d0/f000.txt:1: needle\n\n" +
		"[Search stopped in d0/f000.txt: its matches and context passed 4.0KB. Refine the pattern, or lower context]\n" +
		"[Skipped 7 unreadable paths: a (permission denied), b (permission denied), c/ (permission denied), d (permission denied), e (permission denied) and 2 more]"
	if g.Text != want {
		t.Errorf("grep:\n got %q\nwant %q", g.Text, want)
	}
	if d := g.Details; !d.Truncation.Truncated || d.Truncation.TruncatedBy != output.ByLines || len(d.Skipped) != 5 || g.Content != "d0/f000.txt:1: needle" {
		t.Errorf("grep details %+v", d)
	}

	f := namesResult(FindInput{Pattern: "*"}, search.Names{Lines: lines("locked.txt\nsecret/\n", 2, "secret/ (permission denied)"), Limit: 1000})
	if want := "locked.txt\nsecret/\n\n[Skipped 1 unreadable path: secret/ (permission denied)]"; f.Text != want || f.Details.Count != 2 {
		t.Errorf("find:\n got %q\nwant %q (%+v)", f.Text, want, f.Details)
	}
	if n := namesResult(FindInput{Pattern: "*"}, search.Names{Lines: lines("", 0), Limit: 1000}); n.Text != "No files found matching pattern" || n.Content != "" {
		t.Errorf("find nothing: %q", n.Text)
	}
}
