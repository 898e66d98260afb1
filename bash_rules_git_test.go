package spillway

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/spillway-dev/spillway/internal/rules"
)

// gitRepo makes a repository in a new directory whose config is cfg,
// with HOME and XDG_CONFIG_HOME pointed at empty directories so that
// the person's own git configuration is not read.
func gitRepo(t *testing.T, cfg string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	dir := t.TempDir()
	g := filepath.Join(dir, ".git")
	for _, d := range []string{"objects", "refs/heads"} {
		if err := os.MkdirAll(filepath.Join(g, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(g, "HEAD"), []byte("ref: refs/heads/main\n"), 0o644)
	os.WriteFile(filepath.Join(g, "config"), []byte("[core]\n\trepositoryformatversion = 0\n\tbare = false\n"+cfg), 0o644)
	return dir
}

// The server reads git's aliases itself, outside any sandbox, while
// deciding: the call's env parameter must not reach that git. A
// GIT_TRACE_SETUP file in it would have git append the working
// directory's name to any file; LD_PRELOAD would load a library into
// the server's child.
func TestGitAliasLookupIgnoresCallEnv(t *testing.T) {
	dir := gitRepo(t, "[alias]\n\tp = status\n")
	trace := filepath.Join(t.TempDir(), "trace")
	env := map[string]string{
		"GIT_TRACE_SETUP": trace, "GIT_TRACE": trace, "LD_PRELOAD": "/nonexistent/e.so",
		"GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "alias.q", "GIT_CONFIG_VALUE_0": "log",
	}
	cx := (&Toolset{cwd: dir}).ruleContext(context.Background(), BashInput{Env: env, Command: "git p"})
	got := cx.GitAliases(cx.Dir)
	if _, err := os.Stat(trace); err == nil {
		b, _ := os.ReadFile(trace)
		t.Errorf("git wrote the call's trace file: %q", b)
	}
	if got["p"] != "status" {
		t.Errorf("alias p = %q, want status (aliases %v)", got["p"], got)
	}
	if _, ok := got["q"]; ok {
		t.Errorf("the call's GIT_CONFIG_* reached the lookup: %v", got)
	}
}

// A cwd that is not a directory is not looked in.
func TestGitAliasLookupNeedsADirectory(t *testing.T) {
	dir := gitRepo(t, "[alias]\n\tp = status\n")
	f := filepath.Join(dir, "file")
	os.WriteFile(f, nil, 0o644)
	if got := gitAliases(context.Background(), f); len(got) != 0 {
		t.Errorf("aliases read with a file as the directory: %v", got)
	}
}

// An include in a repository's config may name a FIFO or a device:
// the lookup does not follow includes, and says the aliases are not
// all known rather than waiting on one.
func TestGitAliasLookupDoesNotFollowIncludes(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := mkfifo(fifo); err != nil {
		t.Skip("no fifo:", err)
	}
	for _, target := range []string{fifo, "/dev/zero"} {
		dir := gitRepo(t, "[alias]\n\tp = status\n[include]\n\tpath = "+target+"\n")
		got := gitAliases(context.Background(), dir)
		if _, ok := got[rules.AliasesUnread]; !ok {
			t.Errorf("include of %s: aliases %v, want them marked unread", target, got)
		}
	}
}

// rules check decides as a bash call in the same directory does: the
// run-time git check counted. A bare-looking repository whose config
// names core.fsmonitor is asked for, through -C or from a
// subdirectory; a plain directory is not.
func TestCheckCommandDoesTheGitCheck(t *testing.T) {
	t.Setenv("GIT_CEILING_DIRECTORIES", "")
	dir := t.TempDir()
	s3 := filepath.Join(dir, "s3")
	for _, d := range []string{"objects", "refs/heads", "w"} {
		os.MkdirAll(filepath.Join(s3, d), 0o755)
	}
	os.WriteFile(filepath.Join(s3, "HEAD"), []byte("ref: refs/heads/main\n"), 0o644)
	os.WriteFile(filepath.Join(s3, "config"), []byte("[core]\n\tfsmonitor = \"id > /tmp/pwn; false\"\n"), 0o644)
	p := DefaultPolicy()
	p.Rules = RulesPolicy{Default: "ask", Allow: []string{"git status"}}
	ts, err := New(Options{Cwd: dir, Policy: &p})
	if err != nil {
		t.Fatal(err)
	}
	defer ts.Close()
	for cmd, want := range map[string]string{"git -C s3/w status": "ask", "git -C s3 status": "ask", "git status": "allow"} {
		if d := ts.CheckCommand(cmd); d == nil || d.Decision != want {
			t.Errorf("%s: %+v, want %s", cmd, d, want)
		}
	}
}
