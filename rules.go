package spillway

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spillway-dev/spillway/internal/rules"
	"github.com/spillway-dev/spillway/tool"
)

// ruleSet is the command rules in force: the patterns of a RulesPolicy
// and those of the tools it imports. Every simple command of a bash
// command is decided on its own (lists, pipelines, substitutions, the
// code of bash -c and eval, through wrappers such as env, sudo, xargs
// and find -exec), and the command gets the strictest decision of its
// parts: deny over ask over allow. docs/rules.md has the whole of it.
type ruleSet struct {
	set *rules.Set
	// imported is what the imports read: files, notes, failures, and
	// the file rules (Read, Edit, Write entries) for the file tools.
	imported *rules.Imported
	// files are the file rules in force, spillway's own then the
	// imported ones; suspendedFiles the allow file entries of a project
	// not trusted (spillway's config inside it, its settings files),
	// which a decision names when one would have allowed the file.
	files, suspendedFiles []rules.FileRule
}

// loadRules reads the rules of p: its patterns, an administrator's
// managed settings (whatever p imports), and the rules files of the
// tools it imports, found under the person's home and under cwd (a
// project's own .claude/ and .codex/, whose allow entries count only
// when the person trusts the project). A pattern of p that does not
// parse is an error; a rules file that cannot be read or evaluated is
// not: it is an import failure, named in the rules it adds, which make
// every command ask. writable are the directories commands may write.
func loadRules(p RulesPolicy, cwd string, writable []string) (*ruleSet, error) {
	def, err := decisionOf(p.Default)
	if err != nil {
		return nil, fmt.Errorf("rules.default: %w", err)
	}
	if err := rules.CheckImports(p.Import); err != nil {
		return nil, fmt.Errorf("rules.import: %w", err)
	}
	at := rulesPlaces(p, cwd, writable)
	// A spillway config inside the project is the project's: its allow
	// patterns count only when the project is trusted, and a change to
	// it is a change to the project's rule files (rulesPlaces).
	var projectConfig, untrusted, how string
	if f := projectConfigOf(p, cwd); f != "" {
		projectConfig = f
		untrusted, how = at.Trust.Suspend(at)
	}
	set := &rules.Set{Default: def}
	var notes []rules.Note
	lists := []struct {
		key      string
		patterns []string
		d        rules.Decision
	}{{"deny", p.Deny, rules.Deny}, {"ask", p.Ask, rules.Ask}, {"allow", p.Allow, rules.Allow}}
	for _, l := range lists {
		for i, text := range l.patterns {
			src := fmt.Sprintf("Policy.Rules.%s%s[%d]", strings.ToUpper(l.key[:1]), l.key[1:], i)
			if s := p.Sources[l.key]; i < len(s) {
				src = s[i]
			}
			if rules.IsFileEntry(text) {
				continue // a file rule: decideFiles reads it
			}
			pat, err := rules.ParsePattern(text)
			if err != nil {
				return nil, fmt.Errorf("%s: rules.%s: %w", src, l.key, err)
			}
			if l.d == rules.Allow && untrusted != "" {
				notes = append(notes, rules.Note{Source: src, Entry: text, Action: rules.Suspended, Why: untrusted + " (the config " + projectConfig + " is inside it)"})
				set.Suspended = append(set.Suspended, rules.SuspendedRule(rules.Rule{Text: text, Pattern: pat, Decision: l.d, Source: src},
					how+" (the config "+projectConfig+" is inside it, so it is the project's)"))
				continue
			}
			set.Rules = append(set.Rules, rules.Rule{Text: text, Pattern: pat, Decision: l.d, Source: src})
		}
	}
	imported := rules.Import(p.Import, at)
	if imported.ManagedOnly {
		// The administrator allows only their own allow entries:
		// spillway's config's count no more than Claude Code's.
		kept := set.Rules[:0]
		for _, r := range set.Rules {
			if r.Decision == rules.Allow {
				notes = append(notes, rules.Note{Source: r.Source, Entry: r.Text, Action: rules.Dropped,
					Why: "the administrator's managed settings say allowManagedPermissionRulesOnly: only their allow entries count"})
				continue
			}
			kept = append(kept, r)
		}
		set.Rules = kept
	}
	set.Rules = append(set.Rules, imported.Rules...)
	set.Suspended = append(set.Suspended, imported.Suspended...)
	rs := &ruleSet{set: set, imported: imported}
	for _, r := range ownFileRules(p) {
		switch {
		case r.Decision == rules.Allow && untrusted != "":
			notes = append(notes, rules.Note{Source: r.Source, Entry: r.Text, Action: rules.Suspended, Why: untrusted + " (the config " + projectConfig + " is inside it)"})
			rs.suspendedFiles = append(rs.suspendedFiles, rules.SuspendedFileRule(r, how+" (the config "+projectConfig+" is inside it, so it is the project's)"))
		case r.Decision == rules.Allow && imported.ManagedOnly:
			notes = append(notes, rules.Note{Source: r.Source, Entry: r.Text, Action: rules.Dropped,
				Why: "the administrator's managed settings say allowManagedPermissionRulesOnly: only their allow entries count"})
		default:
			rs.files = append(rs.files, r)
		}
	}
	rs.files = append(rs.files, imported.FileRules...)
	rs.suspendedFiles = append(rs.suspendedFiles, imported.SuspendedFiles...)
	imported.Notes = append(notes, imported.Notes...)
	return rs, nil
}

// rulesPlaces are where the rules of p are read for a session in cwd.
func rulesPlaces(p RulesPolicy, cwd string, writable []string) rules.Places {
	at := rules.PlacesFromEnv(cwd)
	if p.ManagedDir != "" {
		at.ManagedDir, at.ManagedPlists = p.ManagedDir, nil
		if p.ManagedDir == noManagedSettings {
			at.ManagedDir = ""
		}
	}
	if p.StateFile != "" {
		at.Trust.StateFile = p.StateFile
	}
	if projectConfigOf(p, cwd) == "" {
		// A config inside the project is the project's: the folders
		// it trusts would let it trust itself.
		at.Trust.Trusted = p.TrustedProjects
	}
	at.Trust.Writable = writable
	at.Extra = p.SettingsFiles
	if f := projectConfigOf(p, cwd); f != "" {
		at.Trust.ProjectFiles = append(at.Trust.ProjectFiles, f)
	}
	for i, f := range at.Extra {
		if rest, ok := strings.CutPrefix(f, "~/"); ok && at.Home != "" {
			at.Extra[i] = filepath.Join(at.Home, rest)
		}
	}
	return at
}

// noManagedSettings, as RulesPolicy.ManagedDir, reads no managed
// settings: for tests and for a library user who wants none.
const noManagedSettings = "-"

// managedPresent reports whether an administrator's managed settings
// exist where p reads them: they count even when p configures no rule.
func managedPresent(p RulesPolicy) bool {
	at := rulesPlaces(p, "", nil)
	return rules.ManagedPresent(at)
}

// projectConfigOf is the config file of p when it is inside the project
// cwd, else "".
//
// The person's own config, under their config directory
// ($XDG_CONFIG_HOME/spillway or ~/.config/spillway), is never the
// project's, even when the project is the home (as ~/.claude is the
// person's there). Symbolic links of either side are resolved: a link
// outside the project to a file inside it is the project's file.
func projectConfigOf(p RulesPolicy, cwd string) string {
	f := configFileOf(p.Sources)
	if f == "" || cwd == "" {
		return ""
	}
	f, _ = filepath.Abs(f)
	if !rules.Within(f, cwd) {
		return ""
	}
	if dir, err := os.UserConfigDir(); err == nil && filepath.IsAbs(dir) && rules.Within(f, filepath.Join(dir, "spillway")) {
		return ""
	}
	return f
}

// configFileOf is the config file the sources name ("FILE:LINE"), or "".
func configFileOf(sources map[string][]string) string {
	for _, list := range sources {
		for _, s := range list {
			if i := strings.LastIndexByte(s, ':'); i > 0 {
				return s[:i]
			}
		}
	}
	return ""
}

func decisionOf(s string) (rules.Decision, error) {
	switch s {
	case "", "allow":
		return rules.Allow, nil
	case "ask":
		return rules.Ask, nil
	case "deny":
		return rules.Deny, nil
	}
	return 0, fmt.Errorf("%q is not a decision; want allow, ask or deny", s)
}

// RuleFiles are the rules files the imports of Policy.Rules read.
func (t *Toolset) RuleFiles() []string {
	if t.rulesNow() == nil {
		return nil
	}
	return slices.Clone(t.rulesNow().imported.Read)
}

// RuleNotes are the entries of the imported rules files read the
// stricter way (widened), held as an exact input, left out (dropped),
// or not counted until the project is trusted (suspended), each with
// why, as lines "FILE:LINE: ENTRY ACTION: WHY".
func (t *Toolset) RuleNotes() []string {
	if t.rulesNow() == nil {
		return nil
	}
	out := make([]string, len(t.rulesNow().imported.Notes))
	for i, n := range t.rulesNow().imported.Notes {
		out[i] = n.String()
	}
	return out
}

// RuleNoteCounts counts RuleNotes by action: "dropped", "widened",
// "exact", "suspended".
func (t *Toolset) RuleNoteCounts() map[string]int {
	m := map[string]int{}
	if t.rulesNow() != nil {
		for _, n := range t.rulesNow().imported.Notes {
			m[n.Action]++
		}
	}
	return m
}

// ImportFailures are the rules files that could not be read or
// evaluated: while one is, every bash command asks (and every file-tool
// call, for a Claude Code settings file). Each is "FILE[:LINE]: WHY".
func (t *Toolset) ImportFailures() []string {
	if t.rulesNow() == nil {
		return nil
	}
	out := make([]string, len(t.rulesNow().imported.Failures))
	for i, f := range t.rulesNow().imported.Failures {
		out[i] = f.Error()
	}
	return out
}

// fileRules are the Read, Edit and Write entries in force, for the file
// tools: spillway's own, then those of the imported settings files; an
// import failure of a file that may hold them stands as an ask rule of
// every kind for every file.
func (t *Toolset) fileRules() []rules.FileRule {
	if t.rulesNow() == nil {
		return nil
	}
	return t.rulesNow().files
}

// RuleList returns the rules in force, deny rules first, each as a part
// with no command: its decision, the rule as written (a pattern, a Claude
// Code entry "Bash(git push:*)", a Codex prefix_rule call), where it is
// written and its justification.
func (t *Toolset) RuleList() []RulePart {
	if t.rulesNow() == nil {
		return nil
	}
	out := make([]RulePart, 0, len(t.rulesNow().set.Rules))
	for _, d := range []rules.Decision{rules.Deny, rules.Ask, rules.Allow} {
		for _, x := range t.rulesNow().set.Rules {
			if x.Decision == d {
				out = append(out, RulePart{Decision: d.String(), Rule: x.Text, Source: x.Source, Justification: x.Justification})
			}
		}
	}
	return out
}

// CheckCommand decides command by the rules in force without running
// anything; nil when Policy.Rules configures none.
func (t *Toolset) CheckCommand(command string) *RulesDetails {
	if t.rulesNow() == nil {
		return nil
	}
	// Decided as a bash call with no parameters would be: in the
	// session's directory (the process's, for the CLI), with the same
	// run-time checks (git's repository and aliases, PATH lookups).
	d := rulesDetails(t.rulesNow().set.CheckIn(command, t.ruleContext(context.Background(), BashInput{Command: command})))
	return &d
}

// RulesDetails are the decision on a bash command: details.rules of
// every bash result while rules are in force (tool.RulesDetails).
type RulesDetails = tool.RulesDetails

// A RulePart is one simple command and how it was decided
// (tool.RulePart).
type RulePart = tool.RulePart

// rulesDetails are the details of a verdict: its parts as the engine
// decided them.
func rulesDetails(v rules.Verdict) RulesDetails {
	return RulesDetails{Decision: v.Decision.String(), Parts: v.Parts()}
}

// ProjectAllowEntries lists the allow entries of the project dir's own
// rule files that count only once the person trusts the project, each
// as "FILE:LINE: ENTRY", and whether it is trusted now: what a person
// is shown before trusting it.
func (p RulesPolicy) ProjectAllowEntries(dir string) (entries []string, trusted bool) {
	at := rulesPlaces(p, dir, nil)
	trusted = at.Trust.Decide(at) == ""
	if projectConfigOf(p, dir) != "" {
		// spillway's own config inside the project is one of its rule
		// files: its allow entries are what trusting it lets count.
		for i, text := range p.Allow {
			src := fmt.Sprintf("Policy.Rules.Allow[%d]", i)
			if s := p.Sources["allow"]; i < len(s) {
				src = s[i]
			}
			entries = append(entries, src+": "+text)
		}
	}
	at.Trust = rules.Trust{} // nothing trusted: every project allow entry is a note
	at.ManagedDir, at.ManagedPlists, at.Extra = "", nil, nil
	for _, n := range rules.Import(p.Import, at).Notes {
		if n.Action == rules.Suspended {
			entries = append(entries, n.Source+": "+n.Entry)
		}
	}
	return entries, trusted
}

// TrustProject trusts the project dir, as its rule files are now, in
// spillway's state file; via names the channel the person answered
// through ("tty", "form", "console").
func (p RulesPolicy) TrustProject(dir, via string) error {
	at := rulesPlaces(p, dir, nil)
	return rules.Grant(at.Trust, dir, via)
}

// RevokeProject withdraws the trust in the project dir.
func (p RulesPolicy) RevokeProject(dir string) error {
	at := rulesPlaces(p, dir, nil)
	return rules.Revoke(at.Trust, dir)
}

// FileRuleLines are the file rules in force (the Read, Edit and Write
// entries of spillway's config and of the imports, and the ask rules an
// import failure stands for),
// each as "DECISION KIND PATTERN  SOURCE", and how many rules files the
// file tools ask before changing.
func (t *Toolset) FileRuleLines() (lines []string, guarded int) {
	for _, r := range t.fileRules() {
		if r.Source == "spillway" {
			guarded++
			continue
		}
		pat := r.Pattern
		if pat == "" {
			pat = "(every file)"
		}
		src := r.Source
		if r.Failure != "" {
			src += " (import failure)"
		}
		lines = append(lines, fmt.Sprintf("%s  %s %s  %s  %s", r.Decision, r.Kind, pat, r.Text, src))
	}
	return lines, guarded / 2 // an edit and a write rule for each file
}

// rulesNow are the rules in force; nil when none are configured.
func (t *Toolset) rulesNow() *ruleSet { return t.rules.Load() }

// A ProjectTrust is what the person is shown before trusting the
// project a toolset works in: the project, the allow entries of its own
// rule files that count only once it is trusted ("FILE:LINE: ENTRY"),
// and the hash of those files when the entries were read.
type ProjectTrust struct {
	Dir     string
	Entries []string
	// Hash binds a grant to the files as they were shown: changed
	// since, the grant does not match them (TrustProject).
	Hash string
}

// UntrustedProject is what trusting the project the toolset works in
// (its working directory) would let count, when it has allow entries
// that count only once the person trusts it and it is not trusted now;
// nil when there is nothing to trust.
func (t *Toolset) UntrustedProject() *ProjectTrust {
	if t.rulesNow() == nil {
		return nil
	}
	// The hash first: a file changed while the entries are read is
	// then one the grant does not match.
	hash := rules.CurrentHash(rulesPlaces(t.policy.Rules, t.cwd, t.rulesWritable).Trust, t.cwd)
	entries, trusted := t.policy.Rules.ProjectAllowEntries(t.cwd)
	if trusted || len(entries) == 0 {
		return nil
	}
	return &ProjectTrust{Dir: t.cwd, Entries: entries, Hash: hash}
}

// TrustProject trusts the project the person was shown (UntrustedProject)
// as its rule files were then, in spillway's state file, and loads the
// rules again: its allow entries count from the next decision on, in
// this session and in every later one until its rule files change. A
// file changed since it was shown is not trusted: its allow entries stay
// suspended, and the next question shows them. via names the channel
// the person answered through ("form", "console",
// "console-unsandboxed", "tty"); only the person may be asked, never
// the model.
func (t *Toolset) TrustProject(shown ProjectTrust, via string) error {
	if t.rulesNow() == nil {
		return errors.New("no command rules are in force: there is nothing to trust")
	}
	if shown.Dir != t.cwd || shown.Hash == "" {
		return fmt.Errorf("the project shown (%q) is not the one this session works in (%s)", shown.Dir, t.cwd)
	}
	if err := rules.GrantShown(rulesPlaces(t.policy.Rules, t.cwd, t.rulesWritable).Trust, t.cwd, via, shown.Hash); err != nil {
		return err
	}
	rs, err := loadRules(t.policy.Rules, t.cwd, t.rulesWritable)
	if err != nil {
		return err
	}
	t.rules.Store(rs)
	return nil
}
