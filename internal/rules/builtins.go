package rules

import (
	"fmt"
	"strings"
)

// builtinForms adds to st the reasons a builtin's own effect keeps the
// part from being allowed: the builtins that assign variables (read,
// mapfile, printf -v, getopts, wait -p, unset, declare and its kin run
// as commands), evaluate arithmetic (test's -eq), change how bash reads
// or runs later commands (set, shopt, source, trap), or are not
// modelled at all (compgen, complete, bind, fc). A rule that allows the
// builtin by name does not lift these: an allow of read * allows reading
// into a variable, never into PATH.
func (c *checker) builtinForms(st *partState, name string, cur []word) {
	args := cur[1:]
	if r, ok := unmodelledBuiltins[name]; ok {
		st.hard = append(st.hard, r)
		return
	}
	switch name {
	case "read":
		c.assignsNames(st, c.readNames(st, name, args, "adinNptu", "a", "ers", "REPLY"))
	case "mapfile", "readarray":
		c.assignsNames(st, c.readNames(st, name, args, "dnOsuCc", "", "t", "MAPFILE"))
	case "printf":
		c.printfForms(st, args)
	case "getopts":
		st.hard = append(st.hard, listedVar("OPTIND"))
		if len(args) > 1 {
			c.assignsName(st, args[1])
		}
	case "wait":
		names, _ := c.optNames(st, name, args, "p", "p", "fn")
		c.assignsNames(st, names)
	case "unset":
		c.unsetForms(st, args)
	case "declare", "typeset", "local", "export", "readonly":
		c.declareForms(st, name, args)
	case "set":
		c.setOptions(st, args)
		st.noProgram = "it sets shell options whose effect spillway models, and runs no program"
	case "shopt":
		c.shoptOptions(st, args)
		st.noProgram = "it sets shell options whose effect spillway models, and runs no program"
	case "trap":
		if len(args) >= 2 && !(args[0].Known && (args[0].Text == "-" || args[0].Text == "" || strings.HasPrefix(args[0].Text, "-"))) {
			st.hard = append(st.hard, "trap sets code that runs later, at times spillway does not model (in a named session, during later calls too)")
		}
	case "test", "[":
		st.noProgram = "it tests values known before it runs, and runs no program"
		c.testForms(st, args)
	}
}

// unmodelledBuiltins are the builtins whose effect is never modelled,
// with the reason each keeps a part from being allowed.
var unmodelledBuiltins = map[string]string{
	"source":   "source runs the commands of a file in this shell, which spillway does not read",
	".":        ". runs the commands of a file in this shell, which spillway does not read",
	"compgen":  "compgen can run code of its word lists (-W), commands (-C) and functions (-F)",
	"complete": "complete can run code of its word lists (-W), commands (-C) and functions (-F)",
	"compopt":  "compopt can run code of its word lists (-W), commands (-C) and functions (-F)",
	"bind":     "bind can make keys run shell commands (-x)",
	"fc":       "fc runs an editor and commands from the history",
}

// readNames is the variables read or mapfile assigns: the names its
// options and arguments give, else the default one (REPLY, MAPFILE).
func (c *checker) readNames(st *partState, name string, args []word, argLetters, nameLetters, flagLetters, deflt string) []word {
	names, ok := c.optNames(st, name, args, argLetters, nameLetters, flagLetters)
	if ok && len(names) == 0 {
		return []word{{Text: deflt, Known: true}}
	}
	return names
}

// assignsNames holds each of names to assignsName.
func (c *checker) assignsNames(st *partState, names []word) {
	for _, w := range names {
		c.assignsName(st, w)
	}
}

// printfForms checks printf's only option, -v NAME, which comes first.
func (c *checker) printfForms(st *partState, args []word) {
	if len(args) == 0 {
		return
	}
	switch t := args[0].Text; {
	case !args[0].Known:
		if strings.HasPrefix(t, "-") || args[0].Split {
			st.hard = append(st.hard, "an option of printf is known only when it runs")
		}
	case t == "-v":
		if len(args) > 1 {
			c.assignsName(st, args[1])
		}
	case strings.HasPrefix(t, "-v"):
		c.assignsName(st, word{Text: t[2:], Known: true})
	}
}

// unsetForms checks the variables unset removes; after -f its words
// name functions.
func (c *checker) unsetForms(st *partState, args []word) {
	funcs := false
	for _, w := range args {
		switch {
		case !w.Known && (strings.HasPrefix(w.Text, "-") || w.Split):
			st.hard = append(st.hard, "an option of unset is known only when it runs")
		case w.Known && strings.HasPrefix(w.Text, "-") && len(w.Text) > 1:
			funcs = funcs || strings.Contains(w.Text, "f")
		case funcs:
		default:
			c.assignsName(st, w)
		}
	}
}

// declareForms checks declare and its kin run as a command (builtin
// declare …, command export …) rather than read as a declaration.
func (c *checker) declareForms(st *partState, name string, args []word) {
	if name == "readonly" {
		st.hard = append(st.hard, "readonly keeps a variable from being assigned again")
	}
	printOnly := false
	for _, w := range args {
		if !w.Known {
			st.hard = append(st.hard, fmt.Sprintf("an argument of %s is known only when it runs", name))
			continue
		}
		t := w.Text
		if len(t) > 1 && (t[0] == '-' || t[0] == '+') {
			r, p := declFlags(name, t)
			if r != "" {
				st.hard = append(st.hard, r)
			}
			printOnly = printOnly || p
			continue
		}
		c.declaredWord(st, t, printOnly)
	}
}

// declaredWord checks one NAME or NAME=value argument of declare and
// its kin; printOnly is set when an option made the builtin print
// rather than assign.
func (c *checker) declaredWord(st *partState, t string, printOnly bool) {
	n, v, ok := strings.Cut(t, "=")
	if r := assignRisk(n, v, ok); r != "" {
		st.hard = append(st.hard, r)
	}
	if r := c.subscriptText(n); r != "" {
		st.hard = append(st.hard, r)
	}
	if !printOnly {
		c.intAssigned(n, false, false)
	}
}

// testForms checks test's operands: the two sides of an arithmetic
// comparison (-eq, -lt, …) are evaluated as arithmetic, and -v and -R
// take a variable name.
func (c *checker) testForms(st *partState, args []word) {
	for i, w := range args {
		if !w.Known {
			continue
		}
		if isArithTest(w.Text) {
			for _, j := range []int{i - 1, i + 1} {
				if j < 0 || j >= len(args) {
					continue
				}
				if r := c.testOperand(args[j]); r != "" {
					st.hard = append(st.hard, r)
				}
			}
		}
		if (w.Text == "-v" || w.Text == "-R") && i+1 < len(args) {
			if r := c.nameArg(args[i+1]); r != "" {
				st.hard = append(st.hard, r)
			}
		}
	}
}

// testOperand is the reason an operand of test's -eq is not known.
func (c *checker) testOperand(w word) string {
	if !w.Known {
		if strings.HasPrefix(w.Text, "$") && syntaxName(w.Text[1:]) || strings.HasPrefix(w.Text, `"$`) && strings.HasSuffix(w.Text, `"`) && syntaxName(w.Text[2:len(w.Text)-1]) {
			n := strings.Trim(w.Text, `"$`)
			return c.intVar(strings.Trim(n, "{}"))
		}
		return fmt.Sprintf("the value of %s is evaluated as arithmetic and is not known to be an integer", w.Text)
	}
	return c.arithText(w.Text)
}

// syntaxName reports whether s is a variable name, or one in braces.
func syntaxName(s string) bool {
	s = strings.TrimSuffix(strings.TrimPrefix(s, "{"), "}")
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		ch := s[i]
		if !(ch == '_' || ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || i > 0 && ch >= '0' && ch <= '9') {
			return false
		}
	}
	return true
}

// optNames reads a builtin's options: argLetters take a value, and the
// value of one of nameLetters is a variable name; flagLetters take
// none. It returns the variable names among the values and the words
// after the options; ok is false when an option is not known (a hard
// reason is added).
func (c *checker) optNames(st *partState, name string, args []word, argLetters, nameLetters, flagLetters string) ([]word, bool) {
	var names []word
	i := 0
	for ; i < len(args); i++ {
		w := args[i]
		if !w.Known {
			if strings.HasPrefix(w.Text, "-") || w.Split {
				st.hard = append(st.hard, fmt.Sprintf("an option of %s is known only when it runs", name))
				return nil, false
			}
			break
		}
		t := w.Text
		if t == "--" {
			i++
			break
		}
		if len(t) < 2 || t[0] != '-' {
			break
		}
		for j := 1; j < len(t); j++ {
			l := t[j]
			switch {
			case strings.IndexByte(argLetters, l) >= 0:
				v, next, ok := optValue(args, i, t, j)
				if !ok {
					return names, true
				}
				i = next
				if strings.IndexByte(nameLetters, l) >= 0 {
					names = append(names, v)
				}
				j = len(t)
			case strings.IndexByte(flagLetters, l) >= 0:
			default:
				st.hard = append(st.hard, fmt.Sprintf("the option -%c of %s is not one spillway models", l, name))
				return nil, false
			}
		}
	}
	if name == "wait" {
		return names, true
	}
	return append(names, args[i:]...), true
}

// optValue is the value of the option letter t[j] of the word args[i]:
// the rest of the word, else the next word. next is the index of the
// last word used; ok is false when the words end before a value.
func optValue(args []word, i int, t string, j int) (v word, next int, ok bool) {
	if j+1 < len(t) {
		return word{Text: t[j+1:], Known: true}, i, true
	}
	v, next = nextWord(args, i)
	return v, next, next > i
}

// setOptions checks set's options against the ones whose effect is
// known: -e, -u, -x, -v, -f, -C and their long names, and pipefail.
// set -a exports every later assignment, -k makes NAME=value words of
// any command assignments, and the rest change how bash reads or runs.
func (c *checker) setOptions(st *partState, args []word) {
	for i := 0; i < len(args); i++ {
		w := args[i]
		if !w.Known {
			if strings.HasPrefix(w.Text, "-") || strings.HasPrefix(w.Text, "+") || w.Split {
				st.hard = append(st.hard, "an option of set is known only when it runs")
			}
			return
		}
		t := w.Text
		if t == "--" || t == "-" || len(t) < 2 || t[0] != '-' && t[0] != '+' {
			return // the rest are positional parameters
		}
		for _, l := range t[1:] {
			switch l {
			case 'e', 'u', 'x', 'v', 'f', 'C', 'h', 'B':
			case 'o':
				if i+1 >= len(args) {
					continue // set -o prints the options
				}
				i++
				switch args[i].Text {
				case "errexit", "nounset", "xtrace", "verbose", "noglob", "noclobber", "pipefail", "hashall", "braceexpand":
				default:
					st.hard = append(st.hard, fmt.Sprintf("set -o %s is not an option whose effect spillway models", args[i].Text))
				}
			case 'a':
				st.hard = append(st.hard, "set -a exports every variable assigned later, to every program run after it")
			case 'k':
				st.hard = append(st.hard, "set -k makes NAME=value words anywhere in a command assignments to its environment")
			default:
				st.hard = append(st.hard, fmt.Sprintf("set -%c is not an option whose effect spillway models", l))
			}
		}
	}
}

// shoptOptions allows printing and the globbing and matching options;
// the rest (expand_aliases, extdebug, sourcepath, …) change what later
// commands run.
func (c *checker) shoptOptions(st *partState, args []word) {
	for _, w := range args {
		if !w.Known {
			st.hard = append(st.hard, "an argument of shopt is known only when it runs")
			return
		}
		switch w.Text {
		case "-s", "-u", "-p", "-q", "-o", "nullglob", "dotglob", "globstar", "failglob", "nocaseglob", "nocasematch",
			"extglob", "lastpipe", "inherit_errexit", "globasciiranges", "checkwinsize", "pipefail", "errexit", "nounset", "xtrace", "noglob":
		default:
			st.hard = append(st.hard, fmt.Sprintf("shopt %s is not an option whose effect spillway models", w.Text))
		}
	}
}
