package rules

import (
	"fmt"
	"strings"
)

// interp decides an interpreter of another language: code given inline
// or through stdin is not read, so it is ask unless a rule allows the
// interpreter by name; a script file is decided by the name.
func (c *checker) interp(st *partState, name string, in *interpreter, cur []word) {
	progFile := false
	for i := 1; i < len(cur); i++ {
		w := cur[i]
		t := w.Text
		if !w.Known && (w.Split || strings.HasPrefix(t, "-")) {
			st.soft = append(st.soft, fmt.Sprintf("the arguments of %s are known only when it runs", name))
			c.final(st, cur, nil)
			return
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
				progFile = programFile(st, name, in, t) || progFile
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

// programFile notes the option t of an interpreter whose first word is
// its program (awk) when it is -f, a program file, and reports whether
// it is.
func programFile(st *partState, name string, in *interpreter, t string) bool {
	if t != "-f" || !in.program {
		return false
	}
	// As sed -f: the program in the file is not read, and awk's system()
	// and | run any program.
	st.soft = append(st.soft, fmt.Sprintf("%s runs a program file (-f) spillway does not read, and an awk program can start any program", name))
	return true
}

// interpFirst decides an interpreter by its first word that is not an
// option: the program of awk, or the script file of the others.
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

// isInline reports whether t is an option of in whose value is code.
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
