//go:build linux

package mcpserver_test

import (
	"crypto/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Real sudo, as a user with a password: the test makes the user (CI runs
// as root) and lets it sudo, and the server runs as that user, as an
// agent's does, so that sudo is a set-user-ID program it cannot look
// into. The password typed on the page in the browser is the one sudo
// checks.
func TestSecretPromptSudo(t *testing.T) {
	t.Parallel()
	if os.Geteuid() != 0 {
		t.Skip("making the test user needs root (CI runs as root)")
	}
	for _, tool := range []string{"sudo", "setpriv", "useradd", "chpasswd", "userdel", "chown"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed", tool)
		}
	}
	user := "spw" + strings.ToLower(rand.Text()[:8])
	password := "Sud0 " + rand.Text()[:12] + " &+%"
	run := func(stdin string, name string, args ...string) {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Stdin = strings.NewReader(stdin)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s %s: %v\n%s", name, args, err, out)
		}
	}
	run("", "useradd", "--no-create-home", "--shell", "/bin/sh", user)
	t.Cleanup(func() { exec.Command("userdel", user).Run() })
	run(user+":"+password+"\n", "chpasswd")
	sudoers := filepath.Join("/etc/sudoers.d", "spillway-test-"+user)
	if err := os.WriteFile(sudoers, []byte(user+" ALL=(root) ALL\n"), 0o440); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Remove(sudoers) })
	// The user's own directories: the server's binary, its TMPDIR (where
	// its spill directory is) and the command's cwd.
	// Under /tmp, not the test binary's own TMPDIR, which the test user
	// cannot enter.
	home, err := os.MkdirTemp("/tmp", "spillway-sudo-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(home) })
	userBin, tmp, dir := filepath.Join(home, "spillway"), filepath.Join(home, "tmp"), filepath.Join(home, "work")
	os.Mkdir(tmp, 0o700)
	os.Mkdir(dir, 0o755)
	exe, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(userBin, exe, 0o755); err != nil {
		t.Fatal(err)
	}
	os.Chmod(home, 0o755)
	run("", "chown", "-R", user+":"+user, tmp, dir)

	s := startSecretServerCmd(t, tmp, exec.Command("setpriv", "--reuid="+user, "--regid="+user, "--init-groups", "--", userBin, "mcp", "--log-level", "debug"))
	cmd := `sudo -k sh -c 'echo "root says $(id -u)"'`
	after, asked, v := answerThroughBrowserAsked(t, s, cmd, dir, "[sudo] password for "+user+":", password)
	if !strings.Contains(after, "root says 0") || strings.Contains(after, "Sorry, try again") {
		t.Errorf("sudo did not take the password typed:\n%s", after)
	}
	checkVerified(t, asked, v, "sudo")
	s.noTrace(t, password)

	// su, as the same user, to another user with a password of its own.
	other := "spw" + strings.ToLower(rand.Text()[:8])
	otherPassword := "Su " + rand.Text()[:12]
	run("", "useradd", "--no-create-home", "--shell", "/bin/sh", other)
	t.Cleanup(func() { exec.Command("userdel", other).Run() })
	run(other+":"+otherPassword+"\n", "chpasswd")
	// A server of its own: the jobs listing checked shows one job.
	s = startSecretServerCmd(t, tmp, exec.Command("setpriv", "--reuid="+user, "--regid="+user, "--init-groups", "--", userBin, "mcp", "--log-level", "debug"))
	after, asked, v = answerThroughBrowserAsked(t, s, "su -c 'echo \"su says $(id -un)\"' "+other, dir, "Password:", otherPassword)
	if !strings.Contains(after, "su says "+other) {
		t.Errorf("su did not take the password typed:\n%s", after)
	}
	checkVerified(t, asked, v, "su")
	s.noTrace(t, otherPassword)
}

// checkVerified checks that the prompt of program was verified, in its
// details and on the page's first line.
func checkVerified(t *testing.T, asked map[string]any, v pageVisit, program string) {
	t.Helper()
	got, _ := asked["program"].(string)
	if asked["verified"] != true || filepath.Base(got) != program {
		t.Errorf("details.secret of %s: %v", program, asked)
	}
	if !strings.HasSuffix(v.Asker, "(verified) asks for a secret") || !strings.Contains(v.Asker, program) {
		t.Errorf("the page's first line: %q", v.Asker)
	}
}

// Under --sandbox a secret prompt works the same way: the page is served
// by the server, outside the sandbox, and the answer reaches the
// confined command's terminal.
func TestSecretPromptUnderSandbox(t *testing.T) {
	t.Parallel()
	sandboxLayers(t)
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed")
	}
	base := t.TempDir()
	root, tmp := filepath.Join(base, "root"), filepath.Join(base, "tmp")
	os.Mkdir(root, 0o755)
	os.Mkdir(tmp, 0o755)
	s := startSecretServer(t, tmp, "--root", root, "--sandbox")
	cmd := `python3 -c 'import getpass, hashlib; s = getpass.getpass("Passphrase: "); print(len(s), hashlib.sha256(s.encode()).hexdigest())'`
	after := answerThroughBrowser(t, s, cmd, root, "Passphrase:", browserSecret)
	if !strings.Contains(after, received(browserSecret)) {
		t.Errorf("getpass under the sandbox did not receive the secret typed:\n%s", after)
	}
	s.noTrace(t, browserSecret)
}
