package codexpatch

import (
	"errors"
	"strings"
	"testing"
)

// A patch past a limit is refused before it is parsed, with an error
// that names the limit: 8 MiB of newlines became 8 million strings
// (128 MiB of headers) before the first line was looked at.
func TestPatchLimits(t *testing.T) {
	many := func(n int) string {
		var b strings.Builder
		b.WriteString("*** Begin Patch\n")
		for i := range n {
			b.WriteString("*** Delete File: f")
			b.WriteString(strings.Repeat("x", i%7))
			b.WriteString("\n")
		}
		b.WriteString("*** End Patch\n")
		return b.String()
	}
	for _, c := range []struct {
		name, patch, limit string
	}{
		{"64 MiB", "*** Begin Patch\n*** Add File: f\n+" + strings.Repeat("x", 64<<20) + "\n*** End Patch", "MaxPatchBytes"},
		{"a million newlines", "*** Begin Patch\n" + strings.Repeat("\n", 1<<20) + "*** End Patch", "MaxPatchLines"},
		{"deep context", "*** Begin Patch\n*** Update File: f\n" + strings.Repeat("@@ x\n a\n", MaxPatchLines/2) + "*** End Patch", "MaxPatchLines"},
		{"1001 files", many(MaxPatchFiles + 1), "MaxPatchFiles"},
	} {
		_, err := Parse(c.patch)
		var le *LimitError
		if !errors.As(err, &le) || le.Limit != c.limit || !strings.Contains(err.Error(), c.limit) || len(err.Error()) > 300 {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	p, err := Parse(many(MaxPatchFiles))
	if err != nil || len(p.Hunks) != MaxPatchFiles {
		t.Errorf("a patch of %d files: %v", MaxPatchFiles, err)
	}
}
