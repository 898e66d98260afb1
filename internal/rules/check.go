package rules

import (
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// DefaultMaxDepth bounds how many levels of shell code held in strings
// (bash -c '…', eval '…', a here-document fed to sh) are read when the
// Set does not say. Code nested deeper is ask: each level needs another
// round of quoting, so real commands stay far below it.
const DefaultMaxDepth = 4

// maxDepth is how many levels of nested shell code s reads.
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
	// states holds the partStates of the simple commands being decided
	// (the first statesUsed) and spare ones, reused from one command to
	// the next: a state is handed to the functions of programKinds, so it
	// cannot live on the stack, and a long input has thousands of parts.
	states     []*partState
	statesUsed int
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

// clip shortens text shown in a part.
func clip(s string) string {
	const max = 200
	if len(s) > max {
		return s[:max] + "…"
	}
	return s
}
