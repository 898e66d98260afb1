package rules

import (
	"fmt"
	"strings"
)

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
