//go:build unix

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/creack/pty"
)

// An ask rule in the CLI asks y/N on the terminal (/dev/tty), never
// stdin; without a terminal it says how to allow the command.
func TestCLIAskOnTheTerminal(t *testing.T) {
	cli := attackCLI(t)
	dir := t.TempDir()
	cfg := filepath.Join(dir, "ask.toml")
	os.WriteFile(cfg, []byte("[rules]\ndefault = \"allow\"\nask = [\"echo *\"]\n"), 0o644)
	// The last command would move up and clear the line it is on, on
	// the person's terminal: its escapes are written as their codes.
	for _, c := range []struct {
		command, typed, want, shown string
		status                      int
	}{
		{"echo hi", "y\n", "stdout:\nhi\n", "echo hi", 0},
		{"echo hi", "n\n", "the user denied the command", "echo hi", 1},
		{"echo hi \x1b[1A\x1b[2Kls", "n\n", "the user denied the command", "echo hi <U+001B>[1A<U+001B>[2Kls", 1},
	} {
		cmd := exec.Command(cli.bin, "--config", cfg, "bash", c.command)
		cmd.Env = cli.env
		var out bytes.Buffer
		cmd.Stdout = &out
		cmd.Stdin = strings.NewReader("y\n") // never read for the answer
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
		ptmx, tty, err := pty.Open()
		if err != nil {
			t.Skip("no pseudo-terminal:", err)
		}
		cmd.Stderr = tty
		cmd.SysProcAttr.Ctty = 2
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		tty.Close()
		prompt := make([]byte, 0, 512)
		buf := make([]byte, 256)
		for !bytes.Contains(prompt, []byte("[y/N]")) {
			n, err := ptmx.Read(buf)
			if err != nil {
				t.Fatalf("no prompt: %v %q", err, prompt)
			}
			prompt = append(prompt, buf[:n]...)
		}
		ptmx.Write([]byte(c.typed))
		err = cmd.Wait()
		ptmx.Close()
		status := 0
		if e, ok := err.(*exec.ExitError); ok {
			status = e.ExitCode()
		}
		if status != c.status || !strings.Contains(out.String(), c.want) || !strings.Contains(string(prompt), c.shown) || strings.Contains(string(prompt), "\x1b") {
			t.Errorf("typed %q: status %d %q, prompt %q", c.typed, status, out.String(), prompt)
		}
	}
	// No terminal: plain words, and stdin's "y" answers nothing.
	cmd := exec.Command(cli.bin, "--config", cfg, "bash", "echo hi")
	cmd.Env, cmd.Stdin = cli.env, strings.NewReader("y\n")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} // no controlling terminal
	out, err := cmd.Output()
	r := cliRun{stdout: string(out)}
	if e, ok := err.(*exec.ExitError); ok {
		r.status = e.ExitCode()
	}
	if r.status != 1 || strings.Contains(r.stdout, "no Asker") || !strings.Contains(r.stdout, "no terminal to ask") || strings.Contains(r.stdout, "stdout:\nhi") {
		t.Errorf("without a terminal: %d %q", r.status, r.stdout)
	}
}
