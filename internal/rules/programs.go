package rules

import (
	"fmt"
	"strings"
)

// A programKind is what the checker knows of one program name, found
// with one lookup: most parts name a program no table lists. Its kind
// comes from wrappers, shells, otherShells, runners and interpreters;
// what the checker reads in the words of the programs that run code or
// whose words say more than their name comes from readPrograms.
type programKind struct {
	shell      bool
	otherShell bool
	runner     string
	interp     *interpreter
	// runs returns the command the program runs, decided in turn (a
	// wrapper's, xargs'), or nil when it has added the part itself.
	runs func(c *checker, st *partState, name string, cur []word) []word
	// decide adds the part of a program whose words the checker reads
	// (the code a shell or eval runs, git's subcommands).
	decide func(c *checker, st *partState, name string, cur []word)
	// notes adds what the program's words say (a sed script that runs
	// commands, hash -p) before it is decided as any program is.
	notes func(c *checker, st *partState, name string, cur []word)
}

// interpreter returns the interpreter named base, whose kind is k.
func (k programKind) interpreter(base string) *interpreter {
	if k.interp != nil {
		return k.interp
	}
	if isPythonName(base) {
		return pythonInterp
	}
	return nil
}

// programKinds holds every program name the checker knows something
// of. It is filled in init: the programs that run a command decide it
// in turn, which looks programs up here.
var programKinds = map[string]programKind{}

func init() {
	set := func(name string, f func(*programKind)) {
		k := programKinds[name]
		f(&k)
		programKinds[name] = k
	}
	for n := range wrappers {
		set(n, func(k *programKind) { k.runs = (*checker).wrapped })
	}
	for n, ok := range shells {
		set(n, func(k *programKind) { k.shell, k.decide = ok, (*checker).shell })
	}
	for n, ok := range otherShells {
		set(n, func(k *programKind) { k.otherShell = ok })
	}
	for n, r := range runners {
		set(n, func(k *programKind) { k.runner = r })
	}
	for n, in := range interpreters {
		set(n, func(k *programKind) { k.interp = in })
	}
	for n, p := range readPrograms {
		set(n, func(k *programKind) { k.runs, k.decide, k.notes = p.runs, p.decide, p.notes })
	}
}

// readPrograms are the programs whose words the checker reads past
// their name: the command or code they run, or the options that make
// them run more than they seem to.
var readPrograms = map[string]programKind{
	"git":       {decide: (*checker).git},
	"at":        {decide: (*checker).at},
	"batch":     {decide: (*checker).at},
	"spillway":  {decide: (*checker).spillway},
	"sg":        {decide: (*checker).sg},
	"eval":      {decide: (*checker).eval},
	"trap":      {decide: (*checker).trap},
	"alias":     {decide: (*checker).alias},
	"watch":     {decide: (*checker).watch},
	"xargs":     {runs: (*checker).xargs},
	"find":      {decide: (*checker).find},
	"source":    {decide: (*checker).source},
	".":         {decide: (*checker).source},
	"sed":       {notes: (*checker).sedNotes},
	"gsed":      {notes: (*checker).sedNotes},
	"hash":      {notes: (*checker).hashNotes},
	"enable":    {notes: (*checker).enableNotes},
	"mapfile":   {notes: (*checker).mapfileCallback},
	"readarray": {notes: (*checker).mapfileCallback},
}

// builtinWrappers are the wrappers that are bash's builtins: they run
// no program of their own.
var builtinWrappers = map[string]bool{"command": true, "builtin": true, "exec": true}

// builtinCarriers are the carriers of code that are bash's builtins.
var builtinCarriers = map[string]bool{"eval": true, "trap": true}

// decide sees through the wrappers of one simple command, reads the
// code it hands to a shell, and decides what is left.
func (c *checker) decide(st *partState, ws []word) {
	cur := ws
	for {
		name, ok := c.programOf(st, cur)
		if !ok {
			return
		}
		kind := programKinds[name]
		switch {
		case kind.runs != nil:
			if cur = kind.runs(c, st, name, cur); cur == nil {
				return
			}
		case kind.decide != nil:
			kind.decide(c, st, name, cur)
			return
		default:
			c.decideProgram(st, name, kind, cur)
			return
		}
	}
}

// programOf returns the name of the program cur runs, or false when it
// has added the part because no name can say what runs: no word is
// left, the name is known only when it runs, or it names a function or
// alias of the input.
func (c *checker) programOf(st *partState, cur []word) (string, bool) {
	if len(cur) == 0 {
		c.unknown(st, "no command is left after the wrapper's options")
		return "", false
	}
	prog := cur[0]
	if !prog.BaseKnown || prog.Base == "" {
		c.unknown(st, fmt.Sprintf("the program %s is known only when it runs", prog.Text))
		return "", false
	}
	if prog.Known && !strings.Contains(prog.Text, "/") && c.defined[prog.Text] {
		c.unknown(st, fmt.Sprintf("%s is a function or alias defined in this input: its name says nothing of what it runs", prog.Text))
		return "", false
	}
	return programName(prog.Base), true
}

// decideProgram decides a program by the rules that name it, once what
// its kind, its builtin form, the files it writes or unpacks and the
// input it reads say of it are noted.
func (c *checker) decideProgram(st *partState, name string, kind programKind, cur []word) {
	switch {
	case kind.otherShell:
		st.soft = append(st.soft, name+" runs code in a language that is not bash's, which cannot be read here")
	case kind.runner != "":
		st.soft = append(st.soft, kind.runner)
	case kind.notes != nil:
		kind.notes(c, st, name, cur)
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
}

// eval reads eval's words joined by spaces as code.
func (c *checker) eval(st *partState, _ string, cur []word) {
	args := cur[1:]
	if len(args) > 0 && args[0].Known && args[0].Text == "--" {
		args = args[1:]
	}
	c.codeWords(st, cur, args, "eval")
}

// alias reads the value of each alias defined as code, and decides
// alias itself by its name.
func (c *checker) alias(st *partState, _ string, cur []word) {
	for _, a := range cur[1:] {
		if n, v, ok := strings.Cut(a.Text, "="); ok && a.Known {
			c.code(v, ctx{depth: st.cx.depth + 1}, "alias "+n)
		}
	}
	c.final(st, cur, nil)
}

// source decides source and ., which run a script file in this shell.
func (c *checker) source(st *partState, name string, cur []word) {
	c.builtinForms(st, name, cur)
	if len(cur) < 2 {
		c.final(st, cur, nil)
		return
	}
	c.script(st, name, cur, cur[1], true)
}

// hashNotes notes hash -p, which binds a name to another program.
func (c *checker) hashNotes(st *partState, _ string, cur []word) {
	for _, a := range cur[1:] {
		if a.Known && strings.HasPrefix(a.Text, "-") && strings.Contains(a.Text, "p") || !a.Known {
			st.hard = append(st.hard, "hash -p binds a name to another program for the commands that follow")
			break
		}
	}
}

// enableNotes notes that enable can change what a builtin's name runs.
func (c *checker) enableNotes(st *partState, _ string, _ []word) {
	st.hard = append(st.hard, "enable can load builtins from a shared object or unmask programs named like builtins")
}

// mapfileCallback reads the code mapfile's -C runs for the lines it
// reads.
func (c *checker) mapfileCallback(st *partState, name string, cur []word) {
	for i, a := range cur {
		if a.Known && a.Text == "-C" && i+1 < len(cur) {
			c.codeWords(st, nil, cur[i+1:i+2], name+" -C")
		}
	}
}
