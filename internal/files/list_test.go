package files

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spillway-dev/spillway/tool"
)

// A listing holds the first names in order, however many the directory
// holds, and counts them all and their bytes.
func TestListKeepsFirstNames(t *testing.T) {
	tl, dir := newTestTools(t, Config{Ls: tool.LsPolicy{Limit: 5, MaxBytes: 100, MaxTokens: 7}})
	var all []string
	for i := 0; i < 40; i++ {
		n := fmt.Sprintf("f%02d", 39-i)
		if i%2 == 0 {
			n = strings.ToUpper(n)
		}
		writeFile(t, dir, n, "")
		all = append(all, n)
	}
	os.Mkdir(filepath.Join(dir, "d"), 0o755)
	os.Symlink("d", filepath.Join(dir, "e"))
	all = append(all, "d/", "e@")
	slices.SortFunc(all, func(a, b string) int { return strings.Compare(strings.ToLower(a), strings.ToLower(b)) })
	var bytes int64
	for _, n := range all {
		bytes += int64(len(n)) + 1
	}

	l, err := tl.List(context.Background(), tool.LsInput{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(l.Names, all[:5]) || l.Total != 42 || l.TotalBytes != bytes || l.Policy != (tool.LsPolicy{Limit: 5, MaxBytes: 100, MaxTokens: 7}) {
		t.Fatalf("%+v, want names %q", l, all[:5])
	}
	l, err = tl.List(context.Background(), tool.LsInput{Path: ".", Limit: 100})
	if err != nil || !slices.Equal(l.Names, all) || l.Policy.Limit != 100 {
		t.Fatalf("limit 100: %v %+v", err, l)
	}
}
