package spillway

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/spillway-dev/spillway/internal/codexpatch"
	"github.com/spillway-dev/spillway/internal/rules"
	"github.com/spillway-dev/spillway/tool"
)

// A fileAccess is one file a file-tool call reads or changes: kind is
// Read, Edit (changes what is there: edit, an update, a delete, a move's
// source) or Write (writes a file whole: write, an add, a move's
// destination).
type fileAccess struct {
	path string
	kind string
	// del: the change deletes the file (a patch's *** Delete File:),
	// which the command rules decide as they decide rm of it.
	del bool
}

// patchAccesses lists the files a patch touches and how.
func patchAccesses(input string) ([]fileAccess, error) {
	p, err := codexpatch.Parse(input)
	if err != nil {
		return nil, err
	}
	var acc []fileAccess
	for _, h := range p.Hunks {
		switch h.Kind {
		case codexpatch.Add:
			acc = append(acc, fileAccess{path: h.Path, kind: "Write"})
		default:
			acc = append(acc, fileAccess{path: h.Path, kind: "Edit", del: h.Kind == codexpatch.Delete})
		}
		if h.MoveTo != "" {
			acc = append(acc, fileAccess{path: h.MoveTo, kind: "Write"})
		}
	}
	return acc, nil
}

// parseFileEntry reads a rule entry that is a file rule: "Read(PATTERN)",
// "Edit(PATTERN)" or "Write(PATTERN)" (or the kind alone, every file).
func parseFileEntry(s string) (kind, pattern string, ok bool) {
	tool, spec, hasSpec := strings.Cut(strings.TrimSpace(s), "(")
	tool = strings.TrimSpace(tool)
	if tool != "Read" && tool != "Edit" && tool != "Write" {
		return "", "", false
	}
	if !hasSpec {
		return tool, "", true
	}
	inner, closed := strings.CutSuffix(strings.TrimSpace(spec), ")")
	if !closed {
		return "", "", false
	}
	return tool, strings.TrimSpace(inner), true
}

// ownFileRules are the Read/Edit/Write entries of spillway's own [rules]
// allow, ask and deny lists.
func ownFileRules(p RulesPolicy) []rules.FileRule {
	var out []rules.FileRule
	for _, l := range []struct {
		key  string
		list []string
		d    rules.Decision
	}{{"deny", p.Deny, rules.Deny}, {"ask", p.Ask, rules.Ask}, {"allow", p.Allow, rules.Allow}} {
		for i, text := range l.list {
			kind, pat, ok := parseFileEntry(text)
			if !ok {
				continue
			}
			src := fmt.Sprintf("Policy.Rules.%s%s[%d]", strings.ToUpper(l.key[:1]), l.key[1:], i)
			if s := p.Sources[l.key]; i < len(s) {
				src = s[i]
			}
			k := map[string]rules.FileKind{"Read": rules.FileRead, "Edit": rules.FileEdit, "Write": rules.FileWrite}[kind]
			out = append(out, rules.FileRule{Kind: k, Pattern: pat, Decision: l.d, Source: src, Text: text})
		}
	}
	return out
}

// fileRuleMatches reports whether a rule's pattern (Claude Code's forms:
// "//abs", "~/home", "/from the project", "./rel" or "rel" from the
// working directory, a name without a slash at any depth) holds path.
func fileRuleMatches(r rules.FileRule, cwd string, paths ...string) bool {
	pat, ok := filePattern(r, cwd)
	if !ok {
		return false
	}
	for _, p := range paths {
		if patternHolds(pat, p) {
			return true
		}
	}
	return false
}

// filePattern is the absolute glob a rule's pattern stands for, read
// from cwd; "" for every file; false when it stands for none (a "~/"
// pattern without a home).
func filePattern(r rules.FileRule, cwd string) (string, bool) {
	pat := r.Pattern
	if pat == "" || pat == "*" || pat == "**" {
		return "", true
	}
	base := cwd
	switch {
	case strings.HasPrefix(pat, "//"):
		pat = pat[1:]
	case strings.HasPrefix(pat, "~/"):
		home, err := os.UserHomeDir()
		if err != nil {
			return "", false
		}
		pat = filepath.Join(home, pat[2:])
	case strings.HasPrefix(pat, "/"):
		// From the project: the settings file's project (its .claude
		// directory's parent), or the working directory for spillway's
		// own config.
		if f, _, ok := strings.Cut(r.Source, ":"); ok && filepath.IsAbs(f) && !strings.HasPrefix(r.Source, "Policy.") {
			base = filepath.Dir(f)
			if filepath.Base(base) == ".claude" || filepath.Base(base) == ".spillway" {
				base = filepath.Dir(base)
			}
		}
		pat = filepath.Join(base, pat)
	case !strings.Contains(strings.TrimPrefix(pat, "./"), "/"):
		pat = filepath.Join(base, "**", strings.TrimPrefix(pat, "./"))
	default:
		pat = filepath.Join(base, pat)
	}
	return pat, true
}

// patternHolds reports whether the absolute glob pat ("" every file)
// holds path: matches it, or a directory it names holds it.
func patternHolds(pat, path string) bool {
	if pat == "" {
		return true
	}
	if ok, _ := doublestar.Match(pat, path); ok {
		return true
	}
	ok, _ := doublestar.Match(strings.TrimSuffix(pat, "/")+"/**", path)
	return ok
}

// readHider returns what grep, find and ls ask of each path they would
// show: the Read rule that hides it ("" none). A Read deny entry hides a
// file from all three, as Claude Code's does; a Read ask entry keeps its
// file's contents out of grep too (read asks for it). nil when no Read
// entry denies or asks, so that a search pays nothing.
func (t *Toolset) readHider() func(path string, contents bool) string {
	rs := t.hidingReadRules()
	if len(rs) == 0 {
		return nil
	}
	return rs.hider
}

// A hidingRead is a Read entry that denies or asks, with its pattern
// read from each spelling of the working directory.
type hidingRead struct {
	pats     []string // one per spelling of the working directory
	deny     bool
	text, at string
	links    *linkIDs
}

// hidingReads are the Read entries that hide files from a search, deny
// entries first.
type hidingReads []hidingRead

// hidingReadRules are the Read entries that deny or ask, deny entries
// first: a file both deny and ask hold is named by its deny rule.
func (t *Toolset) hidingReadRules() hidingReads {
	cwds := []string{t.cwd}
	if real, err := filepath.EvalSymlinks(t.cwd); err == nil && real != t.cwd {
		cwds = append(cwds, real)
	}
	var rs hidingReads
	for _, r := range t.fileRules() {
		if r.Kind != rules.FileRead || r.Decision == rules.Allow {
			continue
		}
		c := hidingRead{deny: r.Decision == rules.Deny, text: r.Text, at: r.Source}
		for _, cwd := range cwds {
			if pat, ok := filePattern(r, cwd); ok {
				c.pats = append(c.pats, pat)
			}
		}
		c.links = &linkIDs{pats: c.pats}
		rs = append(rs, c)
	}
	slices.SortStableFunc(rs, func(a, b hidingRead) int {
		switch {
		case a.deny == b.deny:
			return 0
		case a.deny:
			return -1
		}
		return 1
	})
	return rs
}

// hider is the Read rule that hides path from a search ("" none);
// contents says that the search would show the file's contents.
func (rs hidingReads) hider(path string, contents bool) string {
	for _, r := range rs {
		if !r.deny && !contents {
			continue
		}
		for _, pat := range r.pats {
			if patternHolds(pat, path) {
				return fmt.Sprintf("%s (%s)", quoted(r.text), r.at)
			}
		}
	}
	// A file with another name is held by a rule that holds any of its
	// names.
	if linkCount(path) > 1 {
		for _, r := range rs {
			if (r.deny || contents) && r.links.holds(path) {
				return fmt.Sprintf("%s (%s, another name of this file, a hard link)", quoted(r.text), r.at)
			}
		}
	}
	return ""
}

// protectedFile names why a change to path loads code or rules the next
// time something starts ("" when it does not): a change to one of these
// is asked whatever the rules say. The list is the one bash's write
// targets are held to, with the PATH of this process.
func protectedFile(path string) string {
	return rules.ProtectedFile(filepath.ToSlash(path), filepath.SplitList(os.Getenv("PATH")))
}

// decideFiles decides a file-tool call by the Read, Edit and Write rules
// (spillway's own and the imported ones) and [rules] file_default: the
// call takes the strictest decision of its files; a change to a file
// that loads code (protectedFile) is asked whatever the rules say. It
// returns nil when the call may go on, else the result to return.
func (t *Toolset) decideFiles(ctx context.Context, toolName string, acc []fileAccess) *Result[tool.FileChangeDetails] {
	all := t.fileRules()
	def := rules.Allow
	if t.policy.Rules.FileDefault != "" {
		def, _ = decisionOf(t.policy.Rules.FileDefault)
	}
	decision := rules.Allow
	var parts []RulePart
	for _, a := range acc {
		f, refused := t.decideAccess(a, all, def)
		if refused != nil {
			return refused
		}
		decision = max(decision, f.d)
		parts = append(parts, f.part)
		if a.del {
			rm := t.decideDelete(f.abs)
			for _, p := range rm {
				d, _ := decisionOf(p.Decision)
				decision = max(decision, d)
			}
			parts = append(parts, rm...)
		}
	}
	switch decision {
	case rules.Allow:
		return nil
	case rules.Deny:
		return fileRulesDenied(toolName, parts)
	}
	return t.askFileAccess(ctx, toolName, askingParts(parts))
}

// A fileDecision is the decision of one fileAccess as it is made: the
// file's names, the decision so far, and the part that says why.
type fileDecision struct {
	abs string
	// paths are abs, then the file the tool opens where symbolic links
	// make it another (the last is the one opened).
	paths   []string
	d       rules.Decision
	matched bool // a rule decided d
	part    RulePart
}

// decideAccess decides one file of a file-tool call. A non-nil result
// refuses the whole call.
func (t *Toolset) decideAccess(a fileAccess, all []rules.FileRule, def rules.Decision) (fileDecision, *Result[tool.FileChangeDetails]) {
	abs, paths := t.fileNames(a.path)
	if d := t.secretOf(paths...); d != "" {
		return fileDecision{}, &Result[tool.FileChangeDetails]{Text: secretRefusal(abs, d), IsError: true}
	}
	// file_default decides the changes a rule does not; a read no
	// Read rule matches is allowed.
	d, why := def, "[rules] file_default is "+def.String()
	if a.kind == "Read" {
		d, why = rules.Allow, "a read no Read rule matches is allowed"
	}
	f := fileDecision{abs: abs, paths: paths, d: d,
		part: RulePart{Command: a.kind + "(" + abs + ")", Reason: "no rule matches this file: " + why}}
	f.matchRules(all, a.kind, t.cwd)
	if a.kind == "Read" {
		f.matchLinkedRead(all, t.cwd)
	}
	if !f.matched && f.d > rules.Allow {
		// A project's allow entry that is not in force is named.
		if r := t.suspendedFileRule(a.kind, paths); r != nil {
			f.part.Reason = r.Justification + " (no other rule matches: " + why + ")"
		}
	}
	if a.kind != "Read" {
		t.askProtectedChange(&f)
		if refused := t.holdLinkedChange(&f, a.path); refused != nil {
			return f, refused
		}
	}
	if f.d == rules.Ask && t.approved.has(f.part.Command) {
		f.d, f.part.ApprovedForSession = rules.Allow, true
	}
	f.part.Decision = f.d.String()
	return f, nil
}

// fileNames are the names of the file a file tool's path stands for:
// the path made absolute and clean, then the file the tool opens, with
// symbolic links resolved before each "..", as the system resolves them
// (sub/gg/../key with gg -> ../.git is the root's key, not sub/key).
func (t *Toolset) fileNames(path string) (abs string, paths []string) {
	raw := path
	if !filepath.IsAbs(raw) {
		raw = t.cwd + string(filepath.Separator) + raw
	}
	abs = filepath.Clean(raw)
	paths = []string{abs}
	for _, p := range []string{raw, abs} {
		if real, err := realPath(p); err == nil && !slices.Contains(paths, real) {
			paths = append(paths, real)
		}
	}
	return abs, paths
}

// opened is the file the tool opens.
func (f *fileDecision) opened() string { return f.paths[len(f.paths)-1] }

// matchRules lets the rules of the access's kind that hold one of the
// file's names decide it: the first that matches, then any stricter one.
func (f *fileDecision) matchRules(all []rules.FileRule, kind, cwd string) {
	for _, r := range all {
		if !fileKindRules(r.Kind, kind) || !fileRuleMatches(r, cwd, f.paths...) {
			continue
		}
		if !f.matched || r.Decision > f.d {
			f.d = r.Decision
			f.part.Rule, f.part.Source, f.part.Reason = r.Text, r.Source, r.Failure
		}
		f.matched = true
	}
}

// matchLinkedRead lets a stricter Read rule decide a read of a file with
// another name (a hard link) that the rule holds, found by identity.
func (f *fileDecision) matchLinkedRead(all []rules.FileRule, cwd string) {
	n := linkCount(f.opened())
	if n <= 1 {
		return
	}
	for _, r := range all {
		if r.Kind != rules.FileRead || r.Decision <= f.d {
			continue
		}
		pat, ok := filePattern(r, cwd)
		if !ok || pat == "" || !(&linkIDs{pats: []string{pat}}).holds(f.opened()) {
			continue
		}
		f.d, f.matched = r.Decision, true
		f.part.Rule, f.part.Source = r.Text, r.Source
		f.part.Reason = fmt.Sprintf("%s has %d names (hard links), and the rule holds another of them", f.abs, n)
	}
}

// askProtectedChange asks a change that no rule asks or denies to a file
// that loads code, or that the rules in force were read from.
func (t *Toolset) askProtectedChange(f *fileDecision) {
	if f.d >= rules.Ask {
		return
	}
	for _, p := range f.paths {
		why := protectedFile(p)
		if why == "" && t.ruleSourceFile(p) {
			why = "the rules in force were read from it"
		}
		if why != "" {
			f.ask(fmt.Sprintf("a change to %s is asked whatever the rules say: %s", p, why))
			return
		}
	}
}

// holdLinkedChange holds a change that no rule denies to a file with
// more than one name, whose other names no path-keyed check sees: one
// may be .git/config, a file a rule covers, or a file outside --root.
// Under --root it returns the refusal of the call (path is the name
// the call gave); elsewhere the change is asked.
func (t *Toolset) holdLinkedChange(f *fileDecision, path string) *Result[tool.FileChangeDetails] {
	if f.d >= rules.Deny {
		return nil
	}
	n := linkCount(f.opened())
	if n <= 1 {
		return nil
	}
	if t.fileTools != nil && t.fileTools.root != nil {
		return &Result[tool.FileChangeDetails]{IsError: true, Text: hardLinkUnderRoot(path, n)}
	}
	if f.d < rules.Ask {
		f.ask(fmt.Sprintf("%s has %d names (hard links), whose other names spillway does not know: one may be a protected file or a file a rule covers, so a change is asked whatever the rules say", f.abs, n))
	}
	return nil
}

// ask makes the access asked for reason, whichever rule decided it.
func (f *fileDecision) ask(reason string) {
	f.d = rules.Ask
	f.part.Rule, f.part.Source, f.part.Reason = "", "", reason
}

// fileVerbs are what a refusal says of a call of toolName: nothing was
// done, as another way to verb it.
func fileVerbs(toolName string) (done, verb string) {
	if toolName == "read" {
		return "read", "read"
	}
	return "changed", "change"
}

// fileRulesDenied is the refusal of a call a file rule denies: each
// denied file, and the rule or the reason that denies it.
func fileRulesDenied(toolName string, parts []RulePart) *Result[tool.FileChangeDetails] {
	done, verb := fileVerbs(toolName)
	var b strings.Builder
	b.WriteString("[denied by the file rules: nothing was " + done + "]")
	for _, p := range parts {
		switch {
		case p.Decision != "deny":
		case p.Rule != "":
			fmt.Fprintf(&b, "\n%s: denied by %s (%s)", p.Command, quoted(p.Rule), p.Source)
		default:
			fmt.Fprintf(&b, "\n%s: denied: %s", p.Command, p.Reason)
		}
	}
	b.WriteString("\nAsk the user instead of trying another way to " + verb + " it.")
	return &Result[tool.FileChangeDetails]{Text: b.String(), IsError: true}
}

// askFileAccess asks the person about the files of a call that need
// approval: nil when the call may go on, else the refusal.
func (t *Toolset) askFileAccess(ctx context.Context, toolName string, ask []RulePart) *Result[tool.FileChangeDetails] {
	a := t.askerFor(ctx)
	if a == nil {
		return &Result[tool.FileChangeDetails]{Text: cannotAskText(ask, "no one can be asked (the library was given no Asker)"), IsError: true}
	}
	answer, err := a(ctx, toolName+" "+strings.Join(partCommands(ask), " "), t.cwd, ask)
	var notice askNotice
	if errors.As(err, &notice) {
		return &Result[tool.FileChangeDetails]{Text: notice.Notice(), IsError: true}
	}
	if err != nil {
		return &Result[tool.FileChangeDetails]{Text: cannotAskText(ask, err.Error()), IsError: true}
	}
	switch answer {
	case trustProject:
		// The project's own allow entries are in force from now on;
		// this call was decided before them.
		return &Result[tool.FileChangeDetails]{Text: "[the project's rules were trusted: nothing was changed yet; call again]", IsError: true}
	case allowOnce:
		return nil
	case allowSession:
		for _, p := range ask {
			t.approved.add(p.Command)
		}
		return nil
	}
	done, verb := fileVerbs(toolName)
	return &Result[tool.FileChangeDetails]{Text: fmt.Sprintf("[the user denied the %s: nothing was %s]\nThe file%s that needed approval: %s.", verb, done, plural(len(ask)), partList(ask)), IsError: true}
}

// decideDelete decides a file tool's delete of abs as the command rules
// decide rm of it, so that deny rm *, ask rm * and a default of ask with
// no rule allowing rm hold a file tool's delete as they hold bash's rm.
// A delete of a file the session has not read is not refused for that
// alone: rm would delete it, and the change's journal keeps its content
// for undo. No command rules in force: no parts.
func (t *Toolset) decideDelete(abs string) []RulePart {
	rs := t.rulesNow()
	if rs == nil {
		return nil
	}
	v := rs.set.CheckIn(quoteArgv([]string{"rm", abs}), rules.Context{Dir: t.cwd, PATH: os.Getenv("PATH"), Writable: t.writableDir()})
	parts := rulesDetails(v).Parts
	for i, p := range parts {
		if p.Decision == "ask" && t.approved.has(p.Command) {
			parts[i].Decision, parts[i].ApprovedForSession = "allow", true
		}
	}
	return parts
}

// fileKindRules reports whether rule kind k decides an access of kind
// access: an Edit rule every change, a Write rule the whole-file writes,
// a Read rule the reads.
func fileKindRules(k rules.FileKind, access string) bool {
	return k == rules.FileEdit && access != "Read" ||
		k == rules.FileWrite && access == "Write" ||
		k == rules.FileRead && access == "Read"
}

// suspendedFileRule is the first suspended allow entry that would have
// allowed an access of kind to one of paths, or nil.
func (t *Toolset) suspendedFileRule(kind string, paths []string) *rules.FileRule {
	if t.rulesNow() == nil {
		return nil
	}
	for i := range t.rulesNow().suspendedFiles {
		r := &t.rulesNow().suspendedFiles[i]
		if fileKindRules(r.Kind, kind) && fileRuleMatches(*r, t.cwd, paths...) {
			return r
		}
	}
	return nil
}

func partCommands(ps []RulePart) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Command
	}
	return out
}

// hardLinkUnderRoot refuses, under --root, a change to a file with more
// than one name: the change would be written in place, so that every
// name sees it, and another name may be outside the root (pnpm and uv
// install packages as hard links to their stores). Finding the other
// names would take a walk of every file system the file's device is
// mounted on, and would be stale at once; the refusal says how to change
// this name alone.
func hardLinkUnderRoot(path string, n uint64) string {
	q := shQuote(path)
	return fmt.Sprintf("[nothing was changed] %s has %d names (hard links): a change to it is written in place, so that all its names see it, and under --root the file tools do not change such a file, since another of its names may be outside the root "+
		"(a package manager's store: pnpm and uv install files as hard links to theirs), where the change would land too. "+
		"To change this name alone, first make it a copy of its own (cp -p %s %s.copy && mv %s.copy %s), then change it; to change every name, ask the user to.", path, n, q, q, q, q)
}

// shQuote quotes s for a POSIX shell when it needs it.
func shQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./+=:,@") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// ruleSourceFile reports whether path is a file the command rules in
// force were written in: spillway's config, which --config or
// SPILLWAY_CONFIG may put anywhere and under any name, is the person's
// own, and a change to it would loosen every later session's rules.
func (t *Toolset) ruleSourceFile(path string) bool {
	for _, list := range t.policy.Rules.Sources {
		for _, src := range list {
			if i := strings.LastIndexByte(src, ':'); i > 0 {
				src = src[:i]
			}
			if abs, err := filepath.Abs(src); err == nil {
				src = abs
			}
			if filepath.Clean(src) == path {
				return true
			}
			if real, err := realPath(src); err == nil && real == path {
				return true
			}
		}
	}
	return false
}
