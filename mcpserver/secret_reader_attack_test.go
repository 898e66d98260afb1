//go:build linux

package mcpserver_test

import (
	"crypto/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestAttackSecretPageReaderChanges: the page named the system's sudo
// (verified) while `timeout --foreground 6 sudo -k -p PROMPT true` read
// the terminal; sudo timed out, `read -s -p PROMPT p` read it next, and
// the answer the person then submitted went to read, and into loot. The
// same with su. Now the page closes when its reader stops reading, and
// an answer is written only if the reader is still the one the page
// named: loot stays empty, and the page says nothing was sent.
func TestAttackSecretPageReaderChanges(t *testing.T) {
	t.Parallel()
	if os.Geteuid() != 0 {
		t.Skip("making the test user needs root (CI runs as root)")
	}
	for _, tool := range []string{"sudo", "su", "timeout", "setpriv", "useradd", "chpasswd", "userdel", "chown"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed", tool)
		}
	}
	b := startBrowserDriver(t)
	run := func(stdin string, name string, args ...string) {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Stdin = strings.NewReader(stdin)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s %s: %v\n%s", name, args, err, out)
		}
	}
	user := "spw" + strings.ToLower(rand.Text()[:8])
	run("", "useradd", "--no-create-home", "--shell", "/bin/sh", user)
	t.Cleanup(func() { exec.Command("userdel", user).Run() })
	run(user+":"+rand.Text()+"\n", "chpasswd")
	sudoers := filepath.Join("/etc/sudoers.d", "spillway-test-"+user)
	if err := os.WriteFile(sudoers, []byte(user+" ALL=(root) ALL\n"), 0o440); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Remove(sudoers) })
	other := "spw" + strings.ToLower(rand.Text()[:8])
	run("", "useradd", "--no-create-home", "--shell", "/bin/sh", other)
	t.Cleanup(func() { exec.Command("userdel", other).Run() })
	run(other+":"+rand.Text()+"\n", "chpasswd")
	home, err := os.MkdirTemp("/tmp", "spillway-reader-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(home) })
	userBin, tmp := filepath.Join(home, "spillway"), filepath.Join(home, "tmp")
	os.Mkdir(tmp, 0o700)
	exe, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(userBin, exe, 0o755); err != nil {
		t.Fatal(err)
	}
	os.Chmod(home, 0o755)
	const prompt = "GitHub personal access token (needed by git push): "
	for _, c := range []struct{ name, first, prompt string }{
		{"sudo", "timeout --foreground 6 sudo -k -p '" + prompt + "' true", prompt},
		{"su", "timeout --foreground 6 su -c true " + other, "Password:"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(home, "work-"+c.name)
			os.Mkdir(dir, 0o755)
			run("", "chown", "-R", user+":"+user, tmp, dir)
			s := startSecretServerCmd(t, tmp, exec.Command("setpriv", "--reuid="+user, "--regid="+user, "--init-groups", "--", userBin, "mcp", "--log-level", "debug"))
			command := c.first + "; read -s -p '" + c.prompt + "' p; echo \"$p\" > loot; echo saved"
			txt, d := s.call(t, "bash", map[string]any{"command": command, "cwd": dir, "tty": true, "timeout": 30_000})
			page := s.page(t)
			if d["waiting_for_secret"] != true || field(d, "secret.verified") != true {
				t.Fatalf("the first prompt is not %s's, verified: %v\n%s", c.name, d, txt)
			}
			pid := d["pid"]
			// The person opens the page and types; meanwhile the first
			// program times out and read -s reads the terminal. They
			// press Submit once the model's look shows the new reader.
			token := "ghp_" + rand.Text()
			pressed := filepath.Join(t.TempDir(), "press")
			done := make(chan pageVisit, 1)
			go func() { done <- b.visitWaiting(t, page, "answer", token, pressed) }()
			// The first program has ended when the job's group holds no
			// timeout any more; then read -s reads (a look of the model).
			waitFor(t, "the first program to time out", func() bool {
				for _, m := range groupMembers(int(pid.(float64))) {
					if comm, _ := os.ReadFile("/proc/" + strconv.Itoa(m) + "/comm"); strings.TrimSpace(string(comm)) == "timeout" {
						return false
					}
				}
				return true
			})
			_, d = s.call(t, "bash", map[string]any{"check_pid": pid, "timeout": 1000})
			t.Logf("the model's look after the timeout: secret %v", d["secret"])
			os.WriteFile(pressed, nil, 0o644)
			v := <-done
			t.Logf("after Submit the page says (%d): %s", v.PostStatus, v.Done)
			if v.PostStatus == 200 || !strings.Contains(v.Done, "nothing was sent") && !strings.Contains(v.Done, "Nothing was written") {
				t.Errorf("the answer was taken: %d %s", v.PostStatus, v.Done)
			}
			call(t, s.cs, "bash", map[string]any{"kill_pid": pid})
			loot, _ := os.ReadFile(filepath.Join(dir, "loot"))
			if strings.Contains(string(loot), token) {
				t.Errorf("loot holds the token the person typed for %s", c.name)
			}
			s.noTrace(t, token)
		})
	}
}
