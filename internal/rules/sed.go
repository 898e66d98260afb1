package rules

import (
	"strings"
)

// sedNotes notes a sed script that may run commands.
func (c *checker) sedNotes(st *partState, _ string, cur []word) {
	if sedRuns(cur[1:]) {
		st.soft = append(st.soft, "the sed script may run commands (the e command or the s///e flag)")
	}
}

// sedRuns reports whether a sed command line may execute commands: GNU
// sed's e command and the e flag of s, found in any script given with
// -e, --expression= or as the first word that is not an option. A
// script file (-f) or an expansion is not read, so it counts as may.
func sedRuns(args []word) bool {
	first := true
	for i := 0; i < len(args); i++ {
		if !args[i].Known {
			return true
		}
		t := args[i].Text
		script := ""
		switch {
		case strings.HasPrefix(t, "--expression="):
			script = strings.TrimPrefix(t, "--expression=")
			first = false
		case t == "-f" || strings.HasPrefix(t, "--file") || len(t) > 1 && t[0] == '-' && t[1] != '-' && strings.Contains(t, "f"):
			return true
		case t == "--expression" || len(t) > 1 && t[0] == '-' && t[1] != '-' && strings.HasSuffix(t, "e"):
			// -e SCRIPT, -ne SCRIPT
			first = false
			if i+1 >= len(args) {
				continue
			}
			i++
			if !args[i].Known {
				return true
			}
			script = args[i].Text
		case len(t) > 1 && t[0] == '-':
		case first:
			script = t
			first = false
		}
		if sedScriptRuns(script) {
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
		case !start:
		case ch == ' ' || ch == '\t' || ch == '!' || ch == ',' || ch == '$' || ch >= '0' && ch <= '9' || ch == '~':
		case ch == '/' || ch == '\\':
			i = sedAddressEnd(sc, i)
		case ch == 'e':
			return true
		case (ch == 's' || ch == 'y') && i+1 < len(sc):
			runs, end := sedReplaceRuns(sc, i)
			if runs {
				return true
			}
			i = end
			start = false
		case strings.IndexByte("aicrwRWbtT:", ch) >= 0:
			// A command whose argument runs to the end of the line.
			if j := strings.IndexByte(sc[i:], '\n'); j >= 0 {
				i += j - 1
			} else {
				i = len(sc) - 1
			}
			start = false
		default:
			start = false
		}
	}
	return false
}

// sedAddressEnd returns the index of the delimiter that ends the
// address /re/ or \cREc starting at sc[i].
func sedAddressEnd(sc string, i int) int {
	delim := sc[i]
	if delim == '\\' && i+1 < len(sc) {
		i++
		delim = sc[i]
	}
	for i++; i < len(sc) && sc[i] != delim; i++ {
		if sc[i] == '\\' {
			i++
		}
	}
	return i
}

// sedReplaceRuns reads the s or y command at sc[i]: it reports whether
// an s command's flags hold e, and returns the index of the last byte
// of the command.
func sedReplaceRuns(sc string, i int) (bool, int) {
	ch, delim := sc[i], sc[i+1]
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
			return true, i
		}
		if sc[i] == 'w' {
			break
		}
	}
	return false, i - 1
}
