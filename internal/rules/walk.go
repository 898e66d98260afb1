package rules

import (
	"fmt"
	"maps"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

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

// unparsable adds the ask part of code that does not parse; via names
// what runs it, "" for the input itself.
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

// collectDefined records the functions and aliases f defines, so that
// a call of one of their names, before or after, is ask.
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

// stmts decides each statement of list in cx.
func (c *checker) stmts(list []*syntax.Stmt, cx ctx) {
	for _, st := range list {
		c.stmt(st, cx)
	}
}

// stmt decides a statement: the substitutions and targets of its
// redirections, then its command.
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

// command decides cmd, a simple or compound command, in cx; stdinR is
// the redirection of its stdin, if any.
func (c *checker) command(cmd syntax.Command, cx ctx, stdinR *syntax.Redirect) {
	dom := dominates(cx)
	cx = c.inside(cmd, cx)
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
		c.forClause(x, cx, dom)
	case *syntax.CaseClause:
		c.caseClause(x, cx)
	case *syntax.FuncDecl:
		c.stmt(x.Body, cx)
	case *syntax.ArithmCmd, *syntax.TestClause, *syntax.LetClause:
		c.evaluation(x, cx)
	case *syntax.DeclClause:
		c.decl(x, cx)
	case *syntax.TimeClause:
		if x.Stmt != nil {
			c.stmt(x.Stmt, cx)
		}
	case *syntax.CoprocClause:
		c.coproc(x, cx)
	default:
		c.ask(clip(sourceOf(cmd, cx.src)),
			fmt.Sprintf("a %T is a construct spillway does not read", cmd))
	}
}

// inside returns the context of what cmd holds. What a compound command
// holds may not run, or not in this shell, or not before what follows
// it; the words of a simple command, an arithmetic command, a test or a
// declaration are as sure to run as it is. A loop that assigns a
// variable otherwise than by arithmetic forgets which hold integers.
func (c *checker) inside(cmd syntax.Command, cx ctx) ctx {
	switch x := cmd.(type) {
	case *syntax.CallExpr, *syntax.ArithmCmd, *syntax.LetClause, *syntax.TestClause, *syntax.DeclClause:
		return cx
	case *syntax.WhileClause, *syntax.ForClause:
		if len(c.ints) > 0 && loopAssigns(x) {
			clear(c.ints)
		}
	}
	cx.nested = true
	return cx
}

// forClause decides a for or select loop. A C-style loop's start, and a
// loop over integer literals, give the loop's variable an integer for
// the body when nothing in the loop assigns a variable otherwise; after
// a loop that may not run (dom false), only what was known before it
// stays known.
func (c *checker) forClause(x *syntax.ForClause, cx ctx, dom bool) {
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
}

// caseClause decides a case statement: its word, its patterns and the
// statements of each item.
func (c *checker) caseClause(x *syntax.CaseClause, cx ctx) {
	c.node(x.Word, cx)
	for _, it := range x.Items {
		for _, p := range it.Patterns {
			c.node(p, cx)
		}
		c.stmts(it.Stmts, cx)
	}
}

// evaluation decides an arithmetic command, a test or let: it runs no
// program, but a word holding an array subscript with command text runs
// that text when bash evaluates the subscript.
func (c *checker) evaluation(x syntax.Command, cx ctx) {
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
}

// coproc decides a coprocess, which reads what the shell later writes
// to it. Its name (COPROC when none is given) is assigned the file
// descriptors.
func (c *checker) coproc(x *syntax.CoprocClause, cx ctx) {
	name := "COPROC"
	if x.Name != nil && x.Stmt != nil && x.Stmt.Cmd == nil {
		// coproc cat <<< w: the parser reads cat as the name and the
		// rest as a statement of redirections alone, where bash names
		// a coprocess only before a compound command and runs cat as
		// the simple command.
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

// visit is syntax.Walk's visitor for node: it decides the commands of
// substitutions, and asks for the expansions known.go does not model.
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

// call decides a simple command: its assignments, then, if it has
// words, the program they run.
func (c *checker) call(x *syntax.CallExpr, cx ctx, stdinR *syntax.Redirect) {
	before := len(c.parts)
	for _, a := range x.Assigns {
		c.node(a, cx)
	}
	for _, w := range x.Args {
		c.node(w, cx)
	}
	st := c.newPartState(cx, stdinR)
	defer c.releasePartState()
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
