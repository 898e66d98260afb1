package main

import (
	"bufio"
	"cmp"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A sandbox without namespaces (every server of a user other than root)
// hides a directory by granting no read there; Landlock only adds access,
// and the root is granted whole. Serve's token file or the console's
// directory inside --root was then read by a plain `cat`, and with it a
// command could open a session of its own, or log into the console, and
// approve its own commands. Such a server now refuses to start, and says
// where to put them instead. Run as nobody when the test runs as root.
func TestSandboxWithoutNamespacesRefusesSecretsInTheRoot(t *testing.T) {
	c := attackCLI(t)
	home, elsewhere := t.TempDir(), t.TempDir()
	cred := nobodyOwns(t, c.bin, home, elsewhere)
	runtimeDir := filepath.Join(elsewhere, "runtime")
	if err := os.Mkdir(runtimeDir, 0o700); err != nil {
		t.Fatal(err)
	}
	if cred != nil {
		os.Chown(runtimeDir, 65534, 65534)
	}
	// serve runs until it says where it serves, or ends; it is killed
	// then. It returns what it printed and whether it served.
	serve := func(env []string, args ...string) (string, bool) {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, c.bin, args...)
		cmd.Dir = home
		cmd.Env = append([]string{"HOME=" + home, "PATH=" + os.Getenv("PATH")}, env...)
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
		stderr, err := cmd.StderrPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		defer cmd.Wait()
		var said strings.Builder
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			said.WriteString(sc.Text() + "\n")
			if strings.Contains(sc.Text(), "serving MCP at ") {
				cmd.Process.Kill()
				return said.String(), true
			}
		}
		return said.String(), false
	}
	out, _ := exec.Command(c.bin, "version").Output()
	if !regexp.MustCompile(`sandbox layers: [a-z+]+;`).Match(out) {
		t.Skipf("no sandbox here: %s", out)
	}
	apart := []string{"TMPDIR=" + elsewhere, "XDG_RUNTIME_DIR=" + runtimeDir}
	said, served := serve(apart, "serve", "--sandbox", "--root", home, "--listen", "127.0.0.1:0")
	if !served {
		t.Fatalf("serve with its token and the console's directory outside the root did not start:\n%s", said)
	}
	if m := regexp.MustCompile(`layers=([a-z+]+)`).FindStringSubmatch(said); m == nil || strings.Contains(m[1], "namespaces") {
		t.Skipf("the server's sandbox has namespaces, which hide the secrets: %s", said)
	}
	for _, tc := range []struct {
		name string
		root string // home when empty; "." is home too, from its cwd
		env  []string
		args []string
		want string
	}{
		{"token file in the root", "", apart,
			[]string{"serve", "--token-file", filepath.Join(home, "serve.token")},
			"serve's token file would be written in " + home},
		{"token file in the root, given relative", ".", apart,
			[]string{"serve", "--token-file", "serve.token"},
			"serve's token file would be written in " + home},
		{"default token file under --root ~ without $XDG_RUNTIME_DIR", "", []string{"TMPDIR=" + elsewhere},
			[]string{"serve"},
			"serve's token file would be written in " + filepath.Join(home, ".config", "spillway")},
		{"token file in /dev/shm", "", apart,
			[]string{"serve", "--token-file", filepath.Join("/dev/shm", filepath.Base(home), "serve.token")},
			"inside /dev/shm, which every command may write"},
		{"token on the command line", "", apart,
			[]string{"serve", "--token", "a-token-every-process-reads"},
			"give the token in $SPILLWAY_TOKEN"},
		{"console's directory in the root", "", []string{"TMPDIR=" + home},
			[]string{"mcp"},
			"the console's directory " + filepath.Join(home, "spillway-")},
		{"console's directory in the root, given relative", ".", []string{"TMPDIR=" + home},
			[]string{"mcp"},
			"the console's directory " + filepath.Join(home, "spillway-")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := cmp.Or(tc.root, home)
			args := append([]string{"--sandbox", "--root", root}, tc.args...)
			if tc.args[0] == "serve" {
				args = append(args, "--listen", "127.0.0.1:0")
			}
			said, served := serve(tc.env, args...)
			if served {
				t.Fatalf("the server started, its secrets readable by its sandboxed commands:\n%s", said)
			}
			if !strings.Contains(said, tc.want) {
				t.Errorf("the refusal does not say where the secret is and what to do; want %q in:\n%s", tc.want, said)
			}
		})
	}
	// The person's own rules inside the root: said at start.
	if err := os.Mkdir(filepath.Join(home, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	if said, _ := serve(apart, "--sandbox", "--root", home, "mcp"); !strings.Contains(said, "your own rules are inside --root") || !strings.Contains(said, filepath.Join(home, ".claude")) {
		t.Errorf("mcp does not say that the person's rules are inside the root:\n%s", said)
	}
	if cred != nil {
		lateRuntimeSecret(t, c.bin, home, cred, apart)
	}
	// A console started in another environment (here: $TMPDIR unset)
	// keeps its login page in its own directory; a command of this
	// sandbox, whose console directory is elsewhere, reads none of it.
	uid := os.Geteuid()
	if cred != nil {
		uid = int(cred.Uid)
	}
	other := filepath.Join("/tmp", "spillway-"+strconv.Itoa(uid), "console")
	page := filepath.Join(other, "open-"+filepath.Base(home)+".html")
	if err := os.MkdirAll(other, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(page, []byte("the-console-login\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Remove(page) })
	if cred != nil {
		for _, p := range []string{filepath.Dir(other), other, page} {
			os.Chown(p, uid, uid)
		}
	}
	bash := exec.Command(c.bin, "--sandbox", "--root", home, "bash", "cat "+page)
	bash.Dir, bash.Env = home, append([]string{"HOME=" + home, "PATH=" + os.Getenv("PATH")}, apart...)
	bash.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	if out, _ := bash.CombinedOutput(); strings.Contains(string(out), "the-console-login") || !strings.Contains(string(out), "exit code: 1") {
		t.Errorf("a sandboxed command read the login page of a console in another environment:\n%s", out)
	}
	// doctor says so before a client starts the server.
	doctor := exec.Command(c.bin, "--sandbox", "--root", home, "doctor")
	doctor.Dir, doctor.Env = home, []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "TMPDIR=" + home}
	doctor.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	report, _ := doctor.CombinedOutput()
	if !regexp.MustCompile(`PROBLEM +sandbox: the console's directory `).Match(report) {
		t.Errorf("doctor does not say that the console's directory is in the root:\n%s", report)
	}
}

// lateRuntimeSecret: a server started without $XDG_RUNTIME_DIR hides the
// usual runtime directory, /run/user/UID/spillway, where the person's
// serve (which has the variable) writes its token; and it hides it even
// when the directory is made after the command started, which waits for
// the token to appear. Run as nobody, whose /run/user/UID the test makes
// and removes.
func lateRuntimeSecret(t *testing.T, bin, home string, cred *syscall.Credential, env []string) {
	uid := int(cred.Uid)
	runUser := filepath.Join("/run/user", strconv.Itoa(uid))
	if _, err := os.Stat(runUser); err == nil {
		t.Logf("%s exists: not the test's to make", runUser)
		return
	}
	if err := os.MkdirAll(runUser, 0o700); err != nil {
		t.Logf("no %s: %v", runUser, err)
		return
	}
	t.Cleanup(func() { os.RemoveAll(runUser) })
	os.Chown(runUser, uid, uid)
	var noRuntime []string
	for _, e := range env {
		if !strings.HasPrefix(e, "XDG_RUNTIME_DIR=") {
			noRuntime = append(noRuntime, e)
		}
	}
	token := filepath.Join(runUser, "spillway", "serve-7777.token")
	ready := filepath.Join(home, "token-written")
	script := fmt.Sprintf("until [ -e %s ]; do sleep 0.05; done; cat %s", ready, token)
	bash := exec.Command(bin, "--sandbox", "--root", home, "bash", "--timeout", "60000", script)
	bash.Dir, bash.Env = home, append([]string{"HOME=" + home, "PATH=" + os.Getenv("PATH")}, noRuntime...)
	bash.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	var out strings.Builder
	bash.Stdout, bash.Stderr = &out, &out
	if err := bash.Start(); err != nil {
		t.Fatal(err)
	}
	// The person's serve starts after this server did: it makes its
	// directory if the server did not, and writes its token.
	os.MkdirAll(filepath.Dir(token), 0o700)
	os.WriteFile(token, []byte("the-serve-token\n"), 0o600)
	os.Chown(filepath.Dir(token), uid, uid)
	os.Chown(token, uid, uid)
	os.WriteFile(ready, nil, 0o644)
	bash.Wait()
	if strings.Contains(out.String(), "the-serve-token") {
		t.Errorf("a sandboxed command read the token another server wrote in %s:\n%s", filepath.Dir(token), out.String())
	}
}
