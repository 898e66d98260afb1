package rules

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// wrapped sees through a wrapper: it returns the command the wrapper
// runs, or nil when it has added the part (the wrapper runs none of its
// words, or what it runs is not known).
func (c *checker) wrapped(st *partState, name string, cur []word) []word {
	if privilegeWrappers[name] {
		c.privileged(st, name, cur)
	}
	if !builtinWrappers[name] {
		st.viaProgram = true
	}
	next, ok := c.unwrap(st, wrappers[name], name, cur)
	if ok && next == nil {
		c.final(st, cur, nil)
	}
	return next
}

// unwrap skips a wrapper's options and returns the command it runs; nil
// with ok when it runs none of its arguments (decide the wrapper), or
// !ok when the part has been added already.
func (c *checker) unwrap(st *partState, w *wrapper, name string, cur []word) ([]word, bool) {
	c.ruleCands(st, cur)
	if w.multiCall {
		return c.applet(st, name, cur)
	}
	if name == "su" || name == "runuser" || name == "script" {
		return c.sessionCommand(st, w, name, cur)
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
		envOptions(st, seen)
	}
	if w.assigns {
		end = skipAssigns(st, name, cur, end)
	}
	end += w.positional
	if name == "flock" && end < len(cur) && cur[end].Known && (cur[end].Text == "-c" || cur[end].Text == "--command") {
		c.codeWords(st, cur, cur[end+1:min(end+2, len(cur))], "flock -c")
		return nil, false
	}
	if end >= len(cur) {
		if startsShell(name, seen) {
			st.interactive = true
		}
		return nil, true
	}
	return cur[end:], true
}

// applet returns the command a multi-call binary runs (busybox sh …):
// nil with ok when its words name no applet, !ok when the part has been
// added because the applet is known only when it runs.
func (c *checker) applet(st *partState, name string, cur []word) ([]word, bool) {
	if len(cur) >= 2 && !cur[1].Known {
		c.unknown(st, fmt.Sprintf("the program %s runs is known only when it runs", name))
		return nil, false
	}
	if len(cur) < 2 || strings.HasPrefix(cur[1].Text, "-") {
		return nil, true
	}
	st.hard = append(st.hard, fmt.Sprintf("%s is a multi-call binary: its %s applet is not the program a rule names", name, cur[1].Text))
	return cur[1:], true
}

// sessionCommand decides the command string of su, runuser and script,
// looked for anywhere in their words: their options may follow the user
// name or file. Without one they start an interactive shell.
func (c *checker) sessionCommand(st *partState, w *wrapper, name string, cur []word) ([]word, bool) {
	for i := 1; i < len(cur); i++ {
		if !cur[i].Known && strings.HasPrefix(cur[i].Text, "-") {
			c.unknown(st, fmt.Sprintf("the options of %s are known only when it runs", name))
			return nil, false
		}
		if code, via := codeOptionAt(w, name, cur, i); code != nil {
			c.codeWords(st, cur, code, via)
			return nil, false
		}
	}
	st.interactive = true
	return nil, true
}

// codeOptionAt returns the command string the option cur[i] gives, and
// the option named as the code's carrier; nil when it gives none.
func codeOptionAt(w *wrapper, name string, cur []word, i int) ([]word, string) {
	t := cur[i].Text
	// A cluster of flags may end in c (script -qc CMD) or give its value
	// glued (su -c'cmd').
	if len(t) > 2 && t[0] == '-' && t[1] != '-' {
		if j := strings.IndexByte(t, 'c'); j > 0 {
			if j < len(t)-1 {
				return []word{{Text: t[j+1:], Known: true}}, name + " -c"
			}
			if i+1 < len(cur) {
				return cur[i+1 : i+2], name + " -c"
			}
		}
	}
	for _, o := range w.codeOpt {
		if t == o && i+1 < len(cur) {
			return cur[i+1 : i+2], name + " " + o
		}
		if strings.HasPrefix(o, "--") && strings.HasPrefix(t, o+"=") {
			return []word{{Text: t[len(o)+1:], Known: cur[i].Known}}, name + " " + o
		}
	}
	return nil, ""
}

// envOptions notes what env's options do to the command's environment:
// -i clears PATH with the rest, -u unsets a variable of either list.
func envOptions(st *partState, seen map[string]string) {
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

// skipAssigns notes the NAME=value words that come before a wrapper's
// command (env, sudo) from end on, and returns the index of the first
// word after them.
func skipAssigns(st *partState, name string, cur []word, end int) int {
	for end < len(cur) && cur[end].Known {
		n, v, ok := strings.Cut(cur[end].Text, "=")
		// env takes any word with = for an assignment, names bash would
		// not take among them (BASH_FUNC_ls%%).
		if !ok || n == "" || !syntax.ValidName(n) && name != "env" {
			break
		}
		if r := assignRisk(n, v, true); r != "" {
			st.hard = append(st.hard, r)
		}
		end++
	}
	return end
}

// startsShell reports whether a wrapper given no command starts a shell
// reading the caller's stdin (chroot, sudo -i, doas -s).
func startsShell(name string, seen map[string]string) bool {
	_, login := seen["-i"]
	_, shell := seen["-s"]
	return name == "chroot" || (name == "sudo" || name == "doas") && (login || shell)
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

// xargs returns the command xargs runs, with the words it reads from
// stdin standing as unknown words, or nil when it has added the part.
func (c *checker) xargs(st *partState, _ string, cur []word) []word {
	st.viaProgram = true
	spec := optSpec{argShort: "aEIdLnPs", flagShort: "0oprtxiel", argLong: []string{"arg-file", "delimiter", "max-args", "max-procs", "max-chars", "process-slot-var"},
		flagLong: []string{"null", "open-tty", "interactive", "no-run-if-empty", "verbose", "exit", "show-limits", "eof", "replace", "max-lines"}}
	c.ruleCands(st, cur)
	// -i, -e and -l take an optional value glued to them, so they are
	// flags here; -I's value is the replacement string.
	end, seen, err := spec.skipOptions(cur, 1)
	if err != nil {
		c.unknown(st, "xargs: "+err.Error())
		return nil
	}
	if end >= len(cur) {
		c.final(st, cur, nil)
		return nil
	}
	repl := xargsReplace(seen)
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
	return out
}

// xargsReplace is the string xargs replaces by what it reads (-I, -i,
// --replace), or "" when it appends what it reads to the command.
func xargsReplace(seen map[string]string) string {
	if v, ok := seen["-I"]; ok {
		return v
	}
	if _, ok := seen["-i"]; ok {
		return "{}"
	}
	if v, ok := seen["--replace"]; ok {
		if v == "" {
			return "{}"
		}
		return v
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
