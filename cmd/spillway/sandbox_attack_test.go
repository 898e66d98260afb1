//go:build linux

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spillway-dev/spillway/internal/sandbox"
)

// Attacks on --sandbox through the CLI, as an agent (or a prompt-injected
// command) would run them. Each left a mark outside the root before the
// sandbox's clean helper environment and namespaces.

// sandboxCLI is the binary with a root, a directory outside it (and
// outside TMPDIR, which is writable), and the layers this machine gives.
type sandboxCLI struct {
	bashCLI
	root, outside string
	layers        sandbox.Layer
}

func newSandboxCLI(t *testing.T) sandboxCLI {
	t.Helper()
	if ok, abi, err := sandbox.Status(); !ok || abi < sandbox.FilesABI {
		t.Skipf("no Landlock here (ABI %d, %v)", abi, err)
	}
	c := sandboxCLI{bashCLI: newBashCLI(t)}
	base := filepath.Dir(c.tmp)
	c.root, c.outside = filepath.Join(base, "root"), filepath.Join(base, "outside")
	for _, d := range []string{c.root, c.outside} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	r := c.run(t, "version")
	_, line, _ := strings.Cut(r.stdout, "sandbox layers: ")
	line, _, _ = strings.Cut(line, ";")
	c.layers, _ = sandbox.ParseLayers(line)
	t.Logf("layers here: %v", c.layers)
	return c
}

// bash runs a command under --root --sandbox with extra flags first.
func (c sandboxCLI) bash(t *testing.T, command string, flags ...string) cliRun {
	t.Helper()
	args := append([]string{"--root", c.root, "--sandbox"}, flags...)
	return c.run(t, append(args, "bash", command)...)
}

// TestSandboxLDPreloadThroughEnv: a sandboxed command builds a library in
// the root; a later call preloads it through --env. The loader ran it in
// the (dynamically linked) helper before Landlock, which wrote outside.
func TestSandboxLDPreloadThroughEnv(t *testing.T) {
	c := newSandboxCLI(t)
	if _, err := exec.LookPath("cc"); err != nil {
		t.Skip("no C compiler")
	}
	mark := filepath.Join(c.outside, "preloaded")
	src := `#include <stdio.h>
#include <unistd.h>
__attribute__((constructor)) static void evil(void) {
	FILE *f = fopen("` + mark + `", "a");
	if (f) { fprintf(f, "written from pid %d\n", getpid()); fclose(f); }
}
`
	if err := os.WriteFile(filepath.Join(c.root, "evil.c"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := c.bash(t, "cc -shared -fPIC -o evil.so evil.c"); r.status != 0 {
		t.Fatalf("building evil.so inside the root: %d %s%s", r.status, r.stdout, r.stderr)
	}
	so := filepath.Join(c.root, "evil.so")
	r := c.bash(t, "echo hello", "--env", "LD_PRELOAD="+so)
	if !strings.Contains(r.stdout, "hello") {
		t.Errorf("the command did not run: %d %q %q", r.status, r.stdout, r.stderr)
	}
	if b, err := os.ReadFile(mark); err == nil {
		t.Fatalf("the preloaded library wrote outside the root: %s", b)
	}
	// The library is still preloaded into the command itself, confined:
	// the environment reaches the shell, only after confinement.
	r = c.bash(t, `echo "$LD_PRELOAD"`, "--env", "LD_PRELOAD="+so)
	if !strings.Contains(r.stdout, so) {
		t.Errorf("the command's environment was lost: %q %q", r.stdout, r.stderr)
	}
}

// TestSandboxMetadataOutsideTheRoot: Landlock does not cover chmod,
// chown, utime or setxattr; the read-only mount of the namespaces does.
func TestSandboxMetadataOutsideTheRoot(t *testing.T) {
	c := newSandboxCLI(t)
	if c.layers&sandbox.Namespaces == 0 {
		t.Skip("no namespaces here: the floor does not hold metadata (docs/reliability.md)")
	}
	target := filepath.Join(c.outside, "file")
	if err := os.WriteFile(target, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	before, _ := os.Stat(target)
	attempts := []string{
		"chmod 666 " + target,
		"chown 65534 " + target,
		"touch -d 2001-01-01 " + target,
		"chmod 666 " + c.outside,
	}
	if _, err := exec.LookPath("python3"); err == nil {
		attempts = append(attempts, `python3 -c 'import os,sys; os.setxattr(sys.argv[1], "user.spillway", b"x")' `+target)
	}
	for _, a := range attempts {
		r := c.bash(t, a)
		if r.status == 0 {
			t.Errorf("%s: succeeded under the sandbox: %q", a, r.stdout)
		}
	}
	after, _ := os.Stat(target)
	if after.Mode() != before.Mode() || !after.ModTime().Equal(before.ModTime()) || after.Sys().(*syscall.Stat_t).Uid != before.Sys().(*syscall.Stat_t).Uid {
		t.Errorf("the file outside changed: %v %v -> %v %v", before.Mode(), before.ModTime(), after.Mode(), after.ModTime())
	}
	if x, err := getxattr(target, "user.spillway"); err == nil {
		t.Errorf("an xattr was set outside: %q", x)
	}
	// Inside the root, the same operations work.
	inside := filepath.Join(c.root, "file")
	os.WriteFile(inside, []byte("x"), 0o600)
	if r := c.bash(t, "chmod 640 file && touch -d 2001-01-01 file"); r.status != 0 {
		t.Errorf("metadata inside the root: %d %q", r.status, r.stderr)
	}
	if fi, _ := os.Stat(inside); fi.Mode().Perm() != 0o640 || fi.ModTime().Year() != 2001 {
		t.Errorf("inside the root: %v %v", fi.Mode(), fi.ModTime())
	}
}

func getxattr(path, name string) (string, error) {
	b := make([]byte, 64)
	n, err := syscall.Getxattr(path, name, b)
	if err != nil {
		return "", err
	}
	return string(b[:n]), nil
}

// TestSandboxDaemonDoesNotOutliveTheSession: a daemon that double-forks,
// calls setsid and closes its descriptors left every process group and
// pipe the session tracks; it outlived the CLI's one-shot session.
func TestSandboxDaemonDoesNotOutliveTheSession(t *testing.T) {
	c := newSandboxCLI(t)
	if c.layers&sandbox.Namespaces == 0 {
		t.Skip("no namespaces here")
	}
	marker := "3" + strconv.FormatInt(time.Now().UnixNano()%1000000, 10) + ".5"
	r := c.bash(t, `(setsid sh -c 'sleep `+marker+` >/dev/null 2>&1 </dev/null &' &); sleep 0.2; echo started`, "--timeout", "2000")
	if !strings.Contains(r.stdout, "started") {
		t.Fatalf("%d %q %q", r.status, r.stdout, r.stderr)
	}
	// The CLI has exited: its session ended.
	deadline := time.Now().Add(10 * time.Second)
	for {
		pids := pidsRunning("sleep " + marker)
		if len(pids) == 0 {
			break
		}
		if time.Now().After(deadline) {
			for _, p := range pids {
				syscall.Kill(p, syscall.SIGKILL)
			}
			t.Fatalf("the daemon %v outlived its session", pids)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestDaemonDoesNotOutliveTheSession: without the sandbox, a daemon that
// double-forks, calls setsid and closes its descriptors is ended with the
// session all the same (by the mark in its environment).
func TestDaemonDoesNotOutliveTheSession(t *testing.T) {
	c := newBashCLI(t)
	marker := "3" + strconv.FormatInt(time.Now().UnixNano()%1000000, 10) + ".75"
	r := c.run(t, "bash", `(setsid sh -c 'sleep `+marker+` >/dev/null 2>&1 </dev/null &' &); sleep 0.2; echo started`)
	if !strings.Contains(r.stdout, "started") {
		t.Fatalf("%d %q %q", r.status, r.stdout, r.stderr)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		pids := pidsRunning("sleep " + marker)
		if len(pids) == 0 {
			break
		}
		if time.Now().After(deadline) {
			for _, p := range pids {
				syscall.Kill(p, syscall.SIGKILL)
			}
			t.Fatalf("the daemon %v outlived its session", pids)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// pidsRunning lists the live processes whose command line is cmdline
// (arguments joined by spaces).
func pidsRunning(cmdline string) []int {
	ents, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err != nil || strings.TrimRight(strings.ReplaceAll(string(b), "\x00", " "), " ") != cmdline {
			continue
		}
		if st, _ := os.ReadFile("/proc/" + e.Name() + "/stat"); len(st) > 0 {
			if i := strings.LastIndexByte(string(st), ')'); i > 0 && i+2 < len(st) && st[i+2] == 'Z' {
				continue
			}
		}
		pids = append(pids, pid)
	}
	return pids
}

// TestSandboxMinRefusesToWeaken: --sandbox-min names layers the sandbox
// must have; a bad name is a usage error.
func TestSandboxMinRefusesToWeaken(t *testing.T) {
	c := newSandboxCLI(t)
	r := c.bash(t, "echo ran", "--sandbox-min", "landlock,bwrap")
	if r.status != 2 || strings.Contains(r.stdout, "ran") || !strings.Contains(r.stderr, `unknown sandbox layer "bwrap"`) {
		t.Errorf("bad layer: %d %q %q", r.status, r.stdout, r.stderr)
	}
	r = c.bash(t, "echo ran", "--sandbox-min", c.layers.String())
	if r.status != 0 || !strings.Contains(r.stdout, "ran") {
		t.Errorf("the layers this machine has: %d %q %q", r.status, r.stdout, r.stderr)
	}
}
