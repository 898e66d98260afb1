package rules

import (
	"fmt"
	"maps"
	"math/bits"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// DefaultMaxDepth bounds how many levels of shell code held in strings
// (bash -c '…', eval '…', a here-document fed to sh) are read when the
// Set does not say. Code nested deeper is ask: each level needs another
// round of quoting, so real commands stay far below it.
const DefaultMaxDepth = 4

func (s *Set) maxDepth() int {
	if s.MaxDepth > 0 {
		return s.MaxDepth
	}
	return DefaultMaxDepth
}

// Check decides command: it is parsed as bash, every simple command in
// it is decided on its own, and the whole gets the strictest decision of
// its parts. Only constructs the checker models completely (known.go,
// docs/rules.md) can be allowed; an input with no command at all is
// ask, never allow. Input that does not parse is ask. Check never runs
// anything; it decides in the process's own directory and PATH
// (CheckIn takes another).
func (s *Set) Check(command string) Verdict {
	// Input past a limit is never parsed: the parser's recursion could
	// end the process. It is denied, naming the limit, never ask: no
	// person can review it.
	if err := Limit(command); err != nil {
		return Verdict{Decision: Deny, parts: []part{{command: clip(command), reason: err.Error(), decision: Deny}}}
	}
	// A function or alias defined anywhere in the input makes a call of
	// its name ask, before the definition too: such an input is read
	// whole before any part is decided. So is a short one: its tree is
	// small, and reading statement by statement costs the iterator's
	// allocations.
	return s.exact(command, s.checkIn(command, len(command) < streamMin || mayDefine(command), nil))
}

// streamMin is the length from which an input is decided statement by
// statement as it is read.
const streamMin = 4 << 10

// check decides command reading it whole first, or each top-level
// statement as soon as it is read; the parts are the same when the
// input defines no function or alias.
func (s *Set) check(command string, whole bool) Verdict { return s.checkIn(command, whole, nil) }

// checkIn is check in the context env; nil is the process's own, found
// when first needed.
func (s *Set) checkIn(command string, whole bool, env *Context) Verdict {
	set := s
	if set == nil {
		set = &Set{}
	}
	p := parsers.Get().(*syntax.Parser)
	defer parsers.Put(p)
	c := &checker{set: set, maxDepth: set.maxDepth(), parser: p, env: env, ownEnv: env == nil}
	defer func() {
		if c.inner != nil {
			parsers.Put(c.inner)
		}
	}()
	c.text.min = min(max(len(command), 64), 64<<10)
	c.keys = make([]byte, len(set.Rules))
	for i := range set.Rules {
		c.keys[i] = set.Rules[i].Pattern.programKey(set.Rules[i].Decision)
	}
	if len(command) >= streamMin {
		c.indexLetters()
	}
	// The parts are gathered in a buffer kept between checks and made
	// into the verdict's at their count: a slice grown to fit allocates
	// about twice what it ends up holding.
	buf := partBufs.Get().(*[]part)
	c.parts = (*buf)[:0]
	if env != nil {
		c.callInputs()
	}
	if whole {
		c.code(command, ctx{}, "")
	} else {
		c.stream(command)
	}
	if len(c.parts) == 0 {
		// No parts never means allow: an input that holds no command is
		// not something the checker has read as fully known.
		c.ask(clip(command), "the input holds no command the rules can decide")
	}
	// The decision is the strictest of the parts that are left: parts
	// are dropped when the input turns out not to parse.
	v := Verdict{Decision: Allow, parts: make([]part, len(c.parts))}
	copy(v.parts, c.parts)
	for _, p := range v.parts {
		v.Decision = max(v.Decision, p.decision)
	}
	// The buffer is cleared so that it holds on to no part's text.
	clear(c.parts)
	*buf = c.parts[:0]
	partBufs.Put(buf)
	return v
}

var partBufs = sync.Pool{New: func() any { return new([]part) }}

// carrierReason is the reason of a program that runs code read in
// turn (bash -c '…') when no rule names it.
var carrierReason = [...]string{
	Allow: "it runs the code decided in the parts that follow",
	Ask:   "no rule matches this program, which runs the code decided in the parts that follow: the default is ask",
	Deny:  "no rule matches this program, which runs the code decided in the parts that follow: the default is deny",
}

var defaultReason = [...]string{
	Allow: "no rule matches: the default is allow",
	Ask:   "no rule matches: the default is ask",
	Deny:  "no rule matches: the default is deny",
}

// parsers keeps bash parsers between checks: a parser's buffers are
// most of what deciding a short command allocates.
var parsers = sync.Pool{New: func() any { return syntax.NewParser(syntax.Variant(syntax.LangBash)) }}

type checker struct {
	set *Set
	// parser reads the input; inner reads the code held in its strings
	// (bash -c '…', eval), while parser may still be reading the input.
	// inner is reused from one nested code to the next: a File it
	// returned stays valid after the next Parse.
	parser   *syntax.Parser
	inner    *syntax.Parser
	maxDepth int
	parts    []part
	// defined holds the names of functions and aliases defined anywhere
	// in the input: a call of such a name runs its body, not a program.
	// It is made when the first is found.
	defined map[string]bool
	// stdinExec: an exec redirected the shell's own stdin, so every
	// later command reads from it.
	stdinExec bool
	// slab holds the words of the simple commands being decided.
	slab []word
	// visitor is visit, for syntax.Walk; walkCx the context of the walk
	// under way.
	visitor func(syntax.Node) bool
	walkCx  ctx
	// text holds the parts' commands as they are shown.
	text textArena
	// keys are the rules' programKeys.
	keys []byte
	// letterRules holds, for each program key a to z, the rules that
	// may name such a program as a bit set by index; nil for a short
	// input, or when there are more than 64 rules.
	letterRules *[26]uint64
	// reader feeds inner, and parser when the input is read whole.
	reader strings.Reader
	// ints holds the variables known to hold an integer at the point
	// being decided (see known.go); nil when there are none.
	ints map[string]bool
	// denied are the word sequences deny rules name, made when first
	// needed.
	denied [][]string
	// env is where the command runs; ownEnv: it is the process's own,
	// made when first needed.
	env    *Context
	ownEnv bool
	// dirs are env's PATH directories; aliases git's aliases in env's
	// directory, once read.
	dirs    []string
	relPATH bool
	aliases map[string]string
	// pathTab is what PATH lookup finds in dirs, once they are known
	// unchanged; writable the PATH directories the session can write,
	// as found.
	pathTab  *pathTable
	writable map[string]bool
	// cdSeen: a cd, pushd or popd came before, so the working directory
	// of what follows is not env's.
	cdSeen bool
	// gitDirs: the directories the cds seen so far may have left the
	// command in, the starting one first (nil: no cd); cdUnknown: a cd
	// went where only running it tells.
	gitDirs   []string
	cdUnknown bool
	// gitRepoRisks are gitRepoRisk's answers by directory within this
	// check: a long command runs git many times from a few directories,
	// and each walk reads the files of every directory up to /.
	gitRepoRisks map[string]string
	// gitLayoutWritten: an earlier part writes a file named as one of a
	// repository's (HEAD, config, commondir, .git).
	gitLayoutWritten bool
	gitCandidates    map[string]gitCandidate
	// loopStart: the C-style loop being read assigns nothing but
	// arithmetic in its body, so what its start assigns is known in it.
	loopStart bool
}

// ctx is what a command inherits from where it stands in the input.
type ctx struct {
	depth int
	src   string
	// stdinOther: the command's stdin is a pipe, a file or a process
	// substitution, not the caller's stdin.
	stdinOther bool
	// nested: the command stands inside a compound command, a list, a
	// pipeline or a substitution, so it may not run, or may run after
	// what follows it, or in a subshell.
	nested bool
}

// A part is a decided part as the checker keeps it, until a verdict's
// Parts makes it the tool.RulePart a result shows: the rule that decided
// it by pointer and the decision as a number. A long input has thousands
// of parts, gathered while the parser makes garbage and the collector
// runs; kept this way a part is half the size of a tool.RulePart with
// half its pointers, and the RulePart values are built once, when the
// details are made, not while the input is decided.
type part struct {
	command, reason string
	rule            *Rule
	decision        Decision
	interactive     bool
	// carrier: the part is a program that runs code decided in parts
	// of its own (bash -c '…'), not code typed into it.
	carrier bool
}

// add adds the part command, decided d by rule (nil: by no rule) for
// reason.
func (c *checker) add(command string, d Decision, rule *Rule, reason string, interactive bool) {
	c.parts = append(c.parts, part{command: command, reason: reason, rule: rule, decision: d, interactive: interactive})
}

// ask adds the part command, which is ask for reason whatever the rules.
func (c *checker) ask(command, reason string) { c.add(command, Ask, nil, reason, false) }

// code parses src as bash and decides each of its parts.
func (c *checker) code(src string, cx ctx, via string) {
	if cx.depth > c.maxDepth {
		c.ask(clip(src),
			fmt.Sprintf("shell code nested more than %d levels deep (%s) is not read", c.maxDepth, via))
		return
	}
	p := c.parser
	if cx.depth > 0 {
		if c.inner == nil {
			c.inner = parsers.Get().(*syntax.Parser)
		}
		p = c.inner
	}
	// A Parse reads all of its input before it returns.
	c.reader.Reset(src)
	f, err := p.Parse(&c.reader, "")
	if err != nil {
		c.unparsable(src, via, err)
		return
	}
	c.collectDefined(f, src)
	cx.src = src
	c.stmts(f.Stmts, cx)
}

func (c *checker) unparsable(src, via string, err error) {
	what := "the input"
	if via != "" {
		what = "the code given to " + via
	}
	c.ask(clip(src), fmt.Sprintf("%s does not parse as bash: %v", what, err))
}

// stream decides the input as code does, but each top-level statement
// as soon as the parser has read all of it, so that the tree of the
// statements decided is garbage while the rest is read: a whole tree
// kept live is most of what the collector marks on a large input. The
// parts are the same as code's; an input with no definition of a
// function or alias is all it is used for, since a definition counts
// for the calls before it.
func (c *checker) stream(src string) {
	cx := ctx{src: src}
	var perr error
	// pending are statements read but not yet decided. The input has
	// a reader of its own: inner reads from c.reader meanwhile.
	var pending []*syntax.Stmt
	for s, err := range c.parser.StmtsSeq(strings.NewReader(src)) {
		// The iterator yields an error once more after its last
		// statement: the loop runs to its end rather than break.
		if err != nil || perr != nil {
			if perr == nil {
				perr = err
			}
			continue
		}
		// A here-document's body is read at the first newline after its
		// operator, so a statement is complete when a statement ended
		// by a newline follows it. One ended by ; or & may be followed
		// on its line by more whose bodies are read later; the last
		// waits for the end of the input.
		if n := len(pending); n > 0 && !pending[n-1].Semicolon.IsValid() {
			pending = c.decidePending(pending, cx)
		}
		pending = append(pending, s)
	}
	if perr != nil {
		// Input that does not parse is one part, whatever its first
		// statements were: they are dropped.
		clear(c.parts)
		c.parts = c.parts[:0]
		c.unparsable(src, "", perr)
		return
	}
	c.decidePending(pending, cx)
}

// decidePending decides the statements of pending and returns it
// emptied, holding on to none of their trees.
func (c *checker) decidePending(pending []*syntax.Stmt, cx ctx) []*syntax.Stmt {
	for _, s := range pending {
		c.stmt(s, cx)
	}
	clear(pending)
	return pending[:0]
}

// clip shortens text shown in a part.
func clip(s string) string {
	const max = 200
	if len(s) > max {
		return s[:max] + "…"
	}
	return s
}

// mayDefine reports whether src may hold a function definition or an
// alias: "name()", "function" or "alias". Most inputs hold none, and
// this spares them a walk of the whole tree.
func mayDefine(src string) bool {
	if strings.Contains(src, "alias") || strings.Contains(src, "function") {
		return true
	}
	for i := strings.IndexByte(src, '('); i >= 0; {
		j := i + 1
		for j < len(src) && (src[j] == ' ' || src[j] == '\t') {
			j++
		}
		if j < len(src) && src[j] == ')' {
			return true
		}
		k := strings.IndexByte(src[j:], '(')
		if k < 0 {
			break
		}
		i = j + k
	}
	return false
}

func (c *checker) collectDefined(f *syntax.File, src string) {
	if !mayDefine(src) {
		return
	}
	if c.defined == nil {
		c.defined = map[string]bool{}
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.FuncDecl:
			if n.Name != nil {
				c.defined[n.Name.Value] = true
			}
			for _, l := range n.Names {
				c.defined[l.Value] = true
			}
		case *syntax.CallExpr:
			if len(n.Args) > 1 && n.Args[0].Lit() == "alias" {
				for _, a := range n.Args[1:] {
					if onlyLiteralParts(a) {
						name, _, _ := strings.Cut(literalText(a), "=")
						c.defined[name] = true
					}
				}
			}
		}
		return true
	})
}

func (c *checker) stmts(list []*syntax.Stmt, cx ctx) {
	for _, st := range list {
		c.stmt(st, cx)
	}
}

func readsStdin(r *syntax.Redirect) bool {
	switch r.Op {
	case syntax.RdrIn, syntax.RdrInOut, syntax.DplIn, syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
		return r.N == nil || r.N.Value == "0"
	}
	return false
}

func (c *checker) stmt(st *syntax.Stmt, cx ctx) {
	var stdinR *syntax.Redirect
	for _, r := range st.Redirs {
		c.node(r.Word, cx)
		c.node(r.Hdoc, cx)
		if readsStdin(r) {
			stdinR = r
		}
		if reason := c.redirect(r, cx.src); reason != "" {
			c.ask(clip(sourceOf(st, cx.src)), reason)
		}
	}
	inner := cx
	if stdinR != nil {
		inner.stdinOther = true
		if call, ok := st.Cmd.(*syntax.CallExpr); ok && len(call.Args) == 1 && call.Args[0].Lit() == "exec" {
			c.stdinExec = true
		}
	}
	c.command(st.Cmd, inner, stdinR)
}

func (c *checker) command(cmd syntax.Command, cx ctx, stdinR *syntax.Redirect) {
	dom := dominates(cx)
	if _, ok := cmd.(*syntax.CallExpr); !ok {
		// What a compound command holds may not run, or not in this
		// shell, or not before what follows it; its own words (an
		// arithmetic command's) are as sure to run as it is.
		outer := cx
		cx.nested = true
		switch x := cmd.(type) {
		case *syntax.ArithmCmd, *syntax.LetClause, *syntax.TestClause, *syntax.DeclClause:
			cx = outer
		case *syntax.WhileClause, *syntax.ForClause:
			if len(c.ints) > 0 && loopAssigns(x) {
				clear(c.ints)
			}
		}
	}
	switch x := cmd.(type) {
	case nil:
	case *syntax.CallExpr:
		c.call(x, cx, stdinR)
	case *syntax.BinaryCmd:
		c.stmt(x.X, cx)
		y := cx
		if x.Op == syntax.Pipe || x.Op == syntax.PipeAll {
			y.stdinOther = true
		}
		c.stmt(x.Y, y)
	case *syntax.Subshell:
		c.stmts(x.Stmts, cx)
	case *syntax.Block:
		c.stmts(x.Stmts, cx)
	case *syntax.IfClause:
		for cl := x; cl != nil; cl = cl.Else {
			c.stmts(cl.Cond, cx)
			c.stmts(cl.Then, cx)
		}
	case *syntax.WhileClause:
		c.stmts(x.Cond, cx)
		c.stmts(x.Do, cx)
	case *syntax.ForClause:
		// A C-style loop's start, and a loop over integer literals,
		// give the loop's variable an integer for the body when nothing
		// in the loop assigns a variable otherwise; after a loop that
		// may not run, only what was known before it stays known.
		it, iter := x.Loop.(*syntax.WordIter)
		intIter := iter && intItems(it)
		special := !iter || intIter
		var saved map[string]bool
		clean := false
		if special {
			clean = !loopAssigns(x)
			if !dom {
				saved = maps.Clone(c.ints)
			}
		}
		c.loopStart = clean
		c.node(x.Loop, cx)
		c.loopStart = false
		if iter {
			c.forVar(x, it, cx, intIter && clean)
		}
		c.stmts(x.Do, cx)
		if special && !dom {
			maps.DeleteFunc(c.ints, func(k string, _ bool) bool { return !saved[k] })
		}
	case *syntax.CaseClause:
		c.node(x.Word, cx)
		for _, it := range x.Items {
			for _, p := range it.Patterns {
				c.node(p, cx)
			}
			c.stmts(it.Stmts, cx)
		}
	case *syntax.FuncDecl:
		c.stmt(x.Body, cx)
	case *syntax.ArithmCmd, *syntax.TestClause, *syntax.LetClause:
		before := len(c.parts)
		c.node(x, cx)
		defer c.noProgram(before, x, cx, "it evaluates arithmetic or a test of values known before it runs, and runs no program")
		flagged := false
		syntax.Walk(x, func(n syntax.Node) bool {
			if w, ok := n.(*syntax.Word); ok && !flagged && onlyLiteralParts(w) && codeInSubscript(literalText(w)) {
				flagged = true
				c.ask(clip(sourceOf(x, cx.src)),
					"a word holds an array subscript with command text, which bash runs when it evaluates the subscript")
			}
			return !flagged
		})
	case *syntax.DeclClause:
		c.decl(x, cx)
	case *syntax.TimeClause:
		if x.Stmt != nil {
			c.stmt(x.Stmt, cx)
		}
	case *syntax.CoprocClause:
		// A coprocess reads what the shell later writes to it. Its name
		// (COPROC when none is given) is assigned the file descriptors.
		name := "COPROC"
		if x.Name != nil && x.Stmt != nil && x.Stmt.Cmd == nil {
			// coproc cat <<< w: the parser reads cat as the name and
			// the rest as a statement of redirections alone, where bash
			// names a coprocess only before a compound command and runs
			// cat as the simple command.
			s := *x.Stmt
			s.Cmd = &syntax.CallExpr{Args: []*syntax.Word{x.Name}}
			x = &syntax.CoprocClause{Coproc: x.Coproc, Stmt: &s}
		}
		if x.Name != nil {
			name = x.Name.Lit()
		}
		if r := listedVar(name); r != "" {
			c.ask(clip(sourceOf(x, cx.src)), r)
		}
		y := cx
		y.stdinOther = true
		c.stmt(x.Stmt, y)
	default:
		c.ask(clip(sourceOf(cmd, cx.src)),
			fmt.Sprintf("a %T is a construct spillway does not read", cmd))
	}
}

// node decides the commands that substitutions inside n run.
func (c *checker) node(n syntax.Node, cx ctx) {
	if w, ok := n.(*syntax.Word); ok && (w == nil || plainWord(w.Parts)) {
		return
	}
	if n == nil {
		return
	}
	// One visitor serves every walk of the check: the context it
	// decides in is the checker's, kept around the walk, since a walk
	// decides statements that walk in turn.
	if c.visitor == nil {
		c.visitor = c.visit
	}
	outer := c.walkCx
	c.walkCx = cx
	syntax.Walk(n, c.visitor)
	c.walkCx = outer
}

func (c *checker) visit(m syntax.Node) bool {
	cx := c.walkCx
	switch m := m.(type) {
	case *syntax.CmdSubst:
		cx.nested = true
		c.stmts(m.Stmts, cx)
		return false
	case *syntax.ProcSubst:
		cx.nested = true
		y := cx
		if m.Op == syntax.CmdOut {
			y.stdinOther = true
		}
		c.stmts(m.Stmts, y)
		return false
	case *syntax.Lit, *syntax.Word, *syntax.SglQuoted, *syntax.DblQuoted:
		return true
	case *syntax.ArithmExp, *syntax.ArithmCmd, *syntax.LetClause, *syntax.CStyleLoop:
		if arithTerms(m) > maxArithTerms {
			c.ask(clip(sourceOf(m, cx.src)), fmt.Sprintf("an arithmetic expression of more than %d terms is not read", maxArithTerms))
			return false
		}
	}
	if r := c.knownNode(m, cx); r != "" {
		c.ask(clip(sourceOf(m, cx.src)), r)
	}
	return true
}

// codeInSubscript reports whether a literal holds an array subscript
// with command text: bash runs it when it evaluates the subscript
// (test -v, printf -v, read, unset, declare, arithmetic).
func codeInSubscript(s string) bool {
	i := strings.IndexByte(s, '[')
	return i >= 0 && (strings.Contains(s[i:], "$(") || strings.Contains(s[i:], "`"))
}

// assignRisk says why an assignment keeps a part from being allowed,
// or "" when it does not.
func assignRisk(name string, value string, valueKnown bool) string {
	if r := listedVar(name); r != "" {
		return r
	}
	if valueKnown && (strings.Contains(value, "$(") || strings.Contains(value, "`")) {
		return fmt.Sprintf("the value given to %s holds command text, which runs if the value is later expanded in arithmetic or a prompt", name)
	}
	return ""
}

func assignRiskOf(a *syntax.Assign) string {
	if a.Name == nil {
		return ""
	}
	if a.Value != nil && onlyLiteralParts(a.Value) {
		return assignRisk(a.Name.Value, literalText(a.Value), true)
	}
	if a.Array != nil {
		for _, e := range a.Array.Elems {
			if e.Value != nil && onlyLiteralParts(e.Value) {
				if r := assignRisk(a.Name.Value, literalText(e.Value), true); r != "" {
					return r
				}
			}
		}
	}
	return assignRisk(a.Name.Value, "", false)
}

func (c *checker) decl(x *syntax.DeclClause, cx ctx) {
	c.node(x, cx)
	st := &partState{cx: cx}
	variant := x.Variant.Value
	ws := []word{{Text: variant, Known: true, Base: variant, BaseKnown: true}}
	switch variant {
	case "readonly":
		st.hard = append(st.hard, "readonly keeps a variable from being assigned again, so a later assignment in this or a later command may leave a value spillway does not know")
	case "nameref":
		st.hard = append(st.hard, "a name reference makes a variable stand for another, so an assignment to it may assign any variable")
	}
	// printOnly: declare -p and -f/-F print and assign nothing.
	printOnly := false
	for _, a := range x.Args {
		ws = append(ws, word{Text: sourceOf(a, cx.src), Known: true})
		if a.Naked && a.Name == nil && a.Value != nil {
			if !onlyLiteralParts(a.Value) {
				if strings.HasPrefix(sourceOf(a.Value, cx.src), "-") || strings.HasPrefix(sourceOf(a.Value, cx.src), "+") {
					st.hard = append(st.hard, "an option of "+variant+" is known only when it runs")
					continue
				}
				st.hard = append(st.hard, "it declares a variable whose name is known only when it runs")
				continue
			}
			t := literalText(a.Value)
			if len(t) > 1 && (t[0] == '-' || t[0] == '+') {
				if r, p := declFlags(variant, t); r != "" {
					st.hard = append(st.hard, r)
				} else if p {
					printOnly = true
				}
				continue
			}
			name, val, ok := strings.Cut(t, "=")
			if ok {
				if r := assignRisk(name, val, true); r != "" {
					st.hard = append(st.hard, r)
				}
			}
			if r := c.subscriptText(name); r != "" {
				st.hard = append(st.hard, r)
			}
			if !printOnly {
				c.declared(st, name, ok && isIntLiteral(val), cx)
			}
			continue
		}
		if r := assignRiskOf(a); r != "" {
			st.hard = append(st.hard, r)
		}
		if a.Name != nil && !printOnly {
			integer := a.Value != nil && a.Index == nil && !a.Append && onlyLiteralParts(a.Value) && isIntLiteral(literalText(a.Value))
			c.declared(st, a.Name.Value, integer, cx)
		}
	}
	st.words = ws
	c.final(st, ws, nil)
}

// declared records a name a declaration gives: on either list it keeps
// the part from being allowed (declaring or exporting one without a
// value too: export PATH hands the value to every program).
func (c *checker) declared(st *partState, name string, integer bool, cx ctx) {
	if r := listedVar(name); r != "" {
		st.hard = append(st.hard, r)
	}
	c.intAssigned(name, integer, dominates(cx))
}

// declFlags is the reason a cluster of declare's options is not fully
// known, or ""; print says the options only print (-p, -f, -F).
func declFlags(variant, t string) (reason string, print bool) {
	for _, l := range t[1:] {
		switch l {
		case 'a', 'A', 'x', 'l', 'u', 'g', 'I':
		case 'p', 'F':
			print = true
		case 'f':
			if variant == "export" {
				return "export -f hands a function to every bash started later, as BASH_FUNC_ variables", false
			}
			print = true
		case 'n':
			if variant == "export" {
				continue // export -n takes the export away
			}
			return "-n makes a variable a name reference to another, so an assignment to it may assign any variable", false
		case 'i':
			return "-i makes every later assignment to the variable an arithmetic evaluation of its value", false
		case 'r':
			return "-r keeps a variable from being assigned again, so a later assignment may leave a value spillway does not know", false
		case 't':
			return "-t gives a function the DEBUG and RETURN traps", false
		default:
			return fmt.Sprintf("the option -%c of %s is not one spillway models", l, variant), false
		}
	}
	return "", print
}

// partState gathers what is known of one simple command while its
// wrappers are seen through.
type partState struct {
	cx     ctx
	stdinR *syntax.Redirect
	// words are the command as written, shown as the part's command;
	// they stay valid until the part is added.
	words []word
	// cands are decisions of rules that named an outer layer (a
	// wrapper): they can make the part stricter, never looser.
	cands []cand
	// hard are reasons the part may not be allow, whatever rule matches.
	hard []string
	// soft are reasons the part may not be allow unless a rule allows
	// its program explicitly (python3 -c … with allow "python3 *").
	soft        []string
	interactive bool
	// noProgram, when set, is why a builtin that runs no program and
	// whose effect is modelled is allowed when no rule names it.
	noProgram string
	// layerAllow is the allow rule that matched a privilege wrapper
	// around the command (allow sudo apt *).
	layerAllow *Rule
	// runsNothing: the wrapper runs none of its words (command -v).
	runsNothing bool
	// viaProgram: a wrapper seen through is a program of its own (env,
	// nice, timeout, xargs), not a builtin (command, builtin, exec).
	viaProgram bool
	// codeRead: the part is a program that runs code decided in parts
	// of its own (bash -c '…'): its words name no program to look for.
	codeRead bool
	// noPATH: a wrapper cleared the environment (env -i), PATH with it.
	noPATH bool
}

// builtinWrappers are the wrappers that are bash's builtins: they run
// no program of their own.
var builtinWrappers = map[string]bool{"command": true, "builtin": true, "exec": true}

// builtinCarriers are the carriers of code that are bash's builtins.
var builtinCarriers = map[string]bool{"eval": true, "trap": true}

type cand struct {
	d      Decision
	rule   *Rule
	reason string
}

// display writes ws as the part's command: words joined by spaces,
// each quoted where the shell would need it.
func (c *checker) display(ws []word) string {
	if len(ws) == 1 && ws[0].Known && plainText(ws[0].Text) {
		return ws[0].Text
	}
	n := 0
	for i := range ws {
		// A space and, if it is quoted, two quotes: a buffer that
		// grows copies what it holds.
		n += len(ws[i].Text) + 3
	}
	b := c.text.start(n)
	for i := range ws {
		w := &ws[i]
		if i > 0 {
			b.WriteByte(' ')
		}
		if w.Known && !plainText(w.Text) {
			writeQuoted(b, w.Text)
		} else {
			b.WriteString(w.Text)
		}
	}
	return clip(c.text.cut())
}

// writeQuoted writes s quoted as syntax.Quote quotes it for bash, or
// with %q when it cannot be. Printable ASCII with no single quote, the
// common case, is written without the string Quote would make: as it
// is, or in single quotes when it holds a character the shell reads or
// is a reserved word.
func writeQuoted(b *strings.Builder, s string) {
	simple := s != ""
	for i := 0; i < len(s) && simple; i++ {
		simple = s[i] >= ' ' && s[i] <= '~' && s[i] != '\''
	}
	if simple {
		if strings.ContainsAny(s, quoteChars) || syntax.IsKeyword(s) {
			b.WriteByte('\'')
			b.WriteString(s)
			b.WriteByte('\'')
		} else {
			b.WriteString(s)
		}
		return
	}
	q, err := syntax.Quote(s, syntax.LangBash)
	if err != nil {
		q = fmt.Sprintf("%q", s)
	}
	b.WriteString(q)
}

// quoteChars are the characters syntax.Quote quotes a string for.
const quoteChars = ";\"'()$|&><`" + " \t\r\n" + "\\#{~*?[="

// textArena keeps many short strings in few buffers. A strings.Builder
// never changes a byte it has written, so a string cut from it stays
// valid while it grows; a full one is left to the strings cut from it.
type textArena struct {
	b    strings.Builder
	from int
	min  int
}

// start returns the builder to write a string of about n bytes to.
func (a *textArena) start(n int) *strings.Builder {
	if a.b.Cap()-a.b.Len() < n {
		a.b = strings.Builder{}
		a.b.Grow(max(n, a.min))
	}
	a.from = a.b.Len()
	return &a.b
}

// cut returns what was written since start.
func (a *textArena) cut() string { return a.b.String()[a.from:] }

func (c *checker) call(x *syntax.CallExpr, cx ctx, stdinR *syntax.Redirect) {
	before := len(c.parts)
	for _, a := range x.Assigns {
		c.node(a, cx)
	}
	for _, w := range x.Args {
		c.node(w, cx)
	}
	st := &partState{cx: cx, stdinR: stdinR}
	for _, a := range x.Assigns {
		if r := assignRiskOf(a); r != "" {
			st.hard = append(st.hard, r)
		}
		if a.Name != nil {
			// A prefix to a command sets the variable for that command
			// alone, a statement of assignments for the shell.
			c.intAssigned(a.Name.Value, !a.Append && a.Index == nil && a.Array == nil && a.Value != nil && intValue(a.Value),
				len(x.Args) == 0 && dominates(cx))
		}
	}
	if len(x.Args) == 0 {
		if len(st.hard) > 0 {
			c.ask(clip(sourceOf(x, cx.src)), st.hard[0])
			return
		}
		c.noProgram(before, x, cx, "it assigns variables on neither list of docs/rules.md, and runs no program")
		return
	}
	// The words live in a slab shared by the whole check: a part's words
	// are done with when decide returns, and nested calls return first.
	// Each word is written once, where it stays.
	mark := len(c.slab)
	defer func() { c.slab = c.slab[:mark] }()
	for i, w := range x.Args {
		c.slab = append(c.slab, resolveWord(w, cx.src))
		if r := &c.slab[len(c.slab)-1]; i > 0 && r.Known && codeInSubscript(r.Text) {
			st.hard = append(st.hard, "an argument holds an array subscript with command text, which bash runs when it evaluates the subscript")
		}
	}
	ws := c.slab[mark:len(c.slab):len(c.slab)]
	st.words = ws
	c.decide(st, ws)
}

// indexLetters fills letterRules: most programs are named by a word
// starting with a letter, and each part of a long input then tries only
// the rules that may name it instead of testing every rule's key.
func (c *checker) indexLetters() {
	if len(c.keys) > 64 {
		return
	}
	c.letterRules = new([26]uint64)
	var any uint64
	for i, k := range c.keys {
		if k == 0 {
			any |= 1 << i
		}
	}
	for l := range c.letterRules {
		c.letterRules[l] = any
	}
	for i, k := range c.keys {
		if k >= 'a' && k <= 'z' {
			c.letterRules[k-'a'] |= 1 << i
		}
	}
}

// nextRule returns the index of the first rule from i on that may name
// a program of wordKey wk (mayName), or len(c.keys) when none does.
func (c *checker) nextRule(wk byte, i int) int {
	if c.letterRules != nil && wk >= 'a' && wk <= 'z' {
		m := c.letterRules[wk-'a'] &^ (1<<i - 1)
		if m == 0 {
			return len(c.keys)
		}
		return bits.TrailingZeros64(m)
	}
	for ; i < len(c.keys) && !mayName(c.keys[i], wk); i++ {
	}
	return i
}

// ruleCands records the deny and ask rules that match an outer layer.
func (c *checker) ruleCands(st *partState, ws []word) {
	wk := wordKey(ws)
	for i := c.nextRule(wk, 0); i < len(c.keys); i = c.nextRule(wk, i+1) {
		r := &c.set.Rules[i]
		if r.Decision == Allow {
			continue
		}
		switch r.Pattern.matchWords(ws, r.Decision) {
		case sureMatch:
			st.cands = append(st.cands, cand{d: r.Decision, rule: r})
		case maybeMatch:
			st.cands = append(st.cands, cand{d: Ask, rule: r, reason: maybeReason(r)})
		}
	}
}

// suspendedReason names the first suspended allow rule that surely
// matches words, and the default d that decided instead; "" when none
// does.
func (c *checker) suspendedReason(words []word, d Decision) string {
	for i := range c.set.Suspended {
		r := &c.set.Suspended[i]
		if r.Pattern.matchWords(words, Allow) == sureMatch {
			return r.Justification + " (no other rule matches: the default is " + d.String() + ")"
		}
	}
	return ""
}

func maybeReason(r *Rule) string {
	return fmt.Sprintf("it may match the %s rule %q: that depends on an expansion known only when it runs", r.Decision, r.Text)
}

func (c *checker) unknown(st *partState, reason string) {
	st.hard = append(st.hard, reason)
	c.emit(st, cand{d: Ask, reason: reason})
}

// emit adds the part with the strictest of best and the outer layers'
// rules, raised to ask by any hard reason.
func (c *checker) emit(st *partState, best cand) {
	for _, k := range st.cands {
		if k.d > best.d || k.d == best.d && best.rule == nil && k.rule != nil {
			best = k
		}
	}
	if best.d < Ask && len(st.hard) > 0 {
		best = cand{d: Ask, reason: st.hard[0]}
	}
	reason := best.reason
	if best.rule == nil && reason == "" {
		reason = defaultReason[best.d]
	}
	c.add(c.display(st.words), best.d, best.rule, reason, st.interactive)
	c.parts[len(c.parts)-1].carrier = st.codeRead
}

// carrier adds the part of a command that runs code decided elsewhere
// (bash -c '…', eval '…'). A carrier that is a program (a shell, watch,
// flock, at), or that a program wrapper runs (env X=1 eval …), is a
// program that runs: a part of its own, decided by the rules that name
// it (the carrier's words, or the command as written, wrapper and all)
// and by the default when none does. A builtin carrier (eval, trap) is
// a part only when something about it counts: a rule naming it, or a
// reason not to allow it.
func (c *checker) carrier(st *partState, ws []word) {
	if st.viaProgram || len(ws) > 0 && !builtinCarriers[programName(ws[0].Base)] {
		st.codeRead = true
		var raw []word
		if len(st.words) != len(ws) {
			raw = st.words
		}
		c.final(st, ws, raw)
		return
	}
	c.ruleCands(st, ws)
	if len(st.cands) == 0 && len(st.hard) == 0 {
		return
	}
	c.emit(st, cand{d: Allow, reason: "it runs the code decided in the parts that follow"})
}

// final decides the innermost command: the strictest rule that surely
// matches it, or the default; a rule that only may match raises it to
// ask. raw, when not nil, is the command as written before git's global
// options were skipped; rules match it too, and only a rule that allows
// raw lifts the soft reasons.
func (c *checker) final(st *partState, ws, raw []word) {
	var best cand
	found := false
	allowedByName := false
	consider := func(words []word, isRaw bool) {
		wk := wordKey(words)
		for i := c.nextRule(wk, 0); i < len(c.keys); i = c.nextRule(wk, i+1) {
			r := &c.set.Rules[i]
			m := r.Pattern.matchWords(words, r.Decision)
			var k cand
			switch m {
			case noMatch:
				continue
			case sureMatch:
				k = cand{d: r.Decision, rule: r}
				if r.Decision == Allow && (raw == nil || isRaw) {
					allowedByName = true
				}
			case maybeMatch:
				if r.Decision == Allow {
					continue
				}
				k = cand{d: Ask, rule: r, reason: maybeReason(r)}
			}
			if isRaw && k.d == Allow && !st.codeRead {
				continue
			}
			if !found || k.d > best.d || k.d == best.d && best.reason != "" && k.reason == "" {
				best, found = k, true
			}
		}
	}
	consider(ws, false)
	if raw != nil {
		consider(raw, true)
	}
	var b cand
	if !found {
		b = cand{d: c.set.Default}
		switch {
		case st.layerAllow != nil:
			// The privilege wrapper's own allow rule decides the
			// command it runs, when no rule names that command.
			b = cand{d: Allow, rule: st.layerAllow}
		case st.noProgram != "" && b.d != Deny:
			b = cand{d: Allow, reason: st.noProgram}
		case st.codeRead:
			// The code it runs was read, and is decided in parts of
			// its own: a denied name in it is one of those.
			b.reason = carrierReason[b.d]
		case b.d == Allow && !st.runsNothing:
			if r := c.namesDenied(st.words); r != "" {
				b = cand{d: Ask, reason: r}
			}
		}
		if b.rule == nil && b.reason == "" {
			b.reason = c.suspendedReason(ws, b.d)
		}
	} else {
		b = best
		// A sure allow is not enough when an outer maybe says ask; emit
		// takes the strictest. A rule that may deny leaves the default
		// in force if that is stricter.
		if b.d < c.set.Default && b.reason != "" {
			b = cand{d: c.set.Default}
		}
	}
	if b.d == Allow && b.rule != nil && len(ws) > 0 && strings.Contains(ws[0].Text, "/") && !ruleNamesPath(b.rule) {
		if c.ownEnv && c.env == nil {
			c.env = processContext()
		}
		if r := c.pathMatch(ws[0]); r != "" {
			b = cand{d: Ask, reason: r}
		} else if r := c.writableFound(ws[0].Base); r != "" {
			// It is the file lookup finds, and where lookup finds it
			// counts as for the bare name.
			b = cand{d: Ask, reason: r}
		}
	}
	if b.d == Allow && b.rule != nil && len(ws) > 0 && ws[0].Known && ws[0].Text != "" &&
		!strings.Contains(ws[0].Text, "/") && !ruleNamesPath(b.rule) && (st.viaProgram || !bashBuiltins[ws[0].Text]) {
		if r := c.writableFound(ws[0].Text); r != "" {
			b = cand{d: Ask, reason: r}
		}
	}
	if b.d < Ask && len(st.soft) > 0 && !allowedByName {
		b = cand{d: Ask, reason: st.soft[0] + "; a rule allowing the program by name would allow it"}
	}
	c.emit(st, b)
}

// decide sees through the wrappers of one simple command, reads the
// code it hands to a shell, and decides what is left.
func (c *checker) decide(st *partState, ws []word) {
	cur := ws
	for {
		if len(cur) == 0 {
			c.unknown(st, "no command is left after the wrapper's options")
			return
		}
		prog := cur[0]
		if !prog.BaseKnown || prog.Base == "" {
			c.unknown(st, fmt.Sprintf("the program %s is known only when it runs", prog.Text))
			return
		}
		if prog.Known && !strings.Contains(prog.Text, "/") && c.defined[prog.Text] {
			c.unknown(st, fmt.Sprintf("%s is a function or alias defined in this input: its name says nothing of what it runs", prog.Text))
			return
		}
		name := programName(prog.Base)
		kind := programKinds[name]
		if w := kind.wrapper; w != nil {
			if privilegeWrappers[name] {
				c.privileged(st, name, cur)
			}
			if !builtinWrappers[name] {
				st.viaProgram = true
			}
			next, ok := c.unwrap(st, w, name, cur)
			if !ok {
				return
			}
			if next == nil {
				c.final(st, cur, nil)
				return
			}
			cur = next
			continue
		}
		switch {
		case kind.shell:
			c.shell(st, name, cur)
			return
		case name == "git":
			norm, risk := gitGlobal(cur)
			if risk != "" {
				st.hard = append(st.hard, risk)
			}
			if r := c.gitRisk(cur); r != "" {
				st.hard = append(st.hard, r)
			}
			if r := c.unpackRisk(name, cur[1:]); r != "" {
				st.hard = append(st.hard, r)
			}
			norm, risk = c.gitAlias(norm)
			if risk != "" {
				st.hard = append(st.hard, risk)
			}
			c.gitCommands(st, norm)
			c.final(st, norm, cur)
			return
		case name == "at" || name == "batch":
			// at reads the commands it schedules from stdin or -f FILE.
			for _, a := range cur[1:] {
				if !a.Known || a.Text == "-f" || strings.HasPrefix(a.Text, "-f") && len(a.Text) > 2 {
					st.soft = append(st.soft, name+" schedules the commands of a file, known only when they run")
					c.final(st, cur, nil)
					return
				}
			}
			c.stdinCode(st, name, cur, true)
			return
		case name == "spillway" && len(cur) > 2 && cur[1].Known && cur[1].Text == "bash":
			c.spillwayBash(st, cur)
			return
		case name == "sg" && len(cur) >= 3:
			// sg GROUP COMMAND hands COMMAND to /bin/sh -c.
			c.privileged(st, name, cur)
			c.codeWords(st, cur, cur[len(cur)-1:], "sg")
			return
		case kind.otherShell:
			st.soft = append(st.soft, name+" runs code in a language that is not bash's, which cannot be read here")
		case kind.runner != "":
			st.soft = append(st.soft, kind.runner)
		case name == "sed" || name == "gsed":
			if sedRuns(cur[1:]) {
				st.soft = append(st.soft, "the sed script may run commands (the e command or the s///e flag)")
			}
		case name == "eval":
			args := cur[1:]
			if len(args) > 0 && args[0].Known && args[0].Text == "--" {
				args = args[1:]
			}
			c.codeWords(st, cur, args, "eval")
			return
		case name == "trap":
			c.builtinForms(st, name, cur)
			c.trap(st, cur)
			return
		case name == "alias":
			for _, a := range cur[1:] {
				if n, v, ok := strings.Cut(a.Text, "="); ok && a.Known {
					c.code(v, ctx{depth: st.cx.depth + 1}, "alias "+n)
				}
			}
			c.final(st, cur, nil)
			return
		case name == "watch":
			c.watch(st, cur)
			return
		case name == "xargs":
			st.viaProgram = true
			next, ok := c.xargs(st, cur)
			if !ok {
				return
			}
			if next == nil {
				c.final(st, cur, nil)
				return
			}
			cur = next
			continue
		case name == "find":
			c.find(st, cur)
			return
		case name == "source" || name == ".":
			c.builtinForms(st, name, cur)
			if len(cur) < 2 {
				c.final(st, cur, nil)
				return
			}
			c.script(st, name, cur, cur[1], true)
			return
		case name == "hash":
			for _, a := range cur[1:] {
				if a.Known && strings.HasPrefix(a.Text, "-") && strings.Contains(a.Text, "p") || !a.Known {
					st.hard = append(st.hard, "hash -p binds a name to another program for the commands that follow")
					break
				}
			}
		case name == "enable":
			st.hard = append(st.hard, "enable can load builtins from a shared object or unmask programs named like builtins")
		case name == "mapfile" || name == "readarray":
			for i, a := range cur {
				if a.Known && a.Text == "-C" && i+1 < len(cur) {
					c.codeWords(st, nil, cur[i+1:i+2], name+" -C")
				}
			}
		}
		c.builtinForms(st, name, cur)
		if r := c.writesRisk(name, cur[1:]); r != "" {
			st.hard = append(st.hard, r)
		}
		if r := c.unpackRisk(name, cur[1:]); r != "" {
			st.hard = append(st.hard, r)
		}
		if r := inputCode(name, cur[1:]); r != "" {
			st.soft = append(st.soft, r)
		}
		if name == "cd" || name == "pushd" || name == "popd" {
			args := cur[1:]
			defer func() { c.cdSeen = true; c.noteCd(name, args) }()
		}
		if in := kind.interpreter(name); in != nil {
			c.interp(st, name, in, cur)
			return
		}
		c.final(st, cur, nil)
		return
	}
}

// codeWords reads args joined by spaces as shell code (eval's rule) one
// level deeper, then adds the carrier's own part if it counts.
func (c *checker) codeWords(st *partState, carrierWords []word, args []word, via string) {
	texts := make([]string, len(args))
	for i, a := range args {
		if !a.Known {
			if carrierWords != nil {
				c.ruleCands(st, carrierWords)
			}
			c.unknown(st, fmt.Sprintf("the code given to %s is known only when it runs", via))
			return
		}
		texts[i] = a.Text
	}
	c.code(strings.Join(texts, " "), ctx{depth: st.cx.depth + 1, stdinOther: st.cx.stdinOther}, via)
	if carrierWords != nil {
		c.carrier(st, carrierWords)
	}
}

// unwrap skips a wrapper's options and returns the command it runs; nil
// with ok when it runs none of its arguments (decide the wrapper), or
// !ok when the part has been added already.
func (c *checker) unwrap(st *partState, w *wrapper, name string, cur []word) ([]word, bool) {
	c.ruleCands(st, cur)
	if w.multiCall {
		if len(cur) < 2 || !cur[1].Known || strings.HasPrefix(cur[1].Text, "-") {
			if len(cur) >= 2 && !cur[1].Known {
				c.unknown(st, fmt.Sprintf("the program %s runs is known only when it runs", name))
				return nil, false
			}
			return nil, true
		}
		st.hard = append(st.hard, fmt.Sprintf("%s is a multi-call binary: its %s applet is not the program a rule names", name, cur[1].Text))
		return cur[1:], true
	}
	if name == "su" || name == "runuser" || name == "script" {
		// Their options may follow the user name or file: look for the
		// command string anywhere.
		for i := 1; i < len(cur); i++ {
			t := cur[i].Text
			if !cur[i].Known && strings.HasPrefix(t, "-") {
				c.unknown(st, fmt.Sprintf("the options of %s are known only when it runs", name))
				return nil, false
			}
			// A cluster of flags may end in c (script -qc CMD) or give
			// its value glued (su -c'cmd').
			if len(t) > 2 && t[0] == '-' && t[1] != '-' {
				if j := strings.IndexByte(t, 'c'); j > 0 {
					if j == len(t)-1 {
						if i+1 < len(cur) {
							c.codeWords(st, cur, cur[i+1:i+2], name+" -c")
							return nil, false
						}
					} else {
						c.codeWords(st, cur, []word{{Text: t[j+1:], Known: true}}, name+" -c")
						return nil, false
					}
				}
			}
			for _, o := range w.codeOpt {
				if t == o && i+1 < len(cur) {
					c.codeWords(st, cur, cur[i+1:i+2], name+" "+o)
					return nil, false
				}
				if strings.HasPrefix(o, "--") && strings.HasPrefix(t, o+"=") {
					c.codeWords(st, cur, []word{{Text: t[len(o)+1:], Known: cur[i].Known}}, name+" "+o)
					return nil, false
				}
			}
		}
		st.interactive = true
		return nil, true
	}
	end, seen, err := w.opts.skipOptions(cur, 1)
	if err != nil {
		c.unknown(st, name+": "+err.Error())
		return nil, false
	}
	for _, o := range w.noCommand {
		if _, ok := seen[o]; ok {
			st.runsNothing = true
			return nil, true
		}
	}
	if name == "env" {
		for _, o := range []string{"-S", "--split-string"} {
			if v, ok := seen[o]; ok {
				return c.envSplit(st, v, cur[end:])
			}
		}
	}
	if name == "env" {
		for _, o := range []string{"-i", "--ignore-environment", "-"} {
			if _, ok := seen[o]; ok {
				st.noPATH = true
			}
		}
		for _, o := range []string{"-u", "--unset"} {
			if v, ok := seen[o]; ok {
				if r := listedVar(v); r != "" {
					st.hard = append(st.hard, r)
				}
			}
		}
	}
	if w.assigns {
		for end < len(cur) && cur[end].Known {
			n, v, ok := strings.Cut(cur[end].Text, "=")
			// env takes any word with = for an assignment, names bash
			// would not take among them (BASH_FUNC_ls%%).
			if !ok || n == "" || !syntax.ValidName(n) && name != "env" {
				break
			}
			if r := assignRisk(n, v, true); r != "" {
				st.hard = append(st.hard, r)
			}
			end++
		}
	}
	end += w.positional
	if name == "flock" && end < len(cur) && cur[end].Known && (cur[end].Text == "-c" || cur[end].Text == "--command") {
		c.codeWords(st, cur, cur[end+1:min(end+2, len(cur))], "flock -c")
		return nil, false
	}
	if end >= len(cur) {
		_, login := seen["-i"]
		_, shell := seen["-s"]
		if name == "chroot" || (name == "sudo" || name == "doas") && (login || shell) {
			// With no command these start a shell reading the caller's
			// stdin.
			st.interactive = true
		}
		return nil, true
	}
	return cur[end:], true
}

// envSplit handles env -S STRING: the string is split into words that
// come before the remaining arguments.
func (c *checker) envSplit(st *partState, v string, rest []word) ([]word, bool) {
	f, err := syntax.NewParser().Parse(strings.NewReader(v), "")
	if err != nil || len(f.Stmts) != 1 {
		c.unknown(st, "env -S splits a string spillway cannot read as words")
		return nil, false
	}
	call, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(f.Stmts[0].Redirs) > 0 {
		c.unknown(st, "env -S splits a string spillway cannot read as words")
		return nil, false
	}
	var ws []word
	for _, a := range call.Assigns {
		ws = append(ws, word{Text: sourceOf(a, v), Known: true})
	}
	for _, w := range call.Args {
		ws = append(ws, resolveWord(w, v))
	}
	ws = append(ws, rest...)
	env := []word{{Text: "env", Known: true, Base: "env", BaseKnown: true}}
	return c.unwrap(st, wrappers["env"], "env", append(env, ws...))
}

// shell decides bash, sh and their kin: the -c string is read as code,
// a here-document or here-string on stdin too; a script file is decided
// by the shell's name; code from a pipe or file is not seen.
func (c *checker) shell(st *partState, name string, cur []word) {
	if st.noPATH {
		st.hard = append(st.hard, "env -i clears PATH, and a shell started without one looks for its programs in a default PATH whose last entry is the working directory")
	}
	hasC, fromStdin := false, false
	i := 1
loop:
	for i < len(cur) {
		w := cur[i]
		if !w.Known {
			if w.Split || strings.HasPrefix(w.Text, "-") || strings.HasPrefix(w.Text, "+") {
				c.ruleCands(st, cur)
				c.unknown(st, fmt.Sprintf("the options of %s are known only when it runs", name))
				return
			}
			break
		}
		t := w.Text
		switch {
		case t == "--" || t == "-":
			i++
			break loop
		case strings.HasPrefix(t, "--"):
			if t == "--rcfile" || t == "--init-file" {
				i++
			}
		case len(t) > 1 && (t[0] == '-' || t[0] == '+'):
			for _, l := range t[1:] {
				switch l {
				case 'c':
					hasC = true
				case 's':
					fromStdin = true
				case 'o', 'O':
					i++
				}
			}
		default:
			break loop
		}
		i++
	}
	if i > len(cur) {
		i = len(cur)
	}
	rest := cur[i:]
	if hasC {
		if len(rest) == 0 {
			c.final(st, cur, nil)
			return
		}
		c.codeWords(st, cur, rest[:1], name+" -c")
		return
	}
	if !fromStdin && len(rest) > 0 {
		c.script(st, name, cur, rest[0], true)
		return
	}
	c.stdinCode(st, name, cur, true)
}

func isStdinPath(p string) bool {
	switch p {
	case "-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0":
		return true
	}
	return false
}

// script decides a shell or interpreter run on a script file.
func (c *checker) script(st *partState, name string, cur []word, file word, isShell bool) {
	if !file.Known {
		st.soft = append(st.soft, fmt.Sprintf("the script %s runs (%s) is known only when it runs", name, file.Text))
		c.final(st, cur, nil)
		return
	}
	if isStdinPath(file.Text) {
		c.stdinCode(st, name, cur, isShell)
		return
	}
	c.final(st, cur, nil)
}

// stdinCode decides a shell or interpreter that reads its code from
// stdin: a literal here-document or here-string to a shell is read as
// code; anything else on stdin is code no rule sees.
func (c *checker) stdinCode(st *partState, name string, cur []word, isShell bool) {
	switch {
	case st.stdinR != nil:
		text, ok := hdocText(st.stdinR)
		isDoc := st.stdinR.Op == syntax.Hdoc || st.stdinR.Op == syntax.DashHdoc || st.stdinR.Op == syntax.WordHdoc
		if ok && isDoc && isShell {
			// The commands of the document read the rest of it as their
			// stdin: a shell among them runs those lines too.
			c.code(text, ctx{depth: st.cx.depth + 1, stdinOther: true}, "the here-document to "+name)
			c.carrier(st, cur)
			return
		}
		if ok && isDoc {
			st.soft = append(st.soft, fmt.Sprintf("%s runs the code of a here-document, which spillway does not read", name))
		} else {
			st.soft = append(st.soft, fmt.Sprintf("%s reads code from a file or descriptor on stdin, known only when it runs", name))
		}
	case st.cx.stdinOther || c.stdinExec:
		st.soft = append(st.soft, fmt.Sprintf("%s reads code from a pipe or redirected stdin, known only when it runs", name))
	default:
		st.interactive = true
	}
	c.final(st, cur, nil)
}

// interp decides an interpreter of another language: code given inline
// or through stdin is not read, so it is ask unless a rule allows the
// interpreter by name; a script file is decided by the name.
func (c *checker) interp(st *partState, name string, in *interpreter, cur []word) {
	progFile := false
	for i := 1; i < len(cur); i++ {
		w := cur[i]
		t := w.Text
		if !w.Known {
			if w.Split || strings.HasPrefix(t, "-") {
				st.soft = append(st.soft, fmt.Sprintf("the arguments of %s are known only when it runs", name))
				c.final(st, cur, nil)
				return
			}
		}
		if isInline(in, t) {
			st.soft = append(st.soft, fmt.Sprintf("%s runs code given on its command line (%s), which spillway does not read", name, t))
			c.final(st, cur, nil)
			return
		}
		if contains(in.module, t) {
			c.final(st, cur, nil)
			return
		}
		if t == "-" {
			c.stdinCode(st, name, cur, false)
			return
		}
		if t == "--" {
			if i+1 < len(cur) {
				c.interpFirst(st, name, in, cur, cur[i+1], progFile)
				return
			}
			break
		}
		if len(t) > 1 && t[0] == '-' {
			if len(t) == 2 && strings.IndexByte(in.argShort, t[1]) >= 0 {
				if t == "-f" && in.program {
					progFile = true
					// As sed -f: the program in the file is not read, and
					// awk's system() and | run any program.
					st.soft = append(st.soft, fmt.Sprintf("%s runs a program file (-f) spillway does not read, and an awk program can start any program", name))
				}
				i++
			}
			continue
		}
		c.interpFirst(st, name, in, cur, w, progFile)
		return
	}
	if in.program && !progFile {
		c.final(st, cur, nil)
		return
	}
	c.stdinCode(st, name, cur, false)
}

func (c *checker) interpFirst(st *partState, name string, in *interpreter, cur []word, w word, progFile bool) {
	if in.program && !progFile {
		switch {
		case !w.Known:
			st.soft = append(st.soft, fmt.Sprintf("the %s program is known only when it runs", name))
		case awkRuns(w.Text):
			st.soft = append(st.soft, fmt.Sprintf("the %s program can start other programs (system, |, @load)", name))
		}
		c.final(st, cur, nil)
		return
	}
	if in.program {
		c.final(st, cur, nil)
		return
	}
	c.script(st, name, cur, w, false)
}

func isInline(in *interpreter, t string) bool {
	for _, o := range in.inline {
		if t == o || strings.HasPrefix(o, "--") && strings.HasPrefix(t, o+"=") {
			return true
		}
		// A short inline option may end a cluster of flags (perl -ne).
		if len(o) == 2 && o[0] == '-' && len(t) > 2 && t[0] == '-' && t[1] != '-' && strings.IndexByte(t[1:], o[1]) >= 0 {
			return true
		}
	}
	return false
}

func (c *checker) trap(st *partState, cur []word) {
	args := cur[1:]
	if len(args) > 0 && args[0].Known && args[0].Text == "--" {
		args = args[1:]
	}
	if len(args) < 2 || args[0].Known && (args[0].Text == "-" || args[0].Text == "" || strings.HasPrefix(args[0].Text, "-")) {
		c.final(st, cur, nil)
		return
	}
	c.codeWords(st, cur, args[:1], "trap")
}

func (c *checker) watch(st *partState, cur []word) {
	spec := optSpec{argShort: "nq", flagShort: "bcdeEgprtwx", argLong: []string{"interval", "equexit"},
		flagLong: []string{"beep", "color", "no-color", "differences", "errexit", "chgexit", "exec", "precise", "no-rerun", "no-title", "no-wrap", "no-linewrap"}}
	c.ruleCands(st, cur)
	end, seen, err := spec.skipOptions(cur, 1)
	if err != nil {
		c.unknown(st, "watch: "+err.Error())
		return
	}
	if end >= len(cur) {
		c.final(st, cur, nil)
		return
	}
	_, x := seen["-x"]
	_, exec := seen["--exec"]
	if x || exec {
		c.decide(st, cur[end:])
		return
	}
	// Without -x, watch hands its arguments joined by spaces to sh -c.
	c.codeWords(st, cur, cur[end:], "watch")
}

// xargs returns the command xargs runs, with the words it reads from
// stdin standing as unknown words.
func (c *checker) xargs(st *partState, cur []word) ([]word, bool) {
	spec := optSpec{argShort: "aEIdLnPs", flagShort: "0oprtxiel", argLong: []string{"arg-file", "delimiter", "max-args", "max-procs", "max-chars", "process-slot-var"},
		flagLong: []string{"null", "open-tty", "interactive", "no-run-if-empty", "verbose", "exit", "show-limits", "eof", "replace", "max-lines"}}
	c.ruleCands(st, cur)
	// -i, -e and -l take an optional value glued to them, so they are
	// flags here; -I's value is the replacement string.
	end, seen, err := spec.skipOptions(cur, 1)
	if err != nil {
		c.unknown(st, "xargs: "+err.Error())
		return nil, false
	}
	if end >= len(cur) {
		return nil, true
	}
	repl := ""
	if v, ok := seen["-I"]; ok {
		repl = v
	} else if _, ok := seen["-i"]; ok {
		repl = "{}"
	} else if v, ok := seen["--replace"]; ok {
		repl = v
		if repl == "" {
			repl = "{}"
		}
	}
	out := make([]word, 0, len(cur)-end+1)
	for _, w := range cur[end:] {
		if repl != "" && w.Known && strings.Contains(w.Text, repl) {
			out = append(out, word{Text: w.Text})
			continue
		}
		out = append(out, w)
	}
	if repl == "" {
		out = append(out, word{Text: "(words read from stdin)", Split: true})
	}
	return out, true
}

// find decides each command of -exec, -execdir, -ok and -okdir on its
// own, and find itself by its name.
func (c *checker) find(st *partState, cur []word) {
	for i := 1; i < len(cur); i++ {
		t := cur[i].Text
		if !cur[i].Known || (t != "-exec" && t != "-execdir" && t != "-ok" && t != "-okdir") {
			continue
		}
		j := i + 1
		// The command's words go on the slab, above the words of the
		// part being decided, until it is decided.
		mark := len(c.slab)
		for ; j < len(cur); j++ {
			if cur[j].Known && (cur[j].Text == ";" || cur[j].Text == "+") {
				break
			}
			w := cur[j]
			if w.Known && strings.Contains(w.Text, "{}") {
				w = word{Text: w.Text}
			}
			c.slab = append(c.slab, w)
		}
		if sub := c.slab[mark:len(c.slab):len(c.slab)]; len(sub) > 0 {
			inner := &partState{cx: st.cx, hard: append([]string(nil), st.hard...), cands: append([]cand(nil), st.cands...), words: sub}
			c.decide(inner, sub)
		}
		c.slab = c.slab[:mark]
		i = j
	}
	c.final(st, cur, nil)
}

// plainWord reports whether word parts surely hold no substitution, so
// that the common word needs no walk.
func plainWord(parts []syntax.WordPart) bool {
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit, *syntax.SglQuoted:
		case *syntax.DblQuoted:
			if !plainWord(p.Parts) {
				return false
			}
		case *syntax.ParamExp:
			if !p.Short {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// plainText reports whether s reads the same unquoted.
func plainText(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !plainByte[s[i]] {
			return false
		}
	}
	return true
}

// plainByte holds the bytes that read the same unquoted.
var plainByte = func() (t [256]bool) {
	for c := range 256 {
		t[c] = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-_./:=+,@%^", byte(c)) >= 0
	}
	return t
}()

// gitCommands reads the commands some git subcommands run: submodule
// foreach's shell string, rebase's --exec and bisect run's command are
// decided as parts of their own; options that name a program git runs
// (--upload-pack, --receive-pack, difftool's --extcmd, filter-branch's
// filters) keep the part from being allowed by the subcommand's rule.
func (c *checker) gitCommands(st *partState, ws []word) {
	if len(ws) < 2 || !ws[1].Known {
		return
	}
	sub := ws[1].Text
	args := ws[2:]
	next := ctx{depth: st.cx.depth + 1}
	switch sub {
	case "submodule":
		for i, a := range args {
			if a.Known && a.Text == "foreach" {
				rest := args[i+1:]
				for len(rest) > 0 && rest[0].Known && strings.HasPrefix(rest[0].Text, "-") {
					rest = rest[1:]
				}
				c.codeWords(st, nil, rest, "git submodule foreach")
				return
			}
		}
	case "rebase":
		for i, a := range args {
			switch {
			case a.Known && (a.Text == "-x" || a.Text == "--exec") && i+1 < len(args):
				c.codeWords(st, nil, args[i+1:i+2], "git rebase --exec")
			case a.Known && strings.HasPrefix(a.Text, "--exec="):
				c.code(strings.TrimPrefix(a.Text, "--exec="), next, "git rebase --exec")
			case !a.Known && strings.HasPrefix(a.Text, "-"):
				st.soft = append(st.soft, "an option of git rebase is known only when it runs")
			}
		}
	case "bisect":
		if len(args) > 1 && args[0].Known && args[0].Text == "run" {
			inner := &partState{cx: st.cx, hard: append([]string(nil), st.hard...), words: args[1:]}
			c.decide(inner, args[1:])
		}
	case "filter-branch":
		st.soft = append(st.soft, "git filter-branch runs the shell commands of its filters")
	case "config":
		if r := gitConfigSets(args); r != "" {
			st.hard = append(st.hard, r)
		}
	}
	for _, a := range args {
		t := a.Text
		for _, o := range []string{"--upload-pack", "--receive-pack", "--exec", "--extcmd", "-u", "--config"} {
			if t == o || strings.HasPrefix(t, o+"=") {
				if sub == "rebase" && o == "--exec" {
					continue
				}
				if o == "-u" && sub != "clone" {
					continue
				}
				st.soft = append(st.soft, fmt.Sprintf("git %s %s names a program or configuration git runs", sub, o))
			}
		}
		if sub == "difftool" || sub == "mergetool" {
			if t == "-x" || t == "-t" || strings.HasPrefix(t, "--tool=") {
				st.soft = append(st.soft, fmt.Sprintf("git %s %s names a program git runs", sub, t))
			}
		}
	}
}

// sedRuns reports whether a sed command line may execute commands: GNU
// sed's e command and the e flag of s, found in any script given with
// -e, --expression= or as the first word that is not an option. A
// script file (-f) or an expansion is not read, so it counts as may.
func sedRuns(args []word) bool {
	var scripts []string
	first := true
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !a.Known {
			return true
		}
		t := a.Text
		switch {
		case t == "-e" || t == "--expression":
			if i+1 < len(args) {
				if !args[i+1].Known {
					return true
				}
				scripts = append(scripts, args[i+1].Text)
				i++
			}
			first = false
		case strings.HasPrefix(t, "--expression="):
			scripts = append(scripts, strings.TrimPrefix(t, "--expression="))
			first = false
		case t == "-f" || strings.HasPrefix(t, "--file") || len(t) > 1 && t[0] == '-' && t[1] != '-' && strings.Contains(t, "f"):
			return true
		case len(t) > 1 && t[0] == '-' && t[1] != '-' && strings.HasSuffix(t, "e"):
			// -ne SCRIPT
			if i+1 < len(args) {
				if !args[i+1].Known {
					return true
				}
				scripts = append(scripts, args[i+1].Text)
				i++
			}
			first = false
		case len(t) > 1 && t[0] == '-':
		default:
			if first {
				scripts = append(scripts, t)
				first = false
			}
		}
	}
	for _, sc := range scripts {
		if sedScriptRuns(sc) {
			return true
		}
	}
	return false
}

// sedScriptRuns looks for an e command at the start of a command
// (after an address and !), and for an s command whose flags hold e.
// It errs on the side of may: any e standing where a command starts, or
// in flags, counts.
func sedScriptRuns(sc string) bool {
	start := true
	for i := 0; i < len(sc); i++ {
		ch := sc[i]
		switch {
		case ch == '\n' || ch == ';' || ch == '{' || ch == '}':
			start = true
		case start && (ch == ' ' || ch == '\t' || ch == '!' || ch == ',' || ch == '$' || ch >= '0' && ch <= '9' || ch == '~'):
		case start && (ch == '/' || ch == '\\'):
			// An address /re/: skip to its end.
			delim := ch
			if ch == '\\' && i+1 < len(sc) {
				i++
				delim = sc[i]
			}
			for i++; i < len(sc) && sc[i] != delim; i++ {
				if sc[i] == '\\' {
					i++
				}
			}
		case start && ch == 'e':
			return true
		case start && (ch == 's' || ch == 'y') && i+1 < len(sc):
			delim := sc[i+1]
			i += 2
			for n := 0; n < 2 && i < len(sc); i++ {
				if sc[i] == '\\' {
					i++
					continue
				}
				if sc[i] == delim {
					n++
				}
			}
			for ; i < len(sc) && strings.IndexByte("gpiImMe0123456789w", sc[i]) >= 0; i++ {
				if sc[i] == 'e' && ch == 's' {
					return true
				}
				if sc[i] == 'w' {
					break
				}
			}
			i--
			start = false
		case start && (ch == 'a' || ch == 'i' || ch == 'c' || ch == 'r' || ch == 'w' || ch == 'R' || ch == 'W' || ch == 'b' || ch == 't' || ch == 'T' || ch == ':'):
			// Commands whose argument runs to the end of the line.
			for i < len(sc) && sc[i] != '\n' {
				i++
			}
			i--
			start = false
		default:
			start = false
		}
	}
	return false
}

// noProgram adds an allow part for a statement that runs no program and
// is made only of known constructs (x=3, (( x > 2 ))), when deciding it
// added no part of its own: an input is never allowed for having no
// parts.
func (c *checker) noProgram(before int, n syntax.Node, cx ctx, reason string) {
	if len(c.parts) == before {
		c.add(clip(sourceOf(n, cx.src)), Allow, nil, reason, false)
	}
}

// forVar decides what a for or select loop assigns: its name, each
// time round; select reads the choice into REPLY too.
func (c *checker) forVar(x *syntax.ForClause, it *syntax.WordIter, cx ctx, known bool) {
	name := it.Name.Value
	if x.Select {
		c.ask(clip(sourceOf(x, cx.src)), listedVar("REPLY"))
	}
	if r := listedVar(name); r != "" {
		c.ask(clip(sourceOf(x, cx.src)), r)
	}
	c.intAssigned(name, known, true)
}

// intItems reports whether a for loop goes over integer literals only,
// at least one.
func intItems(it *syntax.WordIter) bool {
	for _, w := range it.Items {
		if !onlyLiteralParts(w) || !isIntLiteral(literalText(w)) {
			return false
		}
	}
	return len(it.Items) > 0
}

// redirect is the reason a redirection is not fully known, or "": one
// that assigns a file descriptor to a variable ({fd}>file) of either
// list, or that opens a network connection (/dev/tcp/…, /dev/udp/…).
func (c *checker) redirect(r *syntax.Redirect, src string) string {
	if r.N != nil && strings.HasPrefix(r.N.Value, "{") && strings.HasSuffix(r.N.Value, "}") {
		name := r.N.Value[1 : len(r.N.Value)-1]
		if reason := listedVar(name); reason != "" {
			return reason
		}
		// {a[z]}>f: bash evaluates the subscript as arithmetic, whatever
		// the command.
		if reason := c.subscriptText(name); reason != "" {
			return reason
		}
		// The descriptor is a number.
		c.intAssigned(name, true, false)
	}
	if r.Word != nil {
		switch r.Op {
		case syntax.RdrOut, syntax.AppOut, syntax.RdrInOut, syntax.RdrAll, syntax.AppAll, syntax.RdrClob, syntax.AppClob:
			if reason := c.writeRisk(resolveWord(r.Word, src)); reason != "" {
				return reason
			}
		case syntax.DplOut:
			// >&WORD duplicates a descriptor only when WORD expands to
			// digits or "-"; any other WORD is a file bash opens for
			// stdout and stderr, as &>WORD does.
			w := resolveWord(r.Word, src)
			if w.Known {
				if isDupWord(w.Text) {
					break
				}
				if reason := c.writeRisk(w); reason != "" {
					return reason
				}
			} else if !c.intParam(r.Word) {
				return fmt.Sprintf("%s writes stdout and stderr to the file %s names unless it expands to a descriptor number, and it is known only when it runs", sourceOf(r, src), sourceOf(r.Word, src))
			}
		}
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
			// A delimiter or a here-string: no file is opened.
		default:
			lit, known := literalPrefix(r.Word)
			switch {
			case known && (strings.Contains(lit, "/dev/tcp/") || strings.Contains(lit, "/dev/udp/")):
				return "bash opens a network connection for a redirection to /dev/tcp or /dev/udp"
			case !known && (r.Op == syntax.DplOut || r.Op == syntax.DplIn) && c.intParam(r.Word):
				// A descriptor number.
			case !known && (strings.HasPrefix("/dev/tcp/", lit) || strings.HasPrefix("/dev/udp/", lit) ||
				strings.Contains(lit, "/dev/tcp/") || strings.Contains(lit, "/dev/udp/")):
				return fmt.Sprintf("the target %s is known only when it runs and may name /dev/tcp or /dev/udp, for which bash opens a network connection", sourceOf(r.Word, src))
			}
		}
	}
	return ""
}

// privileged records a privilege wrapper: unless an allow rule names
// the wrapper's own words, the part may not be allowed.
func (c *checker) privileged(st *partState, name string, cur []word) {
	for i := range c.set.Rules {
		r := &c.set.Rules[i]
		if r.Decision == Allow && r.Pattern.matchWords(cur, Allow) == sureMatch {
			if st.layerAllow == nil {
				st.layerAllow = r
			}
			return
		}
	}
	st.hard = append(st.hard, fmt.Sprintf("%s runs its command with other privileges: it is allowed only by a rule that names %s itself", name, name))
}

// namesDenied is the reason a part the default would allow is ask: a
// program a deny rule names appears among its words, or inside one of
// them (a -c string, EXEC:rm, system("rm …") in code given inline), so
// the part may run it in a way the parser does not see. This is best
// effort: it is what stands between a deny rule and a wrapper or
// language spillway does not know, under default allow.
func (c *checker) namesDenied(ws []word) string {
	if c.denied == nil {
		c.denied = [][]string{}
		for i := range c.set.Rules {
			r := &c.set.Rules[i]
			if r.Decision != Deny || len(r.Pattern.Words) == 0 {
				continue
			}
			for _, alt := range r.Pattern.Words[0] {
				seq := []string{strings.ToLower(alt[strings.LastIndexByte(alt, '/')+1:])}
				for _, pos := range r.Pattern.Words[1:] {
					if len(pos) != 1 {
						break
					}
					seq = append(seq, strings.ToLower(pos[0]))
				}
				c.denied = append(c.denied, seq)
			}
		}
	}
	if len(c.denied) == 0 {
		return ""
	}
	var toks []string
	for _, w := range ws {
		toks = appendTokens(toks, w.Text)
	}
	for _, seq := range c.denied {
		k := 0
		for _, t := range toks {
			if k < len(seq) && t == seq[k] {
				k++
			}
		}
		if k == len(seq) {
			return fmt.Sprintf("%q, which a deny rule names, appears in the command, which may run it in a way spillway does not read", strings.Join(seq, " "))
		}
	}
	return ""
}

// appendTokens appends the lowercased runs of name characters of s: a
// program's name, wherever it stands in a word or a string of code.
func appendTokens(toks []string, s string) []string {
	start := -1
	for i := 0; i <= len(s); i++ {
		name := i < len(s) && (s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z' || s[i] >= '0' && s[i] <= '9' || s[i] == '_' || s[i] == '-' || s[i] == '.' || s[i] == '+' || s[i] >= 0x80)
		switch {
		case name && start < 0:
			start = i
		case !name && start >= 0:
			toks = append(toks, strings.ToLower(s[start:i]))
			start = -1
		}
	}
	return toks
}

// ruleNamesPath reports whether a rule names its program by a path
// (allow /usr/bin/git status): it then matches that path only.
func ruleNamesPath(r *Rule) bool {
	if len(r.Pattern.Words) == 0 {
		return false
	}
	for _, alt := range r.Pattern.Words[0] {
		if strings.Contains(alt, "/") {
			return true
		}
	}
	return false
}

// spillwayBash reads spillway bash's command in turn: every word that is
// not an option is read as shell code (a flag's value among them, which
// can only add parts), since which of them is the command depends on
// options spillway's own CLI defines.
func (c *checker) spillwayBash(st *partState, cur []word) {
	for _, w := range cur[2:] {
		if !w.Known {
			c.ruleCands(st, cur)
			c.unknown(st, "the command given to spillway bash is known only when it runs")
			return
		}
		if strings.HasPrefix(w.Text, "-") {
			continue
		}
		c.code(w.Text, ctx{depth: st.cx.depth + 1, stdinOther: st.cx.stdinOther}, "spillway bash")
	}
	c.carrier(st, cur)
}

// isDupWord reports whether the value of >&WORD names a descriptor
// (digits, optionally followed by "-" to move it) or closes one ("-").
func isDupWord(v string) bool {
	v = strings.TrimSuffix(v, "-")
	for i := 0; i < len(v); i++ {
		if v[i] < '0' || v[i] > '9' {
			return false
		}
	}
	return true
}

// intParam reports whether w is one expansion of a variable known to
// hold an integer ($fd, "${fd}" after {fd}>file or fd=3).
func (c *checker) intParam(w *syntax.Word) bool {
	if len(w.Parts) != 1 {
		return false
	}
	p := w.Parts[0]
	if q, ok := p.(*syntax.DblQuoted); ok && len(q.Parts) == 1 {
		p = q.Parts[0]
	}
	pe, ok := p.(*syntax.ParamExp)
	if !ok || pe.Param == nil || pe.Excl || pe.Length || pe.Width || pe.Index != nil || pe.Slice != nil || pe.Repl != nil || pe.Exp != nil || pe.Names != 0 {
		return false
	}
	return c.intVar(pe.Param.Value) == ""
}

// literalPrefix is the value of w after quote removal, with known true,
// when w holds no expansion; else the value of its literal beginning,
// up to the first expansion (a parameter, a substitution, a tilde, a
// glob or a brace), with known false. bash compares a redirection's
// target to /dev/tcp/ after expansion, so a quote or a backslash in
// /dev/"tcp"/… hides nothing from it.
func literalPrefix(w *syntax.Word) (lit string, known bool) {
	var b strings.Builder
	for i, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			v := p.Value
			if i == 0 && strings.HasPrefix(v, "~") || hasGlob(v) || hasBrace(v) {
				return b.String(), false
			}
			b.WriteString(unescapeUnquoted(v))
		case *syntax.SglQuoted:
			if p.Dollar {
				b.WriteString(decodeANSIC(p.Value))
			} else {
				b.WriteString(p.Value)
			}
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok {
					return b.String(), false
				}
				b.WriteString(unescapeDouble(l.Value))
			}
		default:
			return b.String(), false
		}
	}
	return b.String(), true
}

// maxArithTerms bounds the arithmetic the checker reads: walking an
// expression recurses once per term, and an expression of thousands of
// terms cost checker time that grew faster than its length. No
// arithmetic a person writes comes near it.
const maxArithTerms = 1000

// arithTerms counts the operands and operators of the arithmetic in n,
// without recursion, stopping past maxArithTerms.
func arithTerms(n syntax.Node) int {
	var todo []syntax.ArithmExpr
	switch n := n.(type) {
	case *syntax.ArithmExp:
		todo = append(todo, n.X)
	case *syntax.ArithmCmd:
		todo = append(todo, n.X)
	case *syntax.LetClause:
		todo = append(todo, n.Exprs...)
	case *syntax.CStyleLoop:
		todo = append(todo, n.Init, n.Cond, n.Post)
	}
	count := 0
	for len(todo) > 0 && count <= maxArithTerms {
		x := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		switch x := x.(type) {
		case nil:
			continue
		case *syntax.BinaryArithm:
			todo = append(todo, x.X, x.Y)
		case *syntax.UnaryArithm:
			todo = append(todo, x.X)
		case *syntax.ParenArithm:
			todo = append(todo, x.X)
		}
		count++
	}
	return count
}
