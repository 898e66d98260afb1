//go:build unix

package proc

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// The watcher kills the groups still listed when its pipe reaches end of
// file (the server is gone), and leaves alone a group taken off the list.
func TestWatcherKillsListedGroupsAtEndOfFile(t *testing.T) {
	start := func() *exec.Cmd {
		cmd := exec.Command("sleep", "30")
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		return cmd
	}
	listed, unlisted := start(), start()
	defer unlisted.Process.Kill()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(w, "+%d\n+%d\n-%d\n", listed.Process.Pid, unlisted.Process.Pid, unlisted.Process.Pid)
	w.Close() // the server's end closes when it dies
	runWatcher(r)
	r.Close()
	done := make(chan error, 1)
	go func() { done <- listed.Wait() }()
	select {
	case err := <-done:
		if ws, ok := listed.ProcessState.Sys().(syscall.WaitStatus); !ok || ws.Signal() != syscall.SIGKILL {
			t.Errorf("the listed group ended with %v, not SIGKILL", err)
		}
	case <-time.After(10 * time.Second):
		listed.Process.Kill()
		t.Fatal("the listed group outlived the watcher's end of file")
	}
	if err := syscall.Kill(unlisted.Process.Pid, 0); err != nil {
		t.Errorf("the unlisted group was killed: %v", err)
	}
}

// At end of file the watcher removes the spill directories still listed,
// and only those: not one taken off the list, not one whose path now
// leads to another directory or to a symlink (to a directory of the
// person's that must survive).
func TestWatcherRemovesListedDirsAtEndOfFile(t *testing.T) {
	base := t.TempDir()
	mk := func(name string) (string, os.FileInfo) {
		p := filepath.Join(base, name)
		if err := os.MkdirAll(filepath.Join(p, "tmp"), 0o700); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(p, "bash-1-stdout.log"), []byte("out\n"), 0o600)
		fi, err := os.Lstat(p)
		if err != nil {
			t.Fatal(err)
		}
		return p, fi
	}
	listed, listedFI := mk("spillway-1 with space")
	unlisted, unlistedFI := mk("spillway-2")
	swapped, swappedFI := mk("spillway-3")
	linked, linkedFI := mk("spillway-4")
	precious, _ := mk("precious")
	other, _ := mk("other")
	os.WriteFile(filepath.Join(other, "keep"), nil, 0o600)
	// The paths of the last two are made to lead elsewhere after listing:
	// another directory renamed in place, a symlink.
	os.RemoveAll(swapped)
	if err := os.Rename(other, swapped); err != nil {
		t.Fatal(err)
	}
	os.RemoveAll(linked)
	if err := os.Symlink(precious, linked); err != nil {
		t.Fatal(err)
	}

	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []struct {
		path string
		fi   os.FileInfo
	}{{listed, listedFI}, {unlisted, unlistedFI}, {swapped, swappedFI}, {linked, linkedFI}} {
		id, ok := idOf(d.fi)
		if !ok {
			t.Skip("no device and inode on this system")
		}
		io.WriteString(w, dirLine(d.path, id))
	}
	io.WriteString(w, "r"+strconv.Quote(unlisted)+"\n")
	io.WriteString(w, "d1 2 not-absolute\nd1 2\nrgarbage\n")
	w.Close()
	runWatcher(r)
	r.Close()

	if _, err := os.Lstat(listed); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the listed directory is still there: %v", err)
	}
	for _, p := range []string{unlisted, filepath.Join(swapped, "keep"), filepath.Join(precious, "bash-1-stdout.log")} {
		if _, err := os.Lstat(p); err != nil {
			t.Errorf("%s was removed: %v", p, err)
		}
	}
}
