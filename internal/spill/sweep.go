package spill

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// Sweep removes the session directories in tempDir ("" for os.TempDir())
// whose owning process no longer exists, as a crashed or killed server
// leaves them. It returns the directories removed.
func Sweep(tempDir string) []string {
	if tempDir == "" {
		tempDir = os.TempDir()
	}
	entries, err := os.ReadDir(tempDir)
	if err != nil {
		return nil
	}
	var removed []string
	for _, e := range entries {
		name := e.Name()
		if !e.IsDir() || !strings.HasPrefix(name, "spillway-") {
			continue
		}
		parts := strings.Split(name, "-")
		if len(parts) != 3 {
			continue // spillway-<uid> (the CLI's) or something else
		}
		pid, err := strconv.Atoi(parts[1])
		if err != nil || pid <= 0 || processExists(pid) {
			continue
		}
		dir := filepath.Join(tempDir, name)
		if info, err := e.Info(); err != nil || !ownedByMe(info) {
			continue
		}
		if os.RemoveAll(dir) == nil {
			removed = append(removed, dir)
		}
	}
	return removed
}

func processExists(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

func ownedByMe(info os.FileInfo) bool {
	st, ok := info.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Getuid()
}
