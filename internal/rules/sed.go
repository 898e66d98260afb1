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
