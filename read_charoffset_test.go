package spillway_test

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spillway-dev/spillway"
)

// A char_offset past the end of the line, up to the largest the
// parameter takes, is named as given: adding one to it for the notice
// must not wrap to a negative number.
func TestReadCharOffsetAtItsMaximum(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "f.txt"), []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ts := bashToolset(t, spillway.Options{Cwd: dir})
	r, err := ts.Read(context.Background(), spillway.ReadInput{Path: "f.txt", CharOffset: math.MaxInt64})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(r.Text, "-9223372036854775808") || !strings.Contains(r.Text, "9223372036854775808") {
		t.Errorf("the notice does not name character 2^63:\n%s", r.Text)
	}
}
