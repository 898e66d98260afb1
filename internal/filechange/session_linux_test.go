package filechange

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spillway-dev/spillway/internal/testfs"
)

// A patch whose write fails part way (a full disk) puts back the files
// written before it.
func TestPatchRolledBackOnAFullDisk(t *testing.T) {
	small := testfs.Small(t, "256k")
	s2 := New(Config{Cwd: small})
	put(t, filepath.Join(small, "a"), "1\n")
	big := "*** Add File: z\n" + strings.Repeat("+"+strings.Repeat("x", 1000)+"\n", 1000)
	_, err := s2.ApplyPatch(ctx, "*** Begin Patch\n*** Update File: a\n@@\n-1\n+one\n*** Add File: y\n+y\n"+big+"*** End Patch", nil)
	if err == nil {
		t.Fatal("1 MB fit in 256 KB")
	}
	if get(t, filepath.Join(small, "a")) != "1\n" {
		t.Fatalf("a is %q after a failed patch", get(t, filepath.Join(small, "a")))
	}
	for _, n := range []string{"y", "z"} {
		if _, err := os.Stat(filepath.Join(small, n)); err == nil {
			t.Errorf("%s was left", n)
		}
	}
}
