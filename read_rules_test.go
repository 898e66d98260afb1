package spillway_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spillway-dev/spillway"
)

// Read deny entries, spillway's own and a Claude Code project's, keep
// their files out of read, grep, find and ls, as Claude Code's do; each
// result says how many it kept out and by which rules. A Read ask entry
// keeps its file's contents out of grep, and read asks for it.
func TestReadRulesHideFiles(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"a.txt", ".env", "sub/.env", "secrets/k.txt", "private/p.txt", "notes.md"} {
		writeFile(t, filepath.Join(dir, f), "needle\n")
	}
	writeFile(t, filepath.Join(dir, ".claude", "settings.json"), `{"permissions":{"deny":["Read(./private/**)"],"ask":["Read(notes.md)"]}}`)
	settings := filepath.Join(dir, ".claude", "settings.json")
	pol := spillway.DefaultPolicy()
	pol.Rules.Deny = []string{"Read(.env)", "Read(secrets/)"}
	pol.Rules.Import = []string{"claude-code"}
	pol.Rules.ManagedDir = "-"
	ts := bashToolset(t, spillway.Options{Cwd: dir, Policy: &pol})
	ctx := context.Background()
	envRule := "`Read(.env)` (Policy.Rules.Deny[0])"

	g, err := ts.Grep(ctx, spillway.GrepInput{Pattern: "needle", OutputMode: "files_with_matches"})
	if err != nil {
		t.Fatal(err)
	}
	for _, hidden := range []string{".env", "secrets", "private", "notes.md"} {
		if strings.Contains(g.Content, hidden) {
			t.Errorf("grep shows %s:\n%s", hidden, g.Text)
		}
	}
	// .env, sub/.env, secrets/, private/, notes.md (an ask rule: its
	// contents), and .claude/ (no match there, so not counted).
	if !strings.Contains(g.Content, "a.txt") || g.Details.Hidden != 5 ||
		!strings.Contains(g.Text, "[5 files hidden by the Read rules "+envRule+", ") ||
		!strings.Contains(g.Text, "`Read(notes.md)` ("+settings+":1)") {
		t.Errorf("grep: hidden %d\n%s", g.Details.Hidden, g.Text)
	}

	f, err := ts.Find(ctx, spillway.FindInput{Pattern: "*"})
	if err != nil {
		t.Fatal(err)
	}
	want := ".claude/\n.claude/settings.json\na.txt\nnotes.md\nsub/"
	if f.Content != want || f.Details.Hidden != 4 || !strings.Contains(f.Text, "[4 paths hidden by the Read rules ") {
		t.Errorf("find: hidden %d\n%s\nwant the paths\n%s", f.Details.Hidden, f.Text, want)
	}

	l, err := ts.Ls(ctx, spillway.LsInput{})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(l.Content, ".env") || strings.Contains(l.Content, "secrets") || strings.Contains(l.Content, "private") ||
		l.Details.Hidden != 3 || l.Details.Count != 4 || !strings.Contains(l.Text, "[3 entries hidden by the Read rules ") {
		t.Errorf("ls: %+v\n%s", l.Details, l.Text)
	}
	if l, err := ts.Ls(ctx, spillway.LsInput{Path: "sub"}); err != nil || l.Text != "[1 entry hidden by the Read rule "+envRule+"]" {
		t.Errorf("ls sub: %v %q", err, l.Text)
	}
	if _, err := ts.Ls(ctx, spillway.LsInput{Path: "private"}); err == nil || !strings.Contains(err.Error(), "hidden by the Read rule") {
		t.Errorf("ls private: %v", err)
	}

	for _, p := range []string{".env", "sub/.env", "secrets/k.txt", "private/p.txt"} {
		r, err := ts.Read(ctx, spillway.ReadInput{Path: p})
		if err != nil || !r.IsError || !strings.Contains(r.Text, "[denied by the file rules: nothing was read]") || strings.Contains(r.Text, "needle") {
			t.Errorf("read %s: %v %q", p, err, r.Text)
		}
	}
	r, err := ts.Read(ctx, spillway.ReadInput{Path: "notes.md"})
	if err != nil || !r.IsError || strings.Contains(r.Text, "needle") || !strings.Contains(r.Text, "needs the user's approval") {
		t.Errorf("read notes.md (an ask rule, no one to ask): %v %q", err, r.Text)
	}
	if r, err := ts.Read(ctx, spillway.ReadInput{Path: "a.txt"}); err != nil || r.IsError || r.Content != "needle\n" {
		t.Errorf("read a.txt: %v %q", err, r.Text)
	}
	// Without Read rules nothing is hidden.
	plain := bashToolset(t, spillway.Options{Cwd: dir})
	if l, err := plain.Ls(ctx, spillway.LsInput{}); err != nil || l.Details.Hidden != 0 || !strings.Contains(l.Content, ".env") {
		t.Errorf("ls without rules: %v %q", err, l.Text)
	}
}

// BenchmarkGrepReadRules greps Go's source tree (GOROOT/src, some 11,000
// files) for a string it does not hold, without Read rules and with
// three Read deny entries, which every file and directory is matched
// against: go test . -run '^$' -bench GrepReadRules -count 5
// (docs/performance.md).
func BenchmarkGrepReadRules(b *testing.B) {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Skip("no go command to ask for GOROOT")
	}
	dir := filepath.Join(strings.TrimSpace(string(out)), "src")
	for _, c := range []struct {
		name string
		deny []string
	}{{"none", nil}, {"3-read-deny", []string{"Read(.env)", "Read(secrets/**)", "Read(**/*.pem)"}}} {
		b.Run(c.name, func(b *testing.B) {
			p := spillway.DefaultPolicy()
			p.Rules.Deny, p.Rules.ManagedDir = c.deny, "-"
			ts := bashToolset(b, spillway.Options{Cwd: dir, Policy: &p})
			for b.Loop() {
				if _, err := ts.Grep(context.Background(), spillway.GrepInput{Pattern: "zzqqxx-not-there", OutputMode: "count"}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// A read is decided on the file it opens: a path that goes through a
// symbolic link and then ".." (sub/gg/../secretdir/key, gg -> ../.git)
// is the root's secretdir/key, which a Read deny holds, under --root as
// without it.
func TestReadRulesDotDotThroughALink(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "secretdir", "key"), "KEY=abc123\n")
	writeFile(t, filepath.Join(dir, ".git", "config"), "x\n")
	if err := os.MkdirAll(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../.git", filepath.Join(dir, "sub", "gg")); err != nil {
		t.Fatal(err)
	}
	for _, root := range []string{"", dir} {
		pol := spillway.DefaultPolicy()
		pol.Rules.Deny = []string{"Read(secretdir/**)"}
		pol.Rules.ManagedDir = "-"
		ts := bashToolset(t, spillway.Options{Cwd: dir, Root: root, Policy: &pol})
		r, err := ts.Read(context.Background(), spillway.ReadInput{Path: "sub/gg/../secretdir/key"})
		if err == nil && strings.Contains(r.Text, "abc123") {
			t.Errorf("root %q: the denied file was read:\n%s", root, r.Text)
		}
	}
}
