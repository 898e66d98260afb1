package search

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spillway-dev/spillway/tool"
)

// A glob past a limit is refused before it is parsed or matched, with an
// error that names the limit: a glob of 2^k alternatives was tried on
// every name the walk met (k = 30 never ended); a huge glob was held
// and quoted back whole.
func TestGlobLimits(t *testing.T) {
	dir := t.TempDir()
	name := strings.Repeat("a", 40)
	if err := os.WriteFile(filepath.Join(dir, name), []byte("needle\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := New(Config{Cwd: dir})
	ctx := context.Background()
	bomb := strings.Repeat("{a,a}", 40) + "b"
	huge := strings.Repeat("*", 16<<20)
	for _, c := range []struct{ glob, limit string }{
		{bomb, "MaxGlobAlternatives"},
		{"{" + strings.Repeat("{a,b,c,d},", 100) + "x}", "MaxGlobAlternatives"},
		{strings.Repeat("{", 100_000) + strings.Repeat("}", 100_000), "MaxGlobBytes"},
		{huge, "MaxGlobBytes"},
	} {
		_, err := s.Find(ctx, tool.FindInput{Pattern: c.glob})
		if err == nil || !strings.Contains(err.Error(), c.limit) || len(err.Error()) > 1000 {
			t.Errorf("find %.20q… (%d bytes): %.300v", c.glob, len(c.glob), err)
		}
		_, err = s.Grep(ctx, tool.GrepInput{Pattern: "needle", Glob: "!" + c.glob})
		if err == nil || !strings.Contains(err.Error(), c.limit) || len(err.Error()) > 1000 {
			t.Errorf("grep glob %.20q… (%d bytes): %.300v", c.glob, len(c.glob), err)
		}
	}
	// At the limits, a glob works: 64 combinations, braces and commas
	// in a class are characters, an escaped brace is one.
	for _, glob := range []string{
		strings.Repeat("{a,a}", 6) + "*",
		"[{,}]*" + strings.Repeat("{a,a}", 6) + "*",
		`\{` + strings.Repeat("{a,a}", 6) + "*",
		strings.Repeat("a", MaxGlobBytes-1) + "*",
	} {
		if err := checkGlobLimits(glob); err != nil {
			t.Errorf("%.40q: %v", glob, err)
		}
	}
	res, err := s.Find(ctx, tool.FindInput{Pattern: strings.Repeat("{a,a}", 6) + "*"})
	if err != nil || res.Count != 1 {
		t.Errorf("find at the limit: %v %+v", err, res)
	}
	if err := checkGlobLimits(strings.Repeat("{a,a}", 7)); err == nil {
		t.Error("128 combinations passed")
	}
}
