package spill

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spillway-dev/spillway/internal/testfs"
)

// On a disk that fills up, the error names the spill file by the path
// results give it, not by the name its directory had while it was made
// (.spillway-new-…).
func TestDiskFullErrorNamesTheFile(t *testing.T) {
	dir := testfs.Small(t, "64k")
	s := NewSession(Config{TempDir: dir})
	defer s.Close()
	f, err := s.Create("bash-1-stdout.log")
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.Write(bytes.Repeat([]byte("x\n"), 1<<20))
	if err == nil {
		t.Fatal("1 MB fit in a 64 KB file system")
	}
	if strings.Contains(err.Error(), ".spillway-new-") || !strings.Contains(err.Error(), f.Path()) {
		t.Errorf("the error %q does not name %s", err, f.Path())
	}
	if filepath.Dir(f.Path()) != s.Dir() {
		t.Errorf("the file %s is not in %s", f.Path(), s.Dir())
	}
	if err := f.Close(); err != nil && strings.Contains(err.Error(), ".spillway-new-") {
		t.Errorf("close: %v", err)
	}
}
