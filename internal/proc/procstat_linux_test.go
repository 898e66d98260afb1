package proc

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
)

// readStat must find the fields after a command name with spaces and
// parentheses.
func TestReadStatOddName(t *testing.T) {
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Skip(err)
	}
	b, err := os.ReadFile(sleep)
	if err != nil {
		t.Fatal(err)
	}
	odd := filepath.Join(t.TempDir(), "a) (b c")
	if err := os.WriteFile(odd, b, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(odd, "30")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer cmd.Process.Kill()
	st, ok := readStat(cmd.Process.Pid)
	if !ok || st.ppid != os.Getpid() || st.pgrp != cmd.Process.Pid || st.state == 'Z' {
		t.Errorf("%+v %v", st, ok)
	}
}

// isZombie reports whether pid is a zombie.
func isZombie(pid int) bool {
	st, ok := readStat(pid)
	return ok && st.state == 'Z'
}
