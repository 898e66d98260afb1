package rules

import (
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"go.starlark.net/resolve"
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// Codex's rules files are Starlark programs: a file may build its
// patterns with variables, loops and functions before it calls
// prefix_rule, so they are run by an interpreter, never matched as text.
// The builtins and their checks follow Codex's own (codex-rs/execpolicy):
// prefix_rule(pattern, decision="allow", match=[], not_match=[],
// justification=None), host_executable(name, paths) and
// network_rule(host, protocol, decision, justification=None), the last
// checked and then set aside, since it decides network requests and not
// commands.

// codexSteps bounds the work of one rules file. Like Codex's dialect, a
// file has no while loop and no recursion, but nested loops over long
// ranges could still hold the start for minutes.
const codexSteps = 10_000_000

var codexFileOptions = &syntax.FileOptions{
	Set:             true,
	TopLevelControl: true,
	GlobalReassign:  true,
}

// codexLoader runs Codex rules files in order. Like Codex, it keeps the
// host executables of every file read so far: an example of a later file
// resolves /usr/bin/git through an earlier file's host_executable("git").
type codexLoader struct {
	home  string
	rules []Rule
	// hostPaths lists, by program name, the absolute paths a
	// host_executable call allows for it.
	hostPaths map[string][]string
	// pending are the examples of the file being read, checked once it
	// has run, when every host_executable of it is known.
	pending []codexExamples
}

// codexExamples are one prefix_rule call's match and not_match examples.
type codexExamples struct {
	rule     Rule
	line     int
	match    [][]string
	notMatch [][]string
}

// run runs one rules file and returns its rules. A file that does not
// run, or whose examples do not hold, is an error, a *FileError naming
// it, and leaves nothing of it behind: neither its rules nor its host
// executables.
func (l *codexLoader) run(file string, src []byte) ([]Rule, error) {
	n := len(l.rules)
	hosts := maps.Clone(l.hostPaths)
	if err := l.parse(file, src); err != nil {
		l.rules, l.hostPaths = l.rules[:n], hosts
		return nil, err
	}
	return slices.Clone(l.rules[n:]), nil
}

// ParseCodex runs one Codex rules file; name is how rules and errors
// refer to it.
func ParseCodex(name string, src []byte) ([]Rule, error) {
	l := &codexLoader{hostPaths: map[string][]string{}}
	if err := l.parse(name, src); err != nil {
		return nil, err
	}
	return l.rules, nil
}

func (l *codexLoader) parse(file string, src []byte) error {
	shown := displayPath(file, l.home)
	thread := &starlark.Thread{Name: shown}
	thread.SetMaxExecutionSteps(codexSteps)
	l.pending = l.pending[:0]
	predeclared := starlark.StringDict{
		"prefix_rule":     starlark.NewBuiltin("prefix_rule", l.prefixRule(shown)),
		"host_executable": starlark.NewBuiltin("host_executable", l.hostExecutable),
		"network_rule":    starlark.NewBuiltin("network_rule", networkRule),
	}
	if _, err := starlark.ExecFileOptions(codexFileOptions, thread, file, src, predeclared); err != nil {
		return starlarkError(shown, err)
	}
	for _, p := range l.pending {
		if err := l.checkExamples(p); err != nil {
			return &FileError{File: shown, Line: p.line, Msg: err.Error()}
		}
	}
	return nil
}

// starlarkError names the file, line and column of a Starlark error: a
// syntax error, a name that is not defined, or a failure as the file ran
// (where the innermost frame of the file is the line to fix).
func starlarkError(file string, err error) error {
	var se syntax.Error
	if errors.As(err, &se) {
		return &FileError{File: file, Line: int(se.Pos.Line), Col: int(se.Pos.Col), Msg: se.Msg + dialectHint}
	}
	var rl resolve.ErrorList
	if errors.As(err, &rl) && len(rl) > 0 {
		return &FileError{File: file, Line: int(rl[0].Pos.Line), Col: int(rl[0].Pos.Col), Msg: rl[0].Msg}
	}
	var ee *starlark.EvalError
	if errors.As(err, &ee) {
		fe := &FileError{File: file, Msg: ee.Msg}
		for i := len(ee.CallStack) - 1; i >= 0; i-- {
			if pos := ee.CallStack[i].Pos; pos.Line > 0 {
				fe.Line, fe.Col = int(pos.Line), int(pos.Col)
				break
			}
		}
		return fe
	}
	return &FileError{File: file, Msg: err.Error()}
}

// dialectHint follows a syntax error: Codex runs its rules files with
// starlark-rust's extended dialect, which spillway's interpreter
// (go.starlark.net) does not read.
const dialectHint = " (spillway reads Starlark as go.starlark.net does: without the f-strings and type annotations Codex's own dialect allows; a file that uses them is an import failure until they are written out)"

type builtinFunc = func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error)

func (l *codexLoader) prefixRule(file string) builtinFunc {
	return func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var pattern *starlark.List
		var decision, justification starlark.Value = starlark.None, starlark.None
		var match, notMatch starlark.Value = starlark.None, starlark.None
		if err := starlark.UnpackArgs(b.Name(), args, kwargs,
			"pattern", &pattern, "decision?", &decision, "match?", &match,
			"not_match?", &notMatch, "justification?", &justification); err != nil {
			return nil, err
		}
		r := Rule{Decision: Allow}
		if decision != starlark.None {
			s, ok := starlark.AsString(decision)
			if !ok {
				return nil, fmt.Errorf("decision must be a string, not %s", decision.Type())
			}
			d, err := codexDecision(s)
			if err != nil {
				return nil, err
			}
			r.Decision = d
		}
		if justification != starlark.None {
			s, ok := starlark.AsString(justification)
			if !ok {
				return nil, fmt.Errorf("justification must be a string, not %s", justification.Type())
			}
			if strings.TrimSpace(s) == "" {
				return nil, errors.New("justification cannot be empty")
			}
			r.Justification = s
		}
		words, err := codexPattern(pattern)
		if err != nil {
			return nil, err
		}
		r.Pattern = Pattern{Words: words, Prefix: true}
		ex := codexExamples{}
		if ex.match, err = codexExampleList("match", match); err != nil {
			return nil, err
		}
		if ex.notMatch, err = codexExampleList("not_match", notMatch); err != nil {
			return nil, err
		}
		line := int(thread.CallFrame(1).Pos.Line)
		r.Source = file + ":" + strconv.Itoa(line)
		r.Text = codexText(r)
		ex.rule, ex.line = r, line
		l.rules = append(l.rules, r)
		l.pending = append(l.pending, ex)
		return starlark.None, nil
	}
}

// codexDecision maps Codex's decisions to ours: prompt asks, forbidden
// denies.
func codexDecision(s string) (Decision, error) {
	switch s {
	case "allow":
		return Allow, nil
	case "prompt":
		return Ask, nil
	case "forbidden":
		return Deny, nil
	}
	return 0, fmt.Errorf("invalid decision %q: want allow, prompt or forbidden", s)
}

// codexPattern reads a pattern: a non-empty list whose elements are a
// word or a non-empty list of alternative words.
func codexPattern(pattern *starlark.List) ([][]string, error) {
	if pattern.Len() == 0 {
		return nil, errors.New("invalid pattern: pattern cannot be empty")
	}
	words := make([][]string, 0, pattern.Len())
	for i := range pattern.Len() {
		v := pattern.Index(i)
		if s, ok := starlark.AsString(v); ok {
			words = append(words, []string{s})
			continue
		}
		alts, ok := v.(*starlark.List)
		if !ok {
			return nil, fmt.Errorf("invalid pattern: element %d must be a string or a list of strings, not %s", i+1, v.Type())
		}
		if alts.Len() == 0 {
			return nil, fmt.Errorf("invalid pattern: the alternatives of element %d cannot be empty", i+1)
		}
		var list []string
		for j := range alts.Len() {
			s, ok := starlark.AsString(alts.Index(j))
			if !ok {
				return nil, fmt.Errorf("invalid pattern: an alternative of element %d must be a string, not %s", i+1, alts.Index(j).Type())
			}
			list = append(list, s)
		}
		words = append(words, list)
	}
	return words, nil
}

// codexExampleList reads match or not_match: a list of examples, each a
// string split as a shell would (shlex) or a list of words.
func codexExampleList(name string, v starlark.Value) ([][]string, error) {
	if v == starlark.None {
		return nil, nil
	}
	list, ok := v.(*starlark.List)
	if !ok {
		return nil, fmt.Errorf("%s must be a list, not %s", name, v.Type())
	}
	var out [][]string
	for i := range list.Len() {
		e := list.Index(i)
		var words []string
		if s, ok := starlark.AsString(e); ok {
			var err error
			if words, err = shlexSplit(s); err != nil {
				return nil, fmt.Errorf("invalid example %q in %s: %v", s, name, err)
			}
			if len(words) == 0 {
				return nil, fmt.Errorf("invalid example in %s: an example cannot be an empty string", name)
			}
		} else if l, ok := e.(*starlark.List); ok {
			for j := range l.Len() {
				s, ok := starlark.AsString(l.Index(j))
				if !ok {
					return nil, fmt.Errorf("invalid example in %s: the words of an example must be strings, not %s", name, l.Index(j).Type())
				}
				words = append(words, s)
			}
			if len(words) == 0 {
				return nil, fmt.Errorf("invalid example in %s: an example cannot be an empty list", name)
			}
		} else {
			return nil, fmt.Errorf("invalid example in %s: an example must be a string or a list of strings, not %s", name, e.Type())
		}
		out = append(out, words)
	}
	return out, nil
}

// checkExamples holds a rule to its examples as Codex does: every match
// example must be matched by the rule and no not_match example may be.
func (l *codexLoader) checkExamples(ex codexExamples) error {
	for _, words := range ex.notMatch {
		if l.exampleMatches(ex.rule.Pattern, words) {
			return fmt.Errorf("the not_match example %q matches %s", shlexJoin(words), ex.rule.Text)
		}
	}
	var missed []string
	for _, words := range ex.match {
		if !l.exampleMatches(ex.rule.Pattern, words) {
			missed = append(missed, strconv.Quote(shlexJoin(words)))
		}
	}
	if len(missed) > 0 {
		return fmt.Errorf("the match example %s does not match %s", strings.Join(missed, ", "), ex.rule.Text)
	}
	return nil
}

// exampleMatches is Codex's own match of an example: the pattern's words
// are a prefix of the example's, compared as they are written; a program
// named by an absolute path matches by its base name unless
// host_executable lists the paths that name may have and this is not one.
func (l *codexLoader) exampleMatches(p Pattern, words []string) bool {
	if len(words) < len(p.Words) {
		return false
	}
	if !slices.Contains(p.Words[0], words[0]) {
		prog := words[0]
		if !filepath.IsAbs(prog) || !slices.Contains(p.Words[0], filepath.Base(prog)) {
			return false
		}
		if paths, ok := l.hostPaths[filepath.Base(prog)]; ok && !slices.Contains(paths, filepath.Clean(prog)) {
			return false
		}
	}
	for i := 1; i < len(p.Words); i++ {
		if !slices.Contains(p.Words[i], words[i]) {
			return false
		}
	}
	return true
}

func (l *codexLoader) hostExecutable(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var name string
	var paths *starlark.List
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "name", &name, "paths", &paths); err != nil {
		return nil, err
	}
	if name == "" {
		return nil, errors.New("host_executable name cannot be empty")
	}
	if strings.ContainsRune(name, '/') || name == "." || name == ".." {
		return nil, fmt.Errorf("host_executable name must be a bare executable name, not %q", name)
	}
	var list []string
	for i := range paths.Len() {
		raw, ok := starlark.AsString(paths.Index(i))
		if !ok {
			return nil, fmt.Errorf("host_executable paths must be strings, not %s", paths.Index(i).Type())
		}
		p := raw
		if rest, ok := strings.CutPrefix(raw, "~/"); ok && l.home != "" {
			p = filepath.Join(l.home, rest)
		}
		if !filepath.IsAbs(p) {
			return nil, fmt.Errorf("host_executable paths must be absolute or start with ~/, not %q", raw)
		}
		p = filepath.Clean(p)
		if filepath.Base(p) != name {
			return nil, fmt.Errorf("host_executable path %q must have the base name %q", raw, name)
		}
		if !slices.Contains(list, p) {
			list = append(list, p)
		}
	}
	l.hostPaths[name] = list
	return starlark.None, nil
}

// networkRule checks a network_rule call as Codex does and keeps
// nothing of it.
func networkRule(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var host, protocol, decision string
	var justification starlark.Value = starlark.None
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "host", &host, "protocol", &protocol, "decision", &decision, "justification?", &justification); err != nil {
		return nil, err
	}
	switch protocol {
	case "http", "https", "https_connect", "http-connect", "socks5_tcp", "socks5_udp":
	default:
		return nil, fmt.Errorf("network_rule protocol must be one of http, https, socks5_tcp, socks5_udp, not %q", protocol)
	}
	if decision != "deny" {
		if _, err := codexDecision(decision); err != nil {
			return nil, err
		}
	}
	if strings.TrimSpace(host) == "" {
		return nil, errors.New("network_rule host cannot be empty")
	}
	if strings.Contains(host, "*") {
		return nil, fmt.Errorf("network_rule host %q: wildcards are not allowed", host)
	}
	return starlark.None, nil
}

// codexText writes a rule as a prefix_rule call, the way a person would
// find it in the file.
func codexText(r Rule) string {
	var b strings.Builder
	b.WriteString("prefix_rule(pattern=[")
	for i, alts := range r.Pattern.Words {
		if i > 0 {
			b.WriteString(", ")
		}
		if len(alts) == 1 {
			b.WriteString(strconv.Quote(alts[0]))
			continue
		}
		b.WriteByte('[')
		for j, a := range alts {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString(strconv.Quote(a))
		}
		b.WriteByte(']')
	}
	b.WriteString("]")
	if r.Decision != Allow {
		fmt.Fprintf(&b, ", decision=%q", codexWord(r.Decision))
	}
	b.WriteString(")")
	return b.String()
}

// codexWord is Codex's word for a decision.
func codexWord(d Decision) string {
	switch d {
	case Ask:
		return "prompt"
	case Deny:
		return "forbidden"
	}
	return "allow"
}
