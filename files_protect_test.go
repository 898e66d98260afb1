package spillway_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spillway-dev/spillway"
	"github.com/spillway-dev/spillway/tool"
)

// The file tools hold the code-loading list bash's write targets are
// held to: git's commondir and a .git file (a gitdir pointer) make an
// allowed git status run another repository's config; a .pth file runs
// when python starts. Each change is asked (no one can be asked here),
// and nothing is written, moved or deleted.
func TestFileToolsProtectCodeLoadingList(t *testing.T) {
	ctx := context.Background()
	ts, dir := fileToolset(t, spillway.Options{})
	for _, f := range []string{"site.pth", ".vimrc", ".envrc"} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte("old\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	asked := func(what string, res spillway.Result[tool.FileChangeDetails], err error) {
		t.Helper()
		if err != nil || !res.IsError || !strings.Contains(res.Text, "approval") && !strings.Contains(res.Text, "asked") {
			t.Errorf("%s: not asked: %v %q", what, err, res.Text)
		}
	}
	for _, p := range []string{".git/commondir", ".git/config.worktree", ".git/modules/m/config", "sub/.git", ".gitmodules",
		"lib/python3/site-packages/evil.pth", "sitecustomize.py", ".cargo/config.toml", ".claude/hooks/h.sh", "node_modules/.bin/jest"} {
		res, err := ts.Write(ctx, tool.WriteInput{Path: p, Content: "gitdir: ../evil\n"})
		asked("write "+p, res, err)
		if _, err := os.Stat(filepath.Join(dir, p)); err == nil {
			t.Errorf("%s was written", p)
		}
	}
	if _, err := ts.Read(ctx, spillway.ReadInput{Path: "site.pth"}); err != nil {
		t.Fatal(err)
	}
	res, err := ts.Edit(ctx, tool.EditInput{Path: "site.pth", OldString: "old", NewString: "import os; os.system('id')"})
	asked("edit site.pth", res, err)
	res, err = ts.ApplyPatch(ctx, tool.ApplyPatchInput{Input: "*** Begin Patch\n*** Delete File: .vimrc\n*** End Patch\n"})
	asked("delete .vimrc", res, err)
	res, err = ts.ApplyPatch(ctx, tool.ApplyPatchInput{Input: "*** Begin Patch\n*** Update File: .envrc\n*** Move to: envrc.bak\n@@\n-old\n+old\n*** End Patch\n"})
	asked("move .envrc away", res, err)
	for _, f := range []string{"site.pth", ".vimrc", ".envrc"} {
		if b, err := os.ReadFile(filepath.Join(dir, f)); err != nil || string(b) != "old\n" {
			t.Errorf("%s changed: %q %v", f, b, err)
		}
	}
}

// The config file the rules in force were read from is the person's own
// wherever --config puts it and whatever its name: a file tool's change
// to it would loosen every later session's rules, so it is asked.
func TestFileToolsProtectTheConfigInForce(t *testing.T) {
	ctx := context.Background()
	cfg := filepath.Join(t.TempDir(), "ask.toml")
	const text = "[rules]\ndefault = \"ask\"\nallow = [\"ls *\"]\n"
	if err := os.WriteFile(cfg, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	p := spillway.DefaultPolicy()
	p.Rules.Default, p.Rules.Allow = "ask", []string{"ls *"}
	p.Rules.Sources = map[string][]string{"allow": {cfg + ":3"}}
	ts, _ := fileToolset(t, spillway.Options{Policy: &p})
	if _, err := ts.Read(ctx, spillway.ReadInput{Path: cfg}); err != nil {
		t.Fatal(err)
	}
	res, err := ts.Edit(ctx, tool.EditInput{Path: cfg, OldString: `default = "ask"`, NewString: `default = "allow"`})
	if err != nil || !res.IsError || !strings.Contains(res.Text, "the rules in force were read from it") {
		t.Errorf("edit of the config in force: not asked: %v %q", err, res.Text)
	}
	if b, _ := os.ReadFile(cfg); string(b) != text {
		t.Errorf("the config changed: %q", b)
	}
}

// A directory laid out as a git repository under ordinary names (config,
// HEAD, objects, refs) is one git finds from below and whose config runs
// code: the write that completes the layout is asked, in either order.
func TestFileToolsAskTheWriteThatMakesARepository(t *testing.T) {
	ctx := context.Background()
	for _, order := range [][]string{{"config", "HEAD"}, {"HEAD", "config"}} {
		ts, dir := fileToolset(t, spillway.Options{})
		first, second := order[0], order[1]
		content := map[string]string{"config": "[core]\n\tfsmonitor = touch pwned; false\n", "HEAD": "ref: refs/heads/master\n"}
		res, err := ts.Write(ctx, tool.WriteInput{Path: "p/" + first, Content: content[first]})
		if err != nil || res.IsError {
			t.Fatalf("%v: the first write: %v %q", order, err, res.Text)
		}
		res, err = ts.Write(ctx, tool.WriteInput{Path: "p/" + second, Content: content[second]})
		if err != nil || !res.IsError || !strings.Contains(res.Text, "laid out as a git repository") {
			t.Errorf("%v: the write that makes p a repository was not asked: %v %q", order, err, res.Text)
		}
		if _, err := os.Stat(filepath.Join(dir, "p", second)); err == nil {
			t.Errorf("%v: p/%s was written", order, second)
		}
	}
	// A config beside no HEAD is an ordinary file.
	ts, _ := fileToolset(t, spillway.Options{})
	if res, err := ts.Write(ctx, tool.WriteInput{Path: "app/config", Content: "port = 80\n"}); err != nil || res.IsError {
		t.Errorf("an ordinary config file: %v %q", err, res.Text)
	}
}

// A file tool's question goes to the call's own asker when it brings one
// (CallInfo.Asker), as bash's does: the MCP server gives its asker (the
// client's elicitation, the console) a call at a time, not to the
// session's toolset. A notice of the asker (the question is open on the
// console) is the result, and nothing is written until the answer.
func TestFileToolsAskTheCallsAsker(t *testing.T) {
	ts, dir := fileToolset(t, spillway.Options{})
	var asked []string
	answer := "deny"
	ctx := spillway.WithCallInfo(context.Background(), spillway.CallInfo{
		Asker: func(_ context.Context, command, _ string, _ []spillway.RulePart) (string, error) {
			asked = append(asked, command)
			if answer == "" {
				return "", consoleNotice{}
			}
			return answer, nil
		},
	})
	write := func() (spillway.Result[tool.FileChangeDetails], error) {
		return ts.Write(ctx, tool.WriteInput{Path: ".envrc", Content: "echo hi\n"})
	}
	res, err := write()
	if err != nil || !res.IsError || !strings.Contains(res.Text, "denied") || len(asked) != 1 {
		t.Fatalf("denied: %v %q, asked %q", err, res.Text, asked)
	}
	answer = ""
	res, err = write()
	if err != nil || !res.IsError || res.Text != (consoleNotice{}).Notice() || len(asked) != 2 {
		t.Fatalf("the asker's notice: %v %q, asked %q", err, res.Text, asked)
	}
	if _, err := os.Stat(filepath.Join(dir, ".envrc")); err == nil {
		t.Fatal(".envrc was written without an approval")
	}
	answer = "allow once"
	if res, err = write(); err != nil || res.IsError || len(asked) != 3 {
		t.Fatalf("allowed once: %v %q, asked %q", err, res.Text, asked)
	}
	if b, err := os.ReadFile(filepath.Join(dir, ".envrc")); err != nil || string(b) != "echo hi\n" {
		t.Errorf(".envrc after the approval: %q %v", b, err)
	}
}

// consoleNotice is an asker's error that is the whole result, as the
// console's "the question is open on the console" is.
type consoleNotice struct{}

func (consoleNotice) Error() string { return "asked on the console" }
func (consoleNotice) Notice() string {
	return "[waiting for the person's answer on spillway's console: call again]"
}
