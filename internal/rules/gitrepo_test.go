package rules

import (
	"os"
	"path/filepath"
	"testing"
)

// mkRepo writes the files of a repository directory g: HEAD, objects,
// refs and each named file with its content.
func mkRepo(t *testing.T, g string, files map[string]string) {
	t.Helper()
	for _, d := range []string{"objects", "refs/heads"} {
		if err := os.MkdirAll(filepath.Join(g, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	files["HEAD"] = "ref: refs/heads/main\n"
	for name, content := range files {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(g, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(g, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

const evilConfig = "[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tfsmonitor = \"id > /tmp/pwn; false\"\n"
const cleanConfig = "[core]\n\trepositoryformatversion = 0\n\tbare = false\n[remote \"origin\"]\n\turl = https://example.com/x\n[alias]\n\tst = status\n"

// git finds its repository upward from where it runs, and a .git file,
// commondir and config.worktree send it elsewhere: each way to a
// config naming code git runs keeps an allowed git status from being
// allowed; a plain repository, a linked worktree and a subdirectory of
// either stay allowed.
func TestGitRepositoryDiscovery(t *testing.T) {
	t.Setenv("GIT_CEILING_DIRECTORIES", "")
	t.Setenv("CDPATH", "")
	root := t.TempDir()
	j := func(p ...string) string { return filepath.Join(append([]string{root}, p...)...) }
	// A bare-looking repository made by a command, its worktree a subdirectory.
	mkRepo(t, j("s3"), map[string]string{"config": evilConfig})
	os.MkdirAll(j("s3", "w"), 0o755)
	// HEAD, commondir and config.worktree, no config: the config is the common one's.
	mkRepo(t, j("common"), map[string]string{"config": evilConfig})
	mkRepo(t, j("c2"), map[string]string{"commondir": "../common\n", "config.worktree": "[core]\n\tbare = false\n"})
	os.RemoveAll(j("c2", "objects"))
	// A repository whose config.worktree of a linked worktree names code.
	mkRepo(t, j("p", ".git"), map[string]string{"config": cleanConfig,
		"worktrees/x/commondir": "../..\n", "worktrees/x/config.worktree": evilConfig, "worktrees/x/HEAD": "ref: refs/heads/x\n"})
	os.MkdirAll(j("wt", "sub"), 0o755)
	os.WriteFile(j("wt", ".git"), []byte("gitdir: "+j("p", ".git", "worktrees", "x")+"\n"), 0o644)
	// A .git file pointing outside any .git directory.
	mkRepo(t, j("evil"), map[string]string{"config": cleanConfig})
	os.MkdirAll(j("sub2"), 0o755)
	os.WriteFile(j("sub2", ".git"), []byte("gitdir: ../evil\n"), 0o644)
	// A repository with a code-naming config, and a subdirectory.
	mkRepo(t, j("r", ".git"), map[string]string{"config": evilConfig})
	os.MkdirAll(j("r", "sub"), 0o755)
	// Clean: a repository, and a linked worktree of it.
	mkRepo(t, j("ok", ".git"), map[string]string{"config": cleanConfig + "[core]\n\tfsmonitor = true\n",
		"worktrees/y/commondir": "../..\n", "worktrees/y/HEAD": "ref: refs/heads/y\n"})
	os.MkdirAll(j("ok", "sub"), 0o755)
	os.MkdirAll(j("okwt", "sub"), 0o755)
	os.WriteFile(j("okwt", ".git"), []byte("gitdir: "+j("ok", ".git", "worktrees", "y")+"\n"), 0o644)

	s := setOf(t, Ask, corpusRules(t, Allow, "git status", "cd *", "pushd *", "popd", "echo *"))
	for _, c := range []struct {
		dir, cmd string
		want     Decision
	}{
		{"", "git -C s3 status", Ask},
		{"", "git -C s3/w status", Ask},
		{"s3/w", "git status", Ask},
		{"", "git -C c2 status", Ask},
		{"", "git -C wt/sub status", Ask},
		{"", "git -C sub2 status", Ask},
		{"", "git -C r/sub status", Ask},
		{"", "cd r/sub && git status", Ask},
		{"", "pushd r/sub; git status", Ask},
		{"", "(cd r/sub); cd ok; git status", Ask},
		{"", `cd "$D" && git status`, Ask},
		{"", "cd ok && cd - && git status", Ask},
		{"", "pushd ok; popd; git status", Ask},
		{"r", "git -C sub status", Ask},
		{"", "git status", Allow},
		{"", "git -C ok/sub status", Allow},
		{"ok/sub", "git status", Allow},
		{"", "cd ok/sub && git status", Allow},
		{"", "pushd ok; git status", Allow},
		{"", "git -C okwt/sub status", Allow},
		{"okwt", "git status", Allow},
		// A repository the same command lays out is not on disk to be
		// read when it is decided.
		{"", "echo 'ref: refs/heads/m' > n/HEAD && echo '[core]' > n/config && git -C n/w status", Ask},
		{"", "echo x > ok/sub/.git; git -C ok/sub status", Ask},
		{"", "echo hi > notes.txt && git status", Allow},
	} {
		cx := Context{Dir: j(c.dir), CwdParam: c.dir}
		if c.dir == "" {
			cx = Context{Dir: root}
		}
		if v := s.CheckIn(c.cmd, cx); v.Decision != c.want {
			t.Errorf("in %q: %q = %v, want %v;%s", c.dir, c.cmd, v.Decision, c.want, partsText(v))
		}
	}
}

// A repository's config that includes another file is not followed: a
// FIFO or a device there would hold every decision; the include makes
// git not allowed instead.
func TestGitRepositoryIncludeNotFollowed(t *testing.T) {
	t.Setenv("GIT_CEILING_DIRECTORIES", "")
	root := t.TempDir()
	fifo := filepath.Join(root, "fifo")
	if err := mkfifo(fifo); err != nil {
		t.Skip("no fifo:", err)
	}
	mkRepo(t, filepath.Join(root, "a", ".git"), map[string]string{"config": cleanConfig + "[include]\n\tpath = " + fifo + "\n"})
	mkRepo(t, filepath.Join(root, "b", ".git"), map[string]string{"config": cleanConfig + "[includeIf \"gitdir:/\"]\n\tpath = /dev/zero\n"})
	mkRepo(t, filepath.Join(root, "c", ".git"), map[string]string{})
	mkfifo(filepath.Join(root, "c", ".git", "config"))
	s := setOf(t, Ask, corpusRules(t, Allow, "git status"))
	for _, d := range []string{"a", "b", "c"} {
		if v := s.CheckIn("git status", Context{Dir: filepath.Join(root, d)}); v.Decision != Ask {
			t.Errorf("%s: git status = %v, want ask;%s", d, v.Decision, partsText(v))
		}
	}
}

// The config reader finds keys however git's syntax spells them.
func TestConfigKeys(t *testing.T) {
	for in, want := range map[string]string{
		"[core]\n\tfsmonitor = x\n":         "core.fsmonitor",
		"[core] fsmonitor = x\n":            "core.fsmonitor",
		"[CORE]\n\tFsMonitor=x\n":           "core.fsmonitor",
		"\xef\xbb\xbf[core]\nfsmonitor\n":   "core.fsmonitor",
		"[diff \"a]b\"]\n\ttextconv = x\n":  "diff.a]b.textconv",
		"[core.x]\n\tk = v\n":               "core.x.k",
		"[filter \"lfs\"]\n\tprocess = x\n": "filter.lfs.process",
		"[core]\n\teditor = a \\\nb = c\n":  "core.editor",
	} {
		found := false
		for _, k := range configKeys([]byte(in)) {
			found = found || k.key == want
		}
		if !found {
			t.Errorf("%q: keys %v, want %s among them", in, configKeys([]byte(in)), want)
		}
	}
}
