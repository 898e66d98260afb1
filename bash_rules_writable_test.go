package spillway

import (
	"os"
	"path/filepath"
	"testing"
)

// Under --sandbox a directory the session can write is one of the
// sandbox's writable set or beneath one, symbolic links resolved;
// without, the rules ask the user's own access (nil).
func TestWritableDirIsTheSandboxSet(t *testing.T) {
	ws := t.TempDir()
	tmp := t.TempDir()
	other := t.TempDir()
	link := filepath.Join(other, "link")
	if err := os.Symlink(filepath.Join(ws, "node_modules"), link); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(ws, "node_modules", ".bin"), 0o755)
	if (&Toolset{}).writableDir() != nil {
		t.Fatal("without a sandbox the rules should ask the user's own access")
	}
	w := (&Toolset{sandboxed: true, sandboxWritable: []string{"/dev/shm", ws, tmp}}).writableDir()
	for d, want := range map[string]bool{
		ws: true, filepath.Join(ws, "node_modules", ".bin"): true, tmp: true, link: true,
		other: false, "/usr/bin": false, ws + "x": false,
	} {
		if got := w(d); got != want {
			t.Errorf("%s: writable %v, want %v", d, got, want)
		}
	}
}
