package spillway_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spillway-dev/spillway"
	"github.com/spillway-dev/spillway/tool"
)

func fileToolset(t *testing.T, opts spillway.Options) (*spillway.Toolset, string) {
	t.Helper()
	if opts.Cwd == "" {
		opts.Cwd = opts.Root
	}
	ts := bashToolset(t, opts)
	return ts, ts.Cwd()
}

func TestFileToolsEditResult(t *testing.T) {
	ts, dir := fileToolset(t, spillway.Options{})
	writeFile(t, filepath.Join(dir, "a.txt"), "one\ntwo\nthree\n")
	res, err := ts.Edit(context.Background(), tool.EditInput{Path: "a.txt", OldString: "two", NewString: "2"})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Successfully replaced 1 occurrence in a.txt (1 line added, 1 line removed).", "--- a/a.txt", "+++ b/a.txt", "@@ -1,3 +1,3 @@", "-two", "+2"} {
		if !strings.Contains(res.Text, want) {
			t.Errorf("text lacks %q:\n%s", want, res.Text)
		}
	}
	d := res.Details
	if d.Path != "a.txt" || d.Added != 1 || d.Removed != 1 || d.BytesBefore != 14 || d.BytesAfter != 12 || len(d.SHA256Before) != 64 || d.Change == 0 || d.Truncation.Truncated {
		t.Errorf("%+v", d)
	}
}

// A diff longer than the read limits is cut like any output, and the
// whole of it is spilled.
func TestFileToolsDiffCutAndSpilled(t *testing.T) {
	pol := spillway.DefaultPolicy()
	pol.Read.MaxLines = 20
	ts, dir := fileToolset(t, spillway.Options{Policy: &pol})
	var b strings.Builder
	for i := 0; i < 200; i++ {
		b.WriteString("line\n")
	}
	res, err := ts.Write(context.Background(), tool.WriteInput{Path: "big.txt", Content: b.String()})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Details.Truncation.Truncated || res.Details.FullOutputPath == "" {
		t.Fatalf("%+v", res.Details)
	}
	full, err := os.ReadFile(res.Details.FullOutputPath)
	if err != nil || strings.Count(string(full), "\n+line") != 200 {
		t.Fatalf("spill %q %v", full, err)
	}
	if !strings.Contains(res.Text, res.Details.FullOutputPath) {
		t.Errorf("the notice does not name the spill file:\n%s", res.Text)
	}
	_ = dir
}

// A read records what the session saw: a change made behind its back
// is not overwritten; reading again allows it.
func TestFileToolsStaleAfterRead(t *testing.T) {
	ctx := context.Background()
	ts, dir := fileToolset(t, spillway.Options{})
	p := filepath.Join(dir, "f.txt")
	writeFile(t, p, "a\nb\n")
	if _, err := ts.Read(ctx, spillway.ReadInput{Path: "f.txt", Limit: 1}); err != nil {
		t.Fatal(err)
	}
	writeFile(t, p, "a\nB\n")
	_, err := ts.Edit(ctx, tool.EditInput{Path: "f.txt", OldString: "a", NewString: "x"})
	if err == nil || !strings.Contains(err.Error(), "changed since this session read it") {
		t.Fatalf("got %v", err)
	}
	if _, err := ts.Write(ctx, tool.WriteInput{Path: "f.txt", Content: "z"}); err == nil {
		t.Fatal("write over a changed file")
	}
	if got, _ := os.ReadFile(p); string(got) != "a\nB\n" {
		t.Fatalf("%q", got)
	}
	ts.Read(ctx, spillway.ReadInput{Path: "f.txt"})
	if _, err := ts.Write(ctx, tool.WriteInput{Path: "f.txt", Content: "z"}); err != nil {
		t.Fatal(err)
	}
	// Unseen existing file: write needs expected_sha256.
	writeFile(t, filepath.Join(dir, "g.txt"), "g")
	_, err = ts.Write(ctx, tool.WriteInput{Path: "g.txt", Content: "h"})
	if err == nil || !strings.Contains(err.Error(), "expected_sha256") {
		t.Fatalf("got %v", err)
	}
}

// Under --root: outside it, and through a symlink that leads out of it,
// nothing is written.
func TestFileToolsConfined(t *testing.T) {
	ctx := context.Background()
	root, outside := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(outside, "o.txt"), "outside\n")
	os.Symlink(outside, filepath.Join(root, "out"))
	os.Symlink(filepath.Join(outside, "o.txt"), filepath.Join(root, "o-link.txt"))
	ts, _ := fileToolset(t, spillway.Options{Root: root})
	for _, p := range []string{filepath.Join(outside, "o.txt"), "../" + filepath.Base(outside) + "/o.txt", "out/o.txt", "o-link.txt", "out/new.txt"} {
		if _, err := ts.Write(ctx, tool.WriteInput{Path: p, Content: "x", ExpectedSHA256: sha("outside\n")}); err == nil || !strings.Contains(err.Error(), "outside the root") {
			t.Errorf("write %s: %v", p, err)
		}
		if _, err := ts.Edit(ctx, tool.EditInput{Path: p, OldString: "outside", NewString: "x"}); err == nil {
			t.Errorf("edit %s allowed", p)
		}
		if _, err := ts.ApplyPatch(ctx, tool.ApplyPatchInput{Input: "*** Begin Patch\n*** Add File: " + p + "\n+x\n*** End Patch"}); err == nil {
			t.Errorf("apply_patch %s allowed", p)
		}
	}
	if got, _ := os.ReadFile(filepath.Join(outside, "o.txt")); string(got) != "outside\n" {
		t.Fatalf("outside changed: %q", got)
	}
	if _, err := os.Stat(filepath.Join(outside, "new.txt")); err == nil {
		t.Fatal("a file was made outside")
	}
	// Inside: fine, and the spill directory is not writable.
	if _, err := ts.Write(ctx, tool.WriteInput{Path: "in/new.txt", Content: "x"}); err != nil {
		t.Fatal(err)
	}
	res, _ := ts.Bash(ctx, spillway.BashInput{Command: "seq 1 100000"})
	if p := res.Details.Stdout.FullOutputPath; p != "" {
		if _, err := ts.Write(ctx, tool.WriteInput{Path: p, Content: "x", ExpectedSHA256: "00"}); err == nil {
			t.Errorf("wrote the spill file %s", p)
		}
	}
}

// The file tools ask before changing a file that loads code, whatever
// the rules say; without anyone to ask, nothing changes.
func TestFileToolsProtectedAsked(t *testing.T) {
	ctx := context.Background()
	ts, dir := fileToolset(t, spillway.Options{})
	for _, p := range []string{".git/config", ".git/hooks/pre-commit", ".bashrc", ".claude/settings.json"} {
		res, err := ts.Write(ctx, tool.WriteInput{Path: p, Content: "x"})
		if err != nil || !res.IsError || !strings.Contains(res.Text, "approval") && !strings.Contains(res.Text, "asked") {
			t.Errorf("%s: %v %q", p, err, res.Text)
		}
		if _, err := os.Stat(filepath.Join(dir, p)); err == nil {
			t.Errorf("%s was written", p)
		}
	}
	asked := 0
	pol := spillway.DefaultPolicy()
	ts2 := bashToolset(t, spillway.Options{Cwd: dir, Policy: &pol, Asker: func(ctx context.Context, command, cwd string, parts []spillway.RulePart) (string, error) {
		asked++
		return "allow once", nil
	}})
	if res, err := ts2.Write(ctx, tool.WriteInput{Path: ".bashrc", Content: "x"}); err != nil || res.IsError || asked != 1 {
		t.Fatalf("%v %v %d", err, res.Text, asked)
	}
}

// Edit(…) and Write(…) rules and [rules] file_default decide the calls; a
// patch takes the strictest decision of its files.
func TestFileToolsRules(t *testing.T) {
	ctx := context.Background()
	pol := spillway.DefaultPolicy()
	pol.Rules.Deny = []string{"Edit(secret/**)"}
	pol.Rules.Allow = []string{"Write(gen/**)"}
	pol.Rules.FileDefault = "deny"
	ts, dir := fileToolset(t, spillway.Options{Policy: &pol})
	writeFile(t, filepath.Join(dir, "secret/k"), "k\n")
	res, err := ts.Edit(ctx, tool.EditInput{Path: "secret/k", OldString: "k", NewString: "x"})
	if err != nil || !res.IsError || !strings.Contains(res.Text, "Edit(secret/**)") {
		t.Fatalf("%v %q", err, res.Text)
	}
	if res, err := ts.Write(ctx, tool.WriteInput{Path: "gen/a.go", Content: "x"}); err != nil || res.IsError {
		t.Fatalf("%v %q", err, res.Text)
	}
	res, err = ts.ApplyPatch(ctx, tool.ApplyPatchInput{Input: "*** Begin Patch\n*** Add File: gen/b.go\n+b\n*** Add File: other.txt\n+o\n*** End Patch"})
	if err != nil || !res.IsError || !strings.Contains(res.Text, "denied") {
		t.Fatalf("%v %q", err, res.Text)
	}
	if _, err := os.Stat(filepath.Join(dir, "gen/b.go")); err == nil {
		t.Fatal("part of a denied patch was applied")
	}
}

func sha(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// history lists the file changes, shows one again and undoes it while
// the file holds what it wrote.
func TestFileToolsHistoryChangeUndo(t *testing.T) {
	ctx := context.Background()
	ts, dir := fileToolset(t, spillway.Options{})
	p := filepath.Join(dir, "f.txt")
	writeFile(t, p, "a\nb\n")
	res, err := ts.Edit(ctx, tool.EditInput{Path: "f.txt", OldString: "b", NewString: "B"})
	if err != nil {
		t.Fatal(err)
	}
	n := res.Details.Change
	list, err := ts.History(ctx, spillway.HistoryInput{})
	if err != nil || len(list.Details.Changes) != 1 || !strings.Contains(list.Text, "change 1") {
		t.Fatalf("%v %q %+v", err, list.Text, list.Details.Changes)
	}
	shown, err := ts.History(ctx, spillway.HistoryInput{Change: n})
	if err != nil || !strings.Contains(shown.Text, "+B") || !strings.Contains(shown.Text, "-b") {
		t.Fatalf("%v %q", err, shown.Text)
	}
	undone, err := ts.History(ctx, spillway.HistoryInput{Undo: n})
	if err != nil || undone.IsError {
		t.Fatalf("%v %q", err, undone.Text)
	}
	if got, _ := os.ReadFile(p); string(got) != "a\nb\n" {
		t.Fatalf("%q", got)
	}
	// The file no longer holds what the change wrote: undo refuses.
	if _, err := ts.History(ctx, spillway.HistoryInput{Undo: n}); err == nil || !strings.Contains(err.Error(), "changed since the change wrote it") {
		t.Fatalf("got %v", err)
	}
	if _, err := ts.History(ctx, spillway.HistoryInput{Undo: n, Limit: 3}); err == nil {
		t.Fatal("undo with limit accepted")
	}
}

// bash answers Codex's apply_patch heredoc, as codex-rs does, through
// apply_patch; a bare patch is refused; other commands run.
func TestBashCodexApplyPatchHeredoc(t *testing.T) {
	ctx := context.Background()
	ts, dir := fileToolset(t, spillway.Options{})
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	res, err := ts.Bash(ctx, spillway.BashInput{Command: "cd sub && apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: hello.txt\n+hi\n*** End Patch\nEOF"})
	if err != nil || res.IsError || !strings.Contains(res.Text, "A hello.txt") || *res.Details.ExitCode != 0 {
		t.Fatalf("%v %q", err, res.Text)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "sub/hello.txt")); string(got) != "hi\n" {
		t.Fatalf("%q", got)
	}
	res, _ = ts.Bash(ctx, spillway.BashInput{Command: "apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: nope.txt\n@@\n-a\n+b\n*** End Patch\nEOF"})
	if !res.IsError || *res.Details.ExitCode != 1 || !strings.Contains(res.Text, "does not exist") {
		t.Fatalf("%q", res.Text)
	}
	res, _ = ts.Bash(ctx, spillway.BashInput{Command: "*** Begin Patch\n*** Add File: x\n+x\n*** End Patch"})
	if !res.IsError || !strings.Contains(res.Text, "without a call to apply_patch") {
		t.Fatalf("%q", res.Text)
	}
	res, _ = ts.Bash(ctx, spillway.BashInput{Command: "echo apply_patch"})
	if res.IsError || !strings.Contains(res.Text, "apply_patch") {
		t.Fatalf("%q", res.Text)
	}
}

// A patch's *** Delete File: is decided as bash's rm of that file would
// be, as well as by the Edit rules: deny rm * and a default of ask with
// no rule allowing rm leave the file; a default of allow with no rm rule
// deletes it, though the session never read it (as rm would, and as
// Codex's apply_patch does).
func TestFileToolsDeleteDecidedAsRm(t *testing.T) {
	ctx := context.Background()
	patch := "*** Begin Patch\n*** Delete File: precious.txt\n*** End Patch"
	for _, c := range []struct {
		name   string
		rules  spillway.RulesPolicy
		kept   bool
		reason string
	}{
		{"deny rm", spillway.RulesPolicy{Default: "allow", Deny: []string{"rm *"}}, true, "denied"},
		{"ask rm", spillway.RulesPolicy{Default: "allow", Ask: []string{"rm *"}}, true, "needs the user's approval"},
		{"default ask", spillway.RulesPolicy{Default: "ask", Allow: []string{"ls *", "cat *"}}, true, "needs the user's approval"},
		{"default allow", spillway.RulesPolicy{Default: "allow", Deny: []string{"curl *"}}, false, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			pol := spillway.DefaultPolicy()
			pol.Rules = c.rules
			ts, dir := fileToolset(t, spillway.Options{Policy: &pol})
			victim := filepath.Join(dir, "precious.txt")
			writeFile(t, victim, "keep me\n")
			res, err := ts.ApplyPatch(ctx, tool.ApplyPatchInput{Input: patch})
			if err != nil {
				t.Fatal(err)
			}
			_, statErr := os.Stat(victim)
			if kept := statErr == nil; kept != c.kept {
				t.Fatalf("kept %v, want %v:\n%s", kept, c.kept, res.Text)
			}
			if c.kept && (!res.IsError || !strings.Contains(res.Text, c.reason) || !strings.Contains(res.Text, "rm ")) {
				t.Errorf("the refusal does not name rm and say %q:\n%s", c.reason, res.Text)
			}
			if !c.kept && res.IsError {
				t.Errorf("the delete failed:\n%s", res.Text)
			}
		})
	}
}
