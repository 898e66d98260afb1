package spillway

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/spillway-dev/spillway/internal/search"
	"github.com/spillway-dev/spillway/internal/spill"
)

// limitNotice reads the total a limit's notice states: the number, and
// whether it is exact ("N found") or a lower bound ("at least N found").
var limitNotice = regexp.MustCompile(`limit reached: (at least )?(\d+) found\. Use limit=(\d+) (to list them all|for more, or refine pattern)\]`)

// When find or grep stop at their limit, every total the notice states is
// true: an exact count is the count a search with no limit finds, a lower
// bound is no more than it, and the next call it names lists them all or
// doubles the limit. The tree is searched at every limit from 1 to past
// its size, so that each way of stopping (between files, inside a file,
// past twice the limit) is met.
func TestSearchTotalsAtLimit(t *testing.T) {
	root := t.TempDir()
	tree := map[string]string{}
	for i := range 23 {
		// 1 to 4 matching lines a file.
		tree[fmt.Sprintf("d%d/f%02d.txt", i%3, i)] = strings.Repeat("hit\nmiss\n", 1+i%4)
	}
	writeSearchTree(t, root, tree)
	s := newSearchEngine(t, root)
	// What a search with no limit in reach finds.
	truth := map[string]int{"find": findPage(t, s, FindInput{Pattern: "*", Limit: 1000}).Details.Count}
	for _, mode := range []string{"content", search.ModeFiles, search.ModeCount} {
		d := grepPage(t, s, GrepInput{Pattern: "hit", OutputMode: mode, Limit: 1000}).Details
		truth[mode] = d.MatchCount
		if mode == search.ModeCount {
			truth[mode] = d.FileCount
		}
	}
	if truth["find"] != 26 || truth["content"] != 56 || truth[search.ModeFiles] != 23 || truth[search.ModeCount] != 23 {
		t.Fatalf("the tree holds %v", truth)
	}
	check := func(t *testing.T, tool string, limit int, text string, reached bool) {
		t.Helper()
		want := truth[tool]
		m := limitNotice.FindStringSubmatch(text)
		if !reached {
			if limit < want || strings.Contains(text, "limit reached") {
				t.Errorf("%s limit %d of %d: reached %v, text %q", tool, limit, want, reached, text)
			}
			return
		}
		if m == nil {
			t.Fatalf("%s limit %d: no total in %q", tool, limit, text)
		}
		n, _ := strconv.Atoi(m[2])
		next, _ := strconv.Atoi(m[3])
		switch exact := m[1] == ""; {
		case exact && (n != want || next != want || m[4] != "to list them all"):
			t.Errorf("%s limit %d: says %d found, next limit %d; %d exist", tool, limit, n, next, want)
		case !exact && (n > want || n <= limit || next != 2*limit):
			t.Errorf("%s limit %d: says at least %d found, next limit %d; %d exist", tool, limit, n, next, want)
		}
	}
	for limit := 1; limit <= 60; limit++ {
		f := findPage(t, s, FindInput{Pattern: "*", Limit: limit})
		check(t, "find", limit, f.Text, f.Details.ResultLimitReached)
		for _, mode := range []string{"content", search.ModeFiles, search.ModeCount} {
			g := grepPage(t, s, GrepInput{Pattern: "hit", OutputMode: mode, Limit: limit})
			check(t, mode, limit, g.Text, g.Details.MatchLimitReached)
		}
	}
	// find counts on to twice the limit and no further: the total of 26
	// paths is exact from limit 13 on, a lower bound of 2×limit+1 below.
	for limit, want := range map[int]string{
		12: "[12 results limit reached: at least 25 found. Use limit=24 for more, or refine pattern]",
		13: "[13 results limit reached: 26 found. Use limit=26 to list them all]",
	} {
		if f := findPage(t, s, FindInput{Pattern: "*", Limit: limit}); !strings.HasSuffix(f.Text, want) {
			t.Errorf("limit %d: %q, want it to end in %q", limit, f.Text[strings.LastIndex(f.Text, "\n")+1:], want)
		}
	}
}

// The pi profile's notices at the limit are its design's, with no total,
// and its find stops at the limit.
func TestSearchTotalsPiDesign(t *testing.T) {
	root := t.TempDir()
	writeSearchTree(t, root, map[string]string{"a.txt": "hit\nhit\n", "b.txt": "hit\n"})
	pi, err := Profile("pi")
	if err != nil {
		t.Fatal(err)
	}
	store := spill.NewSession(spill.Config{TempDir: t.TempDir()})
	t.Cleanup(func() { store.Close() })
	cfg := pi.searchConfig()
	cfg.Cwd, cfg.Spill = root, store
	s := search.New(cfg)
	if f := findPage(t, s, FindInput{Pattern: "*", Limit: 1}); !strings.HasSuffix(f.Text, "\n[1 result limit reached. Use limit=2 for more, or refine pattern]") {
		t.Errorf("find: %q", f.Text)
	}
	if g := grepPage(t, s, GrepInput{Pattern: "hit", Limit: 1}); !strings.HasSuffix(g.Text, "\n[1 match limit reached. Use limit=2 for more, or refine pattern]") {
		t.Errorf("grep: %q", g.Text)
	}
}
