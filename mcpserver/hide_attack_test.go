//go:build linux

package mcpserver_test

import (
	"bytes"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spillway-dev/spillway/internal/sandbox"
)

// TestAttackServeSandboxHidesOtherSessionsAndToken: in `serve --sandbox
// --no-network`, session B's command read session A's spill files at
// $TMPDIR/../../spillway-*/… and the server's token file, with which (and
// the network) it could drive other sessions.
func TestAttackServeSandboxHidesOtherSessionsAndToken(t *testing.T) {
	if sandboxLayers(t)&sandbox.Namespaces == 0 {
		t.Skip("hiding needs the namespaces layer, which this machine lacks")
	}
	base := t.TempDir()
	root, runtime := filepath.Join(base, "root"), filepath.Join(base, "run")
	os.Mkdir(root, 0o755)
	os.Mkdir(runtime, 0o700)
	tokenFile := filepath.Join(runtime, "spillway", "serve.token")
	s := startHTTP(t, []string{"XDG_RUNTIME_DIR=" + runtime}, "--token-file", tokenFile, "--root", root, "--sandbox", "--no-network")
	token, err := os.ReadFile(tokenFile)
	if err != nil {
		t.Fatalf("the token file: %v", err)
	}
	auth := http.Header{"Authorization": {"Bearer " + strings.TrimSpace(string(token))}}
	a := connectHTTP(t, s.url, nil, auth, false)
	b := connectHTTP(t, s.url, nil, auth, false)

	const secret = "session-a-secret-output"
	res := call(t, a, "bash", map[string]any{"command": "for i in $(seq 30000); do echo " + secret + " $i; done"})
	spilled, _ := field(details(t, res), "stdout.full_output_path").(string)
	if spilled == "" || !exists(spilled) {
		t.Fatalf("session A's output did not spill: %s", text(res))
	}

	attack := `cat ` + spilled + ` | head -c 200; echo; cat $TMPDIR/../../spillway-*/bash-* 2>&1 | grep -c ` + secret +
		`; ls $TMPDIR/../..; cat ` + tokenFile + ` $XDG_RUNTIME_DIR/spillway/* 2>&1; echo done`
	out := text(call(t, b, "bash", map[string]any{"command": attack}))
	if strings.Contains(out, secret+" 1") || !strings.Contains(out, "\n0\n") {
		t.Errorf("session B read session A's spill file:\n%s", out)
	}
	if strings.Contains(out, strings.TrimSpace(string(token))) {
		t.Errorf("session B read the server's token:\n%s", out)
	}
	if !strings.Contains(out, "done") {
		t.Fatalf("the attack did not run: %s", out)
	}

	// B still sees its own spill files, writes its TMPDIR and the root.
	res = call(t, b, "bash", map[string]any{"command": "seq 1 200000"})
	own, _ := field(details(t, res), "stdout.full_output_path").(string)
	out = text(call(t, b, "bash", map[string]any{"command": "tail -n 1 " + own + "; echo x > $TMPDIR/f && cat $TMPDIR/f; echo y > " + root + "/g && cat g"}))
	if !strings.Contains(out, "200000\nx\ny") {
		t.Errorf("session B lost its own files: %s", out)
	}
}

// TestAttackServeSandboxHidesTheAuditLog: under `serve --sandbox
// --no-network --audit-log FILE`, every session's command read FILE, with
// the other sessions' full commands (an `Authorization: Bearer …` header
// in one of them). The log kept beside the root, and the log and the
// token file kept in it (where the token's directory cannot be hidden).
func TestAttackServeSandboxHidesTheAuditLog(t *testing.T) {
	if sandboxLayers(t)&sandbox.Namespaces == 0 {
		t.Skip("hiding needs the namespaces layer, which this machine lacks")
	}
	for _, where := range []string{"beside the root", "in the root"} {
		t.Run(where, func(t *testing.T) {
			base := t.TempDir()
			root, logs := filepath.Join(base, "root"), filepath.Join(base, "logs")
			os.Mkdir(root, 0o755)
			os.Mkdir(logs, 0o755)
			audit := filepath.Join(logs, "audit.jsonl")
			args := []string{"--root", root, "--sandbox", "--no-network"}
			var token []byte
			var auth http.Header
			tokenFile := filepath.Join(root, "serve.token")
			if where == "in the root" {
				audit = filepath.Join(root, "audit.jsonl")
				args = append(args, "--token-file", tokenFile)
			}
			s := startHTTP(t, nil, append(args, "--audit-log", audit)...)
			if where == "in the root" {
				var err error
				if token, err = os.ReadFile(tokenFile); err != nil {
					t.Fatal(err)
				}
				token = bytes.TrimSpace(token)
				auth = http.Header{"Authorization": {"Bearer " + string(token)}}
			}
			a := connectHTTP(t, s.url, nil, auth, false)
			b := connectHTTP(t, s.url, nil, auth, false)

			const secret = "Bearer sekrit-of-session-a"
			call(t, a, "bash", map[string]any{"command": "echo 'Authorization: " + secret + "' > /dev/null"})
			waitFor(t, "the audit log to hold session A's call", func() bool {
				b, _ := os.ReadFile(audit)
				return strings.Contains(string(b), secret)
			})
			out := text(call(t, b, "bash", map[string]any{"command": "cat " + audit + " " + tokenFile + " 2>&1; grep -r sekrit " + filepath.Dir(audit) + " 2>&1; echo done"}))
			if strings.Contains(out, secret) {
				t.Errorf("session B read the audit log, with session A's command:\n%s", out)
			}
			if token != nil && strings.Contains(out, string(token)) {
				t.Errorf("session B read the token file kept in the root:\n%s", out)
			}
			if !strings.Contains(out, "done") {
				t.Fatalf("the attack did not run: %s", out)
			}
			// The server still writes it.
			call(t, b, "bash", map[string]any{"command": "echo after-the-attack"})
			waitFor(t, "the audit log to hold session B's later call", func() bool {
				b, _ := os.ReadFile(audit)
				return strings.Contains(string(b), "after-the-attack")
			})
		})
	}
}
