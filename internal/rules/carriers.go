package rules

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

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

// shell decides bash, sh and their kin: the -c string is read as code,
// a here-document or here-string on stdin too; a script file is decided
// by the shell's name; code from a pipe or file is not seen.
func (c *checker) shell(st *partState, name string, cur []word) {
	if st.noPATH {
		st.hard = append(st.hard, "env -i clears PATH, and a shell started without one looks for its programs in a default PATH whose last entry is the working directory")
	}
	o, ok := readShellOptions(cur)
	if !ok {
		c.ruleCands(st, cur)
		c.unknown(st, fmt.Sprintf("the options of %s are known only when it runs", name))
		return
	}
	rest := cur[o.end:]
	if o.command {
		if len(rest) == 0 {
			c.final(st, cur, nil)
			return
		}
		c.codeWords(st, cur, rest[:1], name+" -c")
		return
	}
	if !o.stdin && len(rest) > 0 {
		c.script(st, name, cur, rest[0], true)
		return
	}
	c.stdinCode(st, name, cur, true)
}

// shellOptions is what a shell's options say.
type shellOptions struct {
	// end is the index of the first word after the options.
	end int
	// command: -c, the first operand is code; stdin: -s, the code is
	// read from stdin.
	command, stdin bool
}

// readShellOptions reads the options of the shell command cur; false
// when one is known only when it runs.
func readShellOptions(cur []word) (shellOptions, bool) {
	var o shellOptions
	i := 1
loop:
	for i < len(cur) {
		w := cur[i]
		if !w.Known {
			if w.Split || strings.HasPrefix(w.Text, "-") || strings.HasPrefix(w.Text, "+") {
				return o, false
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
			i += o.readFlags(t[1:])
		default:
			break loop
		}
		i++
	}
	o.end = min(i, len(cur))
	return o, true
}

// readFlags reads a cluster of one-letter shell options (-ec, +o) into
// o, and returns how many words the options that take one (-o, -O)
// use.
func (o *shellOptions) readFlags(letters string) int {
	values := 0
	for _, l := range letters {
		switch l {
		case 'c':
			o.command = true
		case 's':
			o.stdin = true
		case 'o', 'O':
			values++
		}
	}
	return values
}

// isStdinPath reports whether p names the process's stdin.
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

// trap reads the code trap sets for a signal.
func (c *checker) trap(st *partState, name string, cur []word) {
	c.builtinForms(st, name, cur)
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

// watch decides the command watch runs again and again: its words as a
// command with -x, else joined into code for sh -c.
func (c *checker) watch(st *partState, _ string, cur []word) {
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

// find decides each command of -exec, -execdir, -ok and -okdir on its
// own, and find itself by its name.
func (c *checker) find(st *partState, _ string, cur []word) {
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

// spillway reads the command of spillway bash; any other spillway
// command is decided as a runner.
func (c *checker) spillway(st *partState, name string, cur []word) {
	if len(cur) > 2 && cur[1].Known && cur[1].Text == "bash" {
		c.spillwayBash(st, cur)
		return
	}
	c.decideProgram(st, name, programKinds[name], cur)
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

// at decides at and batch, which read the commands they schedule from
// stdin or from the file of -f.
func (c *checker) at(st *partState, name string, cur []word) {
	for _, a := range cur[1:] {
		if !a.Known || a.Text == "-f" || strings.HasPrefix(a.Text, "-f") && len(a.Text) > 2 {
			st.soft = append(st.soft, name+" schedules the commands of a file, known only when they run")
			c.final(st, cur, nil)
			return
		}
	}
	c.stdinCode(st, name, cur, true)
}

// sg decides sg GROUP COMMAND, which hands COMMAND to /bin/sh -c; sg
// with fewer words is decided as any program.
func (c *checker) sg(st *partState, name string, cur []word) {
	if len(cur) < 3 {
		c.decideProgram(st, name, programKinds[name], cur)
		return
	}
	c.privileged(st, name, cur)
	c.codeWords(st, cur, cur[len(cur)-1:], "sg")
}
