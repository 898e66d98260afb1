package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
)

// spillway version (and doctor) report the sandbox layers that a server
// of this user gets: the servers make themselves non-dumpable before they
// probe, and for a user other than root a non-dumpable process cannot
// map a child's user namespace, so its sessions run without namespaces.
// version probed as a dumpable process and said namespaces all the same.
// Run as an unprivileged user (nobody, when the test runs as root). It
// takes the shared binary's build (once per run) and three starts.
func TestVersionReportsTheServersLayers(t *testing.T) {
	c := attackCLI(t)
	// The temporary directory (the console's, without $XDG_RUNTIME_DIR)
	// is outside the root: a server without namespaces refuses it there.
	home, tmp := t.TempDir(), t.TempDir()
	cred := nobodyOwns(t, c.bin, home, tmp)
	env := []string{"HOME=" + home, "TMPDIR=" + tmp, "PATH=" + os.Getenv("PATH"), "XDG_CONFIG_HOME=" + filepath.Join(home, "config")}
	run := func(stdin string, args ...string) (string, string) {
		cmd := exec.Command(c.bin, args...)
		cmd.Dir, cmd.Env = home, env
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
		var out, errb bytes.Buffer
		cmd.Stdin, cmd.Stdout, cmd.Stderr = strings.NewReader(stdin), &out, &errb
		if err := cmd.Run(); err != nil {
			t.Logf("%v: %v\n%s", args, err, errb.String())
		}
		return out.String(), errb.String()
	}
	out, _ := run("", "version")
	m := regexp.MustCompile(`sandbox layers: ([a-z+]+);`).FindStringSubmatch(out)
	if m == nil {
		t.Skipf("no sandbox here: %s", out)
	}
	_, log := run("", "--sandbox", "--root", home, "mcp")
	s := regexp.MustCompile(`layers=([a-z+]+)`).FindStringSubmatch(log)
	if s == nil {
		t.Fatalf("the server logged no layers:\n%s", log)
	}
	if m[1] != s[1] {
		t.Errorf("spillway version says %s, a server of the same user gets %s", m[1], s[1])
	}
	dout, _ := run("", "--sandbox", "--root", home, "doctor")
	if d := regexp.MustCompile(`--sandbox works here: ([a-z+]+)`).FindStringSubmatch(dout); d == nil || d[1] != s[1] {
		t.Errorf("doctor does not say %s:\n%s", s[1], dout)
	}
	if d := regexp.MustCompile(`sandbox layers: ([a-z+]+);`).FindStringSubmatch(dout); d != nil && d[1] != s[1] {
		t.Errorf("doctor's status says %s, a server gets %s", d[1], s[1])
	}
}

// nobodyOwns returns the credential to run bin as a user other than root
// (nobody, when the test runs as root; nil, as itself, otherwise), with
// dirs (temporary directories) given to that user and their parents and
// bin's opened to it.
func nobodyOwns(t *testing.T, bin string, dirs ...string) *syscall.Credential {
	t.Helper()
	if os.Getuid() != 0 {
		return nil
	}
	open := []string{filepath.Dir(bin)}
	for _, d := range dirs {
		open = append(open, filepath.Dir(d))
	}
	for _, d := range open {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range dirs {
		if err := os.Chown(d, 65534, 65534); err != nil {
			t.Fatal(err)
		}
	}
	return &syscall.Credential{Uid: 65534, Gid: 65534}
}
