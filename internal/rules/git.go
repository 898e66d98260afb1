package rules

import (
	"fmt"
	"strings"
)

// git decides git: its global options and aliases are read, the
// commands some subcommands run are parts of their own, and rules match
// the command both as written and with the global options skipped.
func (c *checker) git(st *partState, name string, cur []word) {
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
}

// gitCommands reads the commands some git subcommands run: submodule
// foreach's shell string, rebase's --exec and bisect run's command are
// decided as parts of their own; options that name a program git runs
// (--upload-pack, --receive-pack, difftool's --extcmd, filter-branch's
// filters) keep the part from being allowed by the subcommand's rule.
func (c *checker) gitCommands(st *partState, ws []word) {
	if len(ws) < 2 || !ws[1].Known {
		return
	}
	sub := ws[1].Text
	args := ws[2:]
	next := ctx{depth: st.cx.depth + 1}
	switch sub {
	case "submodule":
		for i, a := range args {
			if a.Known && a.Text == "foreach" {
				rest := args[i+1:]
				for len(rest) > 0 && rest[0].Known && strings.HasPrefix(rest[0].Text, "-") {
					rest = rest[1:]
				}
				c.codeWords(st, nil, rest, "git submodule foreach")
				return
			}
		}
	case "rebase":
		for i, a := range args {
			switch {
			case a.Known && (a.Text == "-x" || a.Text == "--exec") && i+1 < len(args):
				c.codeWords(st, nil, args[i+1:i+2], "git rebase --exec")
			case a.Known && strings.HasPrefix(a.Text, "--exec="):
				c.code(strings.TrimPrefix(a.Text, "--exec="), next, "git rebase --exec")
			case !a.Known && strings.HasPrefix(a.Text, "-"):
				st.soft = append(st.soft, "an option of git rebase is known only when it runs")
			}
		}
	case "bisect":
		if len(args) > 1 && args[0].Known && args[0].Text == "run" {
			inner := &partState{cx: st.cx, hard: append([]string(nil), st.hard...), words: args[1:]}
			c.decide(inner, args[1:])
		}
	case "filter-branch":
		st.soft = append(st.soft, "git filter-branch runs the shell commands of its filters")
	case "config":
		if r := gitConfigSets(args); r != "" {
			st.hard = append(st.hard, r)
		}
	}
	for _, a := range args {
		t := a.Text
		for _, o := range []string{"--upload-pack", "--receive-pack", "--exec", "--extcmd", "-u", "--config"} {
			if t == o || strings.HasPrefix(t, o+"=") {
				if sub == "rebase" && o == "--exec" {
					continue
				}
				if o == "-u" && sub != "clone" {
					continue
				}
				st.soft = append(st.soft, fmt.Sprintf("git %s %s names a program or configuration git runs", sub, o))
			}
		}
		if sub == "difftool" || sub == "mergetool" {
			if t == "-x" || t == "-t" || strings.HasPrefix(t, "--tool=") {
				st.soft = append(st.soft, fmt.Sprintf("git %s %s names a program git runs", sub, t))
			}
		}
	}
}
