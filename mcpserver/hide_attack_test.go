//go:build linux

package mcpserver_test

import (
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
