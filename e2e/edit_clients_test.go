package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The file changes a model makes through spillway when its client's own
// edit tools are off: the calls, the file each leaves on disk, and the
// same call through the CLI (in a fresh copy of the workspace) for the
// diff the model must read.
var fileChangeCalls = []struct {
	name  string
	call  call
	cli   []string
	path  string
	after string
}{
	{name: "edit",
		call: call{"edit", map[string]any{"path": "notes.txt",
			"old_string": "second line with a needle", "new_string": "second line, edited"}},
		cli:   []string{"edit", "notes.txt", "--old-string", "second line with a needle", "--new-string", "second line, edited"},
		path:  "notes.txt",
		after: "first line\nsecond line, edited\nthird line\n"},
	{name: "apply_patch",
		call:  call{"apply_patch", map[string]any{"input": mainPatch}},
		cli:   []string{"apply_patch", mainPatch},
		path:  "src/main.go",
		after: "package main\n\n// needle: the thing to find\nfunc main() {\n\tprintln(\"patched\")\n}\n"},
}

const mainPatch = "*** Begin Patch\n*** Update File: src/main.go\n@@\n // needle: the thing to find\n-func main() {}\n+func main() {\n+\tprintln(\"patched\")\n+}\n*** End Patch\n"

// ownEditTools are the tools through which each client changes files
// itself; with them off, spillway is the only way a file changes. Codex
// 0.169.0 offered no apply_patch tool to the stand-in's models even by
// default: its models patch through its shell tool (exec_command), whose
// `apply_patch <<'EOF'` Codex intercepts and applies itself, so the shell
// goes off too.
var ownEditTools = map[string][]string{
	"Claude Code": {"Edit", "Write", "MultiEdit", "NotebookEdit"},
	"Codex":       {"apply_patch", "exec_command", "shell", "local_shell"},
}

// claudeNoEdit is Claude Code with its own edit tools disallowed, as
// docs/mcp.md says to start it.
var claudeNoEdit = func() client {
	c := claudeCode
	c.run = func(ctx context.Context, t *testing.T, bin, api string, w workspace) *exec.Cmd {
		cmd := claudeCommand(ctx, t, bin, api, w.spillway)
		cmd.Args = append(cmd.Args, "--disallowedTools", strings.Join(ownEditTools["Claude Code"], ","))
		return cmd
	}
	return c
}()

// codexNoPatch is Codex with its own apply_patch tool and its shell left
// out, by the config keys docs/mcp.md names.
var codexNoPatch = func() client {
	c := codex
	c.run = func(ctx context.Context, t *testing.T, bin, api string, w workspace) *exec.Cmd {
		return codexCommandWith(ctx, t, bin, api, "gpt-5", w.spillway, codexNoPatchConfig)
	}
	return c
}()

const codexNoPatchConfig = `include_apply_patch_tool = false

[features]
apply_patch_freeform = false
shell_tool = false
`

// testFileChanges: an edit and a patch, made by the stand-in model
// through spillway in a client whose own edit tools are off, change the
// files on disk, and the model reads the diff spillway rendered.
func testFileChanges(t *testing.T, c client) {
	clientBin(t, c)
	slowClientTest(t)
	w := newWorkspace(t)
	// The CLI's text for each call, from a copy of the untouched files.
	want := make([]string, len(fileChangeCalls))
	for i, fc := range fileChangeCalls {
		fresh := workspace{dir: copyTree(t, w.dir), spillway: w.spillway}
		want[i] = fresh.cli(t, fc.cli...)
	}
	calls := make([]call, len(fileChangeCalls))
	for i, fc := range fileChangeCalls {
		calls[i] = fc.call
	}
	// docs/tools.md shows what the model reads: the same text.
	doc, err := os.ReadFile("../docs/tools.md")
	if err != nil {
		t.Fatal(err)
	}
	for i, fc := range fileChangeCalls {
		if !strings.Contains(string(doc), want[i]) {
			t.Errorf("docs/tools.md does not show the %s result the model reads:\n%s", fc.name, want[i])
		}
	}
	api, got := driveAPI(t, c, w, calls)
	for _, own := range ownEditTools[c.name] {
		if slices.Contains(api.offered, own) {
			t.Errorf("%s still offered the model its own %s tool: %v", c.name, own, api.offered)
		}
	}
	for i, fc := range fileChangeCalls {
		t.Run(fc.name, func(t *testing.T) {
			text := got[i].Text()
			b, err := os.ReadFile(filepath.Join(w.dir, fc.path))
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != fc.after {
				t.Errorf("%s holds after the call:\n%q\nwant:\n%q", fc.path, b, fc.after)
			}
			if n := strings.Count(text, want[i]); n != 1 {
				t.Errorf("the model read the diff %d times, want exactly once.\nrendered:\n%s\nthe model read:\n%s", n, want[i], text)
			}
			t.Logf("%s: the model read:\n%s", c.name, text)
		})
	}
}

func TestClaudeCodeFileChanges(t *testing.T) { testFileChanges(t, claudeNoEdit) }
func TestCodexFileChanges(t *testing.T)      { testFileChanges(t, codexNoPatch) }

// slowEnv opts in to the client tests that are kept out of `go test
// ./...`: each starts a client session of its own (25 s for Claude Code
// or Codex, over 2 minutes for Gemini CLI), and the e2e package must stay
// within go test's default 10 minutes. .ci/run runs them in a step of
// their own.
const slowEnv = "SPILLWAY_E2E_SLOW"

func slowClientTest(t *testing.T) {
	t.Helper()
	if os.Getenv(slowEnv) == "" {
		t.Skipf("set %s=1 to run this client session (.ci/run does, in a step of its own)", slowEnv)
	}
}

// copyTree copies the regular files under dir into a new temporary
// directory and returns it.
func copyTree(t *testing.T, dir string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Join(dst, filepath.Dir(rel)), 0o755); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}
