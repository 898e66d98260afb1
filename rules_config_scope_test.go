package spillway

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// configScopeEnv is a home, a state file outside every directory a
// command may write, and the person's config directory under the home.
func configScopeEnv(t *testing.T) (home string) {
	t.Helper()
	home = t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("XDG_STATE_HOME", filepath.Join(home, "state"))
	t.Setenv("TMPDIR", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	t.Setenv("CODEX_HOME", "")
	return home
}

// checkIn decides command with the rules p holds, for a session in cwd.
func checkIn(t *testing.T, p Policy, cwd, command string) RulePart {
	t.Helper()
	ts, err := New(Options{Cwd: cwd, Policy: &p})
	if err != nil {
		t.Fatal(err)
	}
	defer ts.Close()
	d := ts.CheckCommand(command)
	if len(d.Parts) != 1 {
		t.Fatalf("%s: %d parts, want 1: %+v", command, len(d.Parts), d.Parts)
	}
	return d.Parts[0]
}

func configPolicy(cfg, def string, imports ...string) Policy {
	p := DefaultPolicy()
	p.Rules = RulesPolicy{Default: def, Allow: []string{"git status"}, Import: imports, ManagedDir: noManagedSettings,
		Sources: map[string][]string{"allow": {cfg + ":3"}}}
	return p
}

// The person's own config (~/.config/spillway/config.toml) counts in a
// session whose working directory is the home, which holds it.
func TestRulesPersonConfigCountsInHome(t *testing.T) {
	home := configScopeEnv(t)
	cfg := filepath.Join(home, ".config", "spillway", "config.toml")
	os.MkdirAll(filepath.Dir(cfg), 0o700)
	os.WriteFile(cfg, []byte("[rules]\n"), 0o600)
	for _, imports := range [][]string{nil, {"claude-code", "codex"}} {
		p := configPolicy(cfg, "ask", imports...)
		if got := checkIn(t, p, home, "git status"); got.Decision != "allow" || got.Source != cfg+":3" {
			t.Errorf("imports %v: cwd the home: %+v, want allowed by %s:3", imports, got, cfg)
		}
	}
}

// A config inside the project is the project's however either is named:
// the session's directory given through a symbolic link to the project
// does not make the project's config the person's.
func TestRulesProjectConfigThroughLink(t *testing.T) {
	configScopeEnv(t)
	proj := t.TempDir()
	cfg := filepath.Join(proj, "spillway.toml")
	os.WriteFile(cfg, []byte("[rules]\n"), 0o644)
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(proj, link); err != nil {
		t.Skip(err)
	}
	got := checkIn(t, configPolicy(cfg, "ask"), link, "git status")
	if got.Decision != "ask" || got.Source != "" {
		t.Errorf("cwd a link to the project: %+v, want ask, the allow suspended", got)
	}
}

// A config inside the project cannot trust the project through its own
// trusted_projects: only the person's config can.
func TestRulesProjectConfigCannotTrustItself(t *testing.T) {
	configScopeEnv(t)
	proj := t.TempDir()
	cfg := filepath.Join(proj, "spillway.toml")
	os.WriteFile(cfg, []byte("[rules]\n"), 0o644)
	p := configPolicy(cfg, "ask")
	p.Rules.TrustedProjects = []string{proj}
	if got := checkIn(t, p, proj, "git status"); got.Decision != "ask" {
		t.Errorf("a project config trusting its own project: %+v, want ask", got)
	}
	// The person's config outside it trusts it.
	outside := filepath.Join(t.TempDir(), "spillway.toml")
	p = configPolicy(outside, "ask")
	p.Rules.Allow = nil
	p.Rules.TrustedProjects = []string{proj}
	os.MkdirAll(filepath.Join(proj, ".claude"), 0o755)
	os.WriteFile(filepath.Join(proj, ".claude", "settings.json"), []byte(`{"permissions":{"allow":["Bash(make:*)"]}}`), 0o644)
	p.Rules.Import = []string{"claude-code"}
	if got := checkIn(t, p, proj, "make x"); got.Decision != "allow" {
		t.Errorf("trusted by the person's config: %+v, want allow", got)
	}
}

// A part that a suspended allow entry would have allowed says so, with
// the entry, its file and how to trust the project, in place of "no rule
// matches": for spillway's config inside the project and for a Claude
// Code project file, whatever the default.
func TestRulesSuspendedAllowSaysSo(t *testing.T) {
	configScopeEnv(t)
	proj := t.TempDir()
	cfg := filepath.Join(proj, "spillway.toml")
	os.WriteFile(cfg, []byte("[rules]\n"), 0o644)
	os.MkdirAll(filepath.Join(proj, ".claude"), 0o755)
	settings := filepath.Join(proj, ".claude", "settings.json")
	os.WriteFile(settings, []byte(`{"permissions":{"allow":["Bash(make:*)"]}}`), 0o644)
	dir, _ := filepath.EvalSymlinks(proj)
	for _, def := range []string{"allow", "ask"} {
		p := configPolicy(cfg, def, "claude-code")
		for cmd, want := range map[string]string{
			"git status": "allow entry git status from " + cfg + ":3 is suspended: the project is not trusted; trust it with spillway rules trust " + dir,
			"make x":     "allow entry Bash(make:*) from " + settings + ":1 is suspended: the project is not trusted; trust it with spillway rules trust " + dir,
		} {
			got := checkIn(t, p, proj, cmd)
			if got.Decision != def || !strings.HasPrefix(got.Reason, want) || !strings.HasSuffix(got.Reason, "the default is "+def+")") {
				t.Errorf("default %s: %s: %+v\nwant the reason to begin %q", def, cmd, got, want)
			}
		}
		if got := checkIn(t, p, proj, "ls"); got.Reason != "no rule matches: the default is "+def {
			t.Errorf("default %s: ls: %+v, want no rule matches", def, got)
		}
	}
}

// A command held for approval because a suspended entry does not count
// tells the person to trust the project, not to write the rule again.
func TestCannotAskNamesSuspendedEntry(t *testing.T) {
	why := "allow entry git status from /p/spillway.toml:3 is suspended: the project is not trusted; trust it with spillway rules trust /p (no other rule matches: the default is ask)"
	got := cannotAskText([]RulePart{{Command: "git status", Decision: "ask", Reason: why}}, "no terminal")
	if !strings.Contains(got, why+"; once the user trusts the project, that entry allows it") || strings.Contains(got, "no rule can allow it") {
		t.Errorf("got %s", got)
	}
}

// What the person is shown before trusting a project holds the allow
// entries of spillway's config inside it, which trusting lets count.
func TestProjectAllowEntriesHoldTheProjectConfig(t *testing.T) {
	configScopeEnv(t)
	proj := t.TempDir()
	cfg := filepath.Join(proj, "spillway.toml")
	os.WriteFile(cfg, []byte("[rules]\n"), 0o644)
	p := configPolicy(cfg, "ask")
	entries, trusted := p.Rules.ProjectAllowEntries(proj)
	if trusted || len(entries) != 1 || entries[0] != cfg+":3: git status" {
		t.Errorf("entries %q, trusted %v; want [%s:3: git status], not trusted", entries, trusted, cfg)
	}
	outside := configPolicy(filepath.Join(t.TempDir(), "spillway.toml"), "ask")
	if entries, _ := outside.Rules.ProjectAllowEntries(proj); len(entries) != 0 {
		t.Errorf("the person's config outside the project: entries %q, want none", entries)
	}
}

// A file-tool call that a project's suspended allow entry would have
// allowed names that entry, its file and how to trust the project, for
// spillway's config inside the project and for a Claude Code project
// file, as a command's decision does; once the project is trusted the
// entries count.
func TestFileToolsSuspendedAllowSaysSo(t *testing.T) {
	configScopeEnv(t)
	proj := t.TempDir()
	cfg := filepath.Join(proj, "spillway.toml")
	os.WriteFile(cfg, []byte("[rules]\n"), 0o644)
	os.MkdirAll(filepath.Join(proj, ".claude"), 0o755)
	settings := filepath.Join(proj, ".claude", "settings.json")
	os.WriteFile(settings, []byte(`{"permissions":{"allow":["Write(gen/**)"]}}`), 0o644)
	os.MkdirAll(filepath.Join(proj, "src"), 0o755)
	os.WriteFile(filepath.Join(proj, "src", "a.go"), []byte("package a\n"), 0o644)
	dir, _ := filepath.EvalSymlinks(proj)
	ctx := t.Context()
	for _, def := range []string{"ask", "deny"} {
		p := DefaultPolicy()
		p.Rules = RulesPolicy{Default: "ask", Allow: []string{"Edit(src/**)"}, Import: []string{"claude-code"}, FileDefault: def, ManagedDir: noManagedSettings,
			Sources: map[string][]string{"allow": {cfg + ":3"}}}
		ts, err := New(Options{Cwd: proj, Policy: &p})
		if err != nil {
			t.Fatal(err)
		}
		how := "is suspended: the project is not trusted; trust it with spillway rules trust " + dir
		e, err := ts.Edit(ctx, EditInput{Path: "src/a.go", OldString: "package a", NewString: "package b"})
		want := "allow entry Edit(src/**) from " + cfg + ":3 " + how
		if err != nil || !e.IsError || !strings.Contains(e.Text, want) || !strings.Contains(e.Text, "[rules] file_default is "+def+")") {
			t.Errorf("file_default %s: edit: %v %q\nwant it to name %q", def, err, e.Text, want)
		}
		if def == "ask" && !strings.Contains(e.Text, "once the user trusts the project, that entry allows it") {
			t.Errorf("file_default ask: edit does not say trusting the project allows it: %q", e.Text)
		}
		w, err := ts.Write(ctx, WriteInput{Path: "gen/x.go", Content: "package gen\n"})
		want = "allow entry Write(gen/**) from " + settings + ":1 " + how
		if err != nil || !w.IsError || !strings.Contains(w.Text, want) {
			t.Errorf("file_default %s: write: %v %q\nwant it to name %q", def, err, w.Text, want)
		}
		// A file no suspended entry covers says no rule matches.
		o, err := ts.Write(ctx, WriteInput{Path: "other.txt", Content: "x"})
		if err != nil || !o.IsError || strings.Contains(o.Text, "suspended") || !strings.Contains(o.Text, "no rule matches this file: [rules] file_default is "+def) {
			t.Errorf("file_default %s: write other.txt: %v %q", def, err, o.Text)
		}
		ts.Close()
		if b, _ := os.ReadFile(filepath.Join(proj, "src", "a.go")); string(b) != "package a\n" {
			t.Fatalf("the file changed: %q", b)
		}
	}
	// The project trusted by the person's own config: both entries count.
	p := DefaultPolicy()
	p.Rules = RulesPolicy{Default: "ask", Allow: []string{"Edit(src/**)"}, Import: []string{"claude-code"}, FileDefault: "deny", ManagedDir: noManagedSettings,
		TrustedProjects: []string{proj}, Sources: map[string][]string{"allow": {filepath.Join(t.TempDir(), "config.toml") + ":3"}}}
	ts, err := New(Options{Cwd: proj, Policy: &p})
	if err != nil {
		t.Fatal(err)
	}
	defer ts.Close()
	if e, err := ts.Edit(ctx, EditInput{Path: "src/a.go", OldString: "package a", NewString: "package b"}); err != nil || e.IsError {
		t.Errorf("trusted: edit: %v %q", err, e.Text)
	}
	if w, err := ts.Write(ctx, WriteInput{Path: "gen/x.go", Content: "package gen\n"}); err != nil || w.IsError {
		t.Errorf("trusted: write: %v %q", err, w.Text)
	}
}

// An asker that has the person trust the project (Toolset.TrustProject)
// answers "trust this project's rules": the command is decided again by
// the project's allow entries, now in force for the session, and runs.
// An asker that answers so without trusting it runs nothing.
func TestTrustProjectThroughTheAsker(t *testing.T) {
	configScopeEnv(t)
	project := t.TempDir()
	os.MkdirAll(filepath.Join(project, ".claude"), 0o755)
	os.WriteFile(filepath.Join(project, ".claude", "settings.json"), []byte(`{"permissions": {"allow": ["Bash(mkdir *)"]}}`), 0o644)
	p := DefaultPolicy()
	p.Rules = RulesPolicy{Default: "ask", Import: []string{"claude-code"}, ManagedDir: noManagedSettings}
	for _, grant := range []bool{true, false} {
		var ts *Toolset
		var asked []RulePart
		asker := func(_ context.Context, _, _ string, parts []RulePart) (string, error) {
			asked = append(asked, parts...)
			if shown := ts.UntrustedProject(); grant && shown != nil {
				if err := ts.TrustProject(*shown, "form"); err != nil {
					return "", err
				}
			}
			return trustProject, nil
		}
		ts, err := New(Options{Cwd: project, Policy: &p, Asker: asker})
		if err != nil {
			t.Fatal(err)
		}
		if shown := ts.UntrustedProject(); shown == nil || len(shown.Entries) != 1 || !strings.Contains(shown.Entries[0], "Bash(mkdir *)") {
			t.Errorf("UntrustedProject: %+v", shown)
		}
		made := filepath.Join(project, fmt.Sprintf("made-%v", grant))
		r, err := ts.Bash(context.Background(), BashInput{Command: "mkdir " + made})
		if err != nil {
			t.Fatal(err)
		}
		_, statErr := os.Stat(made)
		if grant {
			if r.IsError || statErr != nil || len(asked) != 1 || !strings.Contains(asked[0].Reason, " is suspended: ") {
				t.Errorf("trusted: ran %v, asked %+v:\n%s", statErr == nil, asked, r.Text)
			}
			if shown := ts.UntrustedProject(); shown != nil {
				t.Errorf("still untrusted after the grant: %+v", shown)
			}
		} else if !r.IsError || statErr == nil || !strings.Contains(r.Text, "did not settle") || len(asked) != 2 {
			t.Errorf("not trusted: ran %v, asked %d times:\n%s", statErr == nil, len(asked), r.Text)
		}
		ts.Close()
		if grant { // untrusted again for the next case
			if err := p.Rules.RevokeProject(project); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// The rules are replaced while other calls decide: each decision sees
// the rules before the trust or after it, whole (run with -race).
func TestTrustProjectWhileDeciding(t *testing.T) {
	configScopeEnv(t)
	project := t.TempDir()
	os.MkdirAll(filepath.Join(project, ".claude"), 0o755)
	os.WriteFile(filepath.Join(project, ".claude", "settings.json"), []byte(`{"permissions": {"allow": ["Bash(mkdir *)"]}}`), 0o644)
	p := DefaultPolicy()
	p.Rules = RulesPolicy{Default: "ask", Import: []string{"claude-code"}, ManagedDir: noManagedSettings}
	ts, err := New(Options{Cwd: project, Policy: &p})
	if err != nil {
		t.Fatal(err)
	}
	defer ts.Close()
	done := make(chan []string)
	go func() {
		var seen []string
		for i := 0; i < 200; i++ {
			seen = append(seen, ts.CheckCommand("mkdir x").Decision)
		}
		done <- seen
	}()
	if err := ts.TrustProject(*ts.UntrustedProject(), "console"); err != nil {
		t.Fatal(err)
	}
	for _, d := range <-done {
		if d != "ask" && d != "allow" {
			t.Fatalf("a decision while the rules were replaced: %s", d)
		}
	}
	if d := ts.CheckCommand("mkdir x").Decision; d != "allow" {
		t.Errorf("after the trust: %s", d)
	}
}

// The person trusts what they were shown: a rules file changed between
// the question and the answer (by a command the agent left running) is
// not trusted by that answer. Its allow entries stay suspended, and the
// command is asked about again.
func TestTrustProjectOnlyAsShown(t *testing.T) {
	configScopeEnv(t)
	project := t.TempDir()
	settings := filepath.Join(project, ".claude", "settings.json")
	os.MkdirAll(filepath.Dir(settings), 0o755)
	os.WriteFile(settings, []byte(`{"permissions": {"allow": ["Bash(mkdir *)"]}}`), 0o644)
	p := DefaultPolicy()
	p.Rules = RulesPolicy{Default: "ask", Import: []string{"claude-code"}, ManagedDir: noManagedSettings}
	var ts *Toolset
	asked := 0
	asker := func(context.Context, string, string, []RulePart) (string, error) {
		asked++
		if asked > 1 {
			return denyCommand, nil
		}
		shown := ts.UntrustedProject()
		os.WriteFile(settings, []byte(`{"permissions": {"allow": ["Bash(mkdir *)", "Bash(rm *)"]}}`), 0o644)
		if err := ts.TrustProject(*shown, "console"); err != nil {
			return "", err
		}
		return trustProject, nil
	}
	ts, err := New(Options{Cwd: project, Policy: &p, Asker: asker})
	if err != nil {
		t.Fatal(err)
	}
	defer ts.Close()
	made := filepath.Join(project, "made")
	r, err := ts.Bash(context.Background(), BashInput{Command: "mkdir " + made})
	if err != nil {
		t.Fatal(err)
	}
	if _, statErr := os.Stat(made); statErr == nil || asked != 2 || !r.IsError {
		t.Errorf("ran %v after a change the person did not see, asked %d times:\n%s", statErr == nil, asked, r.Text)
	}
	if shown := ts.UntrustedProject(); shown == nil || len(shown.Entries) != 2 {
		t.Errorf("the changed files are not offered again: %+v", shown)
	}
	if d := ts.CheckCommand("rm -rf x").Decision; d != "ask" {
		t.Errorf("rm after the change: %s", d)
	}
}
