package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Attacks on spillway as an agent (or another local user) would run them,
// each through the built binary. Every one of them got through before its
// fix; the bounded waits only catch hangs.

var attackBin struct {
	once sync.Once
	path string
	err  error
	out  []byte
}

// attackCLI returns the binary, built once per test run, with a TMPDIR of
// the test's own.
func attackCLI(t *testing.T) bashCLI {
	t.Helper()
	attackBin.once.Do(func() {
		dir, err := os.MkdirTemp("", "spillway-attack-bin")
		if err != nil {
			attackBin.err = err
			return
		}
		attackBin.path = filepath.Join(dir, "spillway")
		attackBin.out, attackBin.err = exec.Command("go", "build", "-o", attackBin.path, ".").CombinedOutput()
	})
	if attackBin.err != nil {
		t.Fatalf("go build: %v\n%s", attackBin.err, attackBin.out)
	}
	tmp := t.TempDir()
	return bashCLI{bin: attackBin.path, env: append(os.Environ(), "TMPDIR="+tmp), tmp: tmp}
}

// hangLimit is how long a call that should return at once may take before
// the test calls it a hang.
const hangLimit = 60 * time.Second

// runBounded runs the binary in dir ("" for the test's) and fails the
// test if it has not exited within hangLimit.
func (c bashCLI) runBounded(t *testing.T, dir string, args ...string) cliRun {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hangLimit)
	defer cancel()
	cmd := exec.CommandContext(ctx, c.bin, args...)
	cmd.Dir, cmd.Env = dir, c.env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.WaitDelay = time.Second
	start := time.Now()
	err := cmd.Run()
	r := cliRun{stdout: out.String(), stderr: errb.String(), took: time.Since(start)}
	if ctx.Err() != nil {
		t.Fatalf("spillway %q hung (killed after %v)", args, hangLimit)
	}
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		r.status = exit.ExitCode()
	default:
		t.Fatalf("%v: %v", args, err)
	}
	return r
}

// A FIFO in the place of an ignore file — the walked directory's, an
// ancestor's, or .git/info/exclude — is skipped, never waited on.
func TestAttackFIFOIgnoreFiles(t *testing.T) {
	c := attackCLI(t)
	repo := t.TempDir()
	for _, d := range []string{"sub/deeper", ".git/info"} {
		os.MkdirAll(filepath.Join(repo, d), 0o755)
	}
	os.WriteFile(filepath.Join(repo, "sub/deeper/a.txt"), []byte("hello\n"), 0o644)
	for _, f := range []string{".gitignore", ".ignore", ".git/info/exclude", "sub/.gitignore", "sub/deeper/.ignore"} {
		if err := syscall.Mkfifo(filepath.Join(repo, f), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{
		{"--root", repo, "grep", "hello", "sub"},
		{"--root", repo, "grep", "hello", "sub/deeper"},
		{"grep", "hello"},
		{"find", "*.txt"},
		{"--root", repo, "find", "*.txt", "sub/deeper"},
	} {
		r := c.runBounded(t, repo, args...)
		if r.status != 0 || !strings.Contains(r.stdout, "a.txt") {
			t.Errorf("spillway %q: status %d, stdout %q, stderr %q", args, r.status, r.stdout, r.stderr)
		}
	}
}

// A "regular" file whose reads wait for data (/proc/kmsg, readable by
// root only) is given up on with a clear error.
func TestAttackReadProcKmsg(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("/proc/kmsg is readable by root only")
	}
	c := attackCLI(t)
	r := c.runBounded(t, t.TempDir(), "read", "/proc/kmsg")
	if r.status != 1 || !strings.Contains(r.stdout, "not an ordinary file") {
		t.Errorf("read /proc/kmsg: status %d, stdout %q, stderr %q", r.status, r.stdout, r.stderr)
	}
}
