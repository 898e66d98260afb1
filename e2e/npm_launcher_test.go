//go:build unix

package e2e

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestNPMLauncher: the launcher passes the binary's exit code through
// (bash exits with the command's status),
// hands it the signals it gets, and ends by the binary's signal.
func TestNPMLauncher(t *testing.T) {
	p := findNPMPackages(t)
	env := npmEnviron(t)
	prefix := installOffline(t, p, env)
	launcher := filepath.Join(prefix, "node_modules", ".bin", "spillway")

	t.Run("exit code", func(t *testing.T) {
		for args, want := range map[string]int{"version": 0, "bash\x00exit 3": 3, "--no-such-flag": 2} {
			cmd := exec.Command(launcher, strings.Split(args, "\x00")...)
			cmd.Dir, cmd.Env = prefix, env
			err := cmd.Run()
			if got := cmd.ProcessState.ExitCode(); got != want {
				t.Errorf("spillway %q through the launcher exited %d (%v), want %d", args, got, err, want)
			}
		}
	})

	// start runs `spillway mcp` through the launcher, waits for its
	// answer to initialize (the server is up and handles signals), and
	// returns it with the pid of the binary it started.
	start := func(t *testing.T) (*exec.Cmd, int) {
		cmd := exec.Command(launcher, "mcp")
		cmd.Dir, cmd.Env = prefix, env
		stdin, err := cmd.StdinPipe() // held open: the server waits
		if err != nil {
			t.Fatal(err)
		}
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		io.WriteString(stdin, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`+"\n")
		line, err := bufio.NewReader(stdout).ReadString('\n')
		if !strings.Contains(line, `"serverInfo"`) {
			t.Fatalf("no answer to initialize through the launcher: %q, %v", line, err)
		}
		if pid := childPid(cmd.Process.Pid); pid > 0 {
			return cmd, pid
		}
		t.Fatal("the launcher has no child process")
		return nil, 0
	}

	t.Run("SIGTERM reaches the binary", func(t *testing.T) {
		cmd, bin := start(t)
		cmd.Process.Signal(syscall.SIGTERM)
		err := cmd.Wait()
		if cmd.ProcessState.ExitCode() != 0 {
			t.Errorf("after SIGTERM the launcher ended with %v; spillway mcp exits 0 on SIGTERM", err)
		}
		if syscall.Kill(bin, 0) == nil {
			t.Errorf("the binary (pid %d) outlived the launcher", bin)
		}
	})

	t.Run("the binary's signal", func(t *testing.T) {
		cmd, bin := start(t)
		syscall.Kill(bin, syscall.SIGKILL)
		cmd.Wait()
		ws := cmd.ProcessState.Sys().(syscall.WaitStatus)
		if !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
			t.Errorf("the binary died of SIGKILL; the launcher ended with %v", cmd.ProcessState)
		}
	})
}

// childPid returns the pid of a child of pid, or 0.
func childPid(pid int) int {
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", pid))
	for _, f := range tasks {
		b, _ := os.ReadFile(f)
		if fields := strings.Fields(string(b)); len(fields) > 0 {
			var child int
			fmt.Sscan(fields[0], &child)
			return child
		}
	}
	return 0
}
