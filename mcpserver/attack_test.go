package mcpserver_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spillway-dev/spillway/internal/sandbox"
)

// Attacks on a session of `spillway mcp` as an agent would make them,
// through tool calls. Each got through before its fix.

func needSandbox(t *testing.T) {
	t.Helper()
	if ok, abi, err := sandbox.Status(); !ok || abi < sandbox.FilesABI {
		t.Skipf("Landlock ABI %d here (%v); the sandbox needs %d", abi, err, sandbox.FilesABI)
	}
}

// The spill directory of a session under --root --sandbox cannot be
// swapped for a symlink by a command (it may not write there, nor in the
// shared temp directory); and when it is swapped all the same (here by the
// test, as another process of the same user could), the session neither
// writes through it nor lets the file tools through it.
func TestAttackSwapSpillDirectory(t *testing.T) {
	needSandbox(t)
	tmp, root, outside := t.TempDir(), t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret"), []byte("the secret\n"), 0o600)
	cs := connectStdioArgs(t, tmp, nil, "--root", root, "--sandbox")

	res := call(t, cs, "bash", map[string]any{"command": "seq 1 100000"})
	spilled, _ := field(details(t, res), "stdout.full_output_path").(string)
	if spilled == "" {
		t.Fatalf("no spill file: %s", text(res))
	}
	dir := filepath.Dir(spilled)

	// The command's own try: rm -rf the spill directory, put a symlink.
	res = call(t, cs, "bash", map[string]any{"command": "echo > " + spilled + "; rm -rf " + dir + " ; ln -s " + outside + " " + dir})
	fi, err := os.Lstat(dir)
	if err != nil || !fi.IsDir() || !exists(spilled) {
		t.Errorf("a sandboxed command removed or replaced the spill directory: %v\n%s", err, text(res))
	} else if b, _ := os.ReadFile(spilled); !strings.HasSuffix(string(b), "\n100000\n") {
		t.Errorf("a sandboxed command overwrote a spill file: %q", b)
	}
	res = call(t, cs, "bash", map[string]any{"command": "touch " + outside + "/x"})
	// Refused by Landlock (EACCES) or the namespaces' read-only mount.
	if exists(filepath.Join(outside, "x")) || !strings.Contains(text(res), "Permission denied") && !strings.Contains(text(res), "Read-only file system") {
		t.Fatalf("a sandboxed command wrote outside the root:\n%s", text(res))
	}

	// Swapped all the same (unless the command managed it).
	if err == nil && fi.IsDir() {
		if err := os.Rename(dir, dir+".old"); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(outside, dir); err != nil {
			t.Fatal(err)
		}
	}
	// A flood still returns, and its spill does not land in the target.
	if res = call(t, cs, "bash", map[string]any{"command": "seq 1 100000"}); res.IsError {
		t.Errorf("flood after the swap: %q", text(res))
	}
	for _, tool := range []struct {
		name string
		args map[string]any
	}{
		{"read", map[string]any{"path": filepath.Join(dir, "secret")}},
		{"grep", map[string]any{"pattern": "secret", "path": dir}},
		{"ls", map[string]any{"path": dir}},
		{"find", map[string]any{"pattern": "*", "path": dir}},
	} {
		r := call(t, cs, tool.name, tool.args)
		if !r.IsError || strings.Contains(text(r), "the secret") || strings.Contains(text(r), "secret\n") {
			t.Errorf("%s through the swapped spill directory: %q", tool.name, text(r))
		}
	}
	ents, _ := os.ReadDir(outside)
	if len(ents) != 1 {
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		t.Errorf("the server wrote into the symlink's target: %v", names)
	}
}
