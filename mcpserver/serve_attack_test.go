package mcpserver_test

import (
	"bytes"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// Attacks on `spillway serve` as another local user (or a web page) would
// make them.

// TestServeRequiresATokenByDefault: on loopback without a token, another
// account's HTTP client ran commands as the server's user.
func TestServeRequiresATokenByDefault(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "dir", "token")
	s := startHTTP(t, []string{"SPILLWAY_TOKEN="}, "--token-file", file)
	m := regexp.MustCompile(`spillway: token \(also in (\S+), readable by every program of your user\): (\S+)`).FindStringSubmatch(s.stderr.String())
	if m == nil || m[1] != file {
		t.Fatalf("the token was not printed with its file: %q", s.stderr.String())
	}
	token := m[2]
	if len(token) < 20 {
		t.Errorf("a short token: %q", token)
	}
	b, err := os.ReadFile(file)
	if err != nil || strings.TrimSpace(string(b)) != token {
		t.Fatalf("the token file: %q %v", b, err)
	}
	if fi, _ := os.Stat(file); fi.Mode().Perm() != 0o600 {
		t.Errorf("the token file's mode: %v", fi.Mode())
	}
	if fi, _ := os.Stat(filepath.Dir(file)); fi.Mode().Perm() != 0o700 {
		t.Errorf("the token directory's mode: %v", fi.Mode())
	}
	if st := postInitialize(t, s.url, "", "", ""); st != http.StatusUnauthorized {
		t.Errorf("no token on loopback: status %d, want 401", st)
	}
	if st := postInitialize(t, s.url, "", "", "Bearer "+token); st != http.StatusOK {
		t.Errorf("the printed token: status %d, want 200", st)
	}
	if strings.Count(s.stderr.String(), token) != 1 {
		t.Errorf("the token was printed more than once")
	}

	// The opt-out is explicit, and loopback only.
	open := startHTTP(t, nil, "--no-token")
	if st := postInitialize(t, open.url, "", "", ""); st != http.StatusOK {
		t.Errorf("--no-token: status %d, want 200", st)
	}
	if !strings.Contains(open.stderr.String(), "without a token") {
		t.Errorf("--no-token is not warned about: %q", open.stderr.String())
	}
}

// TestServeTokenNeverReachesCommands: `SPILLWAY_TOKEN=… spillway serve`,
// then bash 'echo $SPILLWAY_TOKEN' printed it.
func TestServeTokenNeverReachesCommands(t *testing.T) {
	t.Parallel()
	const secret = "s3cret-never-in-a-command"
	s := startHTTP(t, []string{"SPILLWAY_TOKEN=" + secret})
	cs := connectHTTP(t, s.url, nil, http.Header{"Authorization": {"Bearer " + secret}}, false)
	res := call(t, cs, "bash", map[string]any{"command": `echo "[$SPILLWAY_TOKEN]"; env | grep -c ` + secret + `; cat /proc/$PPID/environ | tr '\0' '\n' | grep -c ` + secret})
	if out := text(res); strings.Contains(out, secret) || !strings.Contains(out, "[]") {
		t.Errorf("the server's token reached a command: %s", out)
	}
}

// TestServeSessionCap: 5000 initialize-only sessions were all kept.
func TestServeSessionCap(t *testing.T) {
	t.Parallel()
	s := startHTTP(t, nil, "--max-sessions", "3")
	for i := range 3 {
		if st := postInitialize(t, s.url, "", "", ""); st != http.StatusOK {
			t.Fatalf("session %d: status %d", i+1, st)
		}
	}
	if st := postInitialize(t, s.url, "", "", ""); st != http.StatusServiceUnavailable {
		t.Errorf("one session over the cap: status %d, want 503", st)
	}
}

// TestAttackServeEnvironShowsNoToken: `SPILLWAY_TOKEN=… spillway serve`
// removed the token from the environment its commands inherit, but
// /proc/<serve>/environ, which the kernel reads from the process's first
// environment block, still showed it: to the person's other programs,
// and to a command, through /proc/$PPID/environ.
func TestAttackServeEnvironShowsNoToken(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("/proc/PID/environ is Linux's")
	}
	const secret = "s3cret-never-in-environ"
	s := startHTTP(t, []string{"SPILLWAY_TOKEN=" + secret, "AFTER_THE_TOKEN=kept"})
	env, err := os.ReadFile("/proc/" + strconv.Itoa(s.cmd.Process.Pid) + "/environ")
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(env, []byte(secret)) || bytes.Contains(env, []byte("SPILLWAY_TOKEN")) {
		t.Errorf("/proc/<serve>/environ shows the token")
	}
	if !bytes.Contains(env, []byte("\x00AFTER_THE_TOKEN=kept\x00")) {
		t.Errorf("/proc/<serve>/environ lost the other variables: %q", env)
	}
	// The server still takes the token, and a command finds it nowhere.
	cs := connectHTTP(t, s.url, nil, http.Header{"Authorization": {"Bearer " + secret}}, false)
	out := text(call(t, cs, "bash", map[string]any{"command": `tr '\0' '\n' < /proc/$PPID/environ | grep SPILLWAY; echo "[$AFTER_THE_TOKEN]"`}))
	if strings.Contains(out, secret) || !strings.Contains(out, "[kept]") {
		t.Errorf("a command read the token from its server's environ, or lost the rest: %s", out)
	}
}
