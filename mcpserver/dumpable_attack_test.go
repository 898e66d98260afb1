//go:build linux

package mcpserver_test

import (
	"bufio"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestAttackServerNotDumpable: without --sandbox, a command of the same
// user opened its server's stderr (/proc/$PPID/fd/2, the log, and the
// token serve printed there), listed its descriptors and read its
// environment and memory. serve is non-dumpable now: the kernel refuses
// all of it to a process without CAP_SYS_PTRACE, so the test runs serve
// as an unprivileged user.
func TestAttackServerNotDumpable(t *testing.T) {
	uid, gid := unprivileged(t)
	base := userDir(t, uid, gid)
	self := filepath.Join(base, "spillway")
	data, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(self, data, 0o755); err != nil {
		t.Fatal(err)
	}
	root, tmp := filepath.Join(base, "root"), filepath.Join(base, "tmp")
	for _, d := range []string{root, tmp} {
		os.Mkdir(d, 0o755)
		os.Chown(d, uid, gid)
	}
	cmd := exec.Command(self, "serve", "--listen", "127.0.0.1:0", "--token-file", "-", "--log-level", "info", "--root", root)
	cmd.Env = []string{"PATH=/usr/local/bin:/usr/bin:/bin", "TMPDIR=" + tmp, "HOME=" + base}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, Setpgid: true}
	pr, pw := io.Pipe()
	stderr := &lockedBuffer{}
	cmd.Stderr = io.MultiWriter(stderr, pw)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); pw.Close(); close(exited) }()
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-exited
		checkStderr(t, "spillway serve", stderr.String())
	})
	type started struct{ url, token string }
	found := make(chan started, 1)
	go func() {
		var s started
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			line := sc.Text()
			if _, tok, ok := strings.Cut(line, "written to no file): "); ok {
				s.token = tok
			}
			if _, url, ok := strings.Cut(line, "serving MCP at "); ok {
				s.url = url
			}
			if s.url != "" && s.token != "" {
				found <- s
				s = started{}
			}
		}
	}()
	var s started
	select {
	case s = <-found:
	case <-exited:
		t.Fatalf("spillway serve ended at start:\n%s", stderr)
	case <-time.After(hangGuard):
		t.Fatalf("spillway serve did not start:\n%s", stderr)
	}
	cs := connectHTTP(t, s.url, nil, http.Header{"Authorization": {"Bearer " + s.token}}, false)
	out := text(call(t, cs, "bash", map[string]any{"command": `id -u; echo "parent $PPID $(cat /proc/$PPID/comm)"
: < /proc/$PPID/fd/2 && echo OPENED-FD-2
ls /proc/$PPID/fd >/dev/null && echo LISTED-FDS
head -c 64 /proc/$PPID/environ >/dev/null && echo READ-ENVIRON
head -c 64 /proc/$PPID/maps >/dev/null && echo READ-MAPS
exec 3</proc/$PPID/mem && echo OPENED-MEM
true`}))
	t.Logf("the command's attempts:\n%s", out)
	if !strings.Contains(out, "parent ") || !strings.Contains(out, "spillway") {
		t.Fatalf("the command's parent is not the server: %s", out)
	}
	for _, got := range []string{"OPENED-FD-2", "LISTED-FDS", "READ-ENVIRON", "READ-MAPS", "OPENED-MEM"} {
		if strings.Contains(out, got) {
			t.Errorf("a command of the same user %s of its server", got)
		}
	}
	if strings.Contains(out, s.token) {
		t.Errorf("the command read the token")
	}
}
