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
	switch sub {
	case "submodule":
		if c.submoduleForeach(st, args) {
			return
		}
	case "rebase":
		c.rebaseExec(st, args)
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
	gitProgramOptions(st, sub, args)
}

// submoduleForeach reads the shell string of git submodule foreach as
// code, and reports whether args hold one.
func (c *checker) submoduleForeach(st *partState, args []word) bool {
	for i, a := range args {
		if a.Known && a.Text == "foreach" {
			rest := args[i+1:]
			for len(rest) > 0 && rest[0].Known && strings.HasPrefix(rest[0].Text, "-") {
				rest = rest[1:]
			}
			c.codeWords(st, nil, rest, "git submodule foreach")
			return true
		}
	}
	return false
}

// rebaseExec reads the commands of git rebase's --exec options as code.
func (c *checker) rebaseExec(st *partState, args []word) {
	for i, a := range args {
		switch {
		case a.Known && (a.Text == "-x" || a.Text == "--exec") && i+1 < len(args):
			c.codeWords(st, nil, args[i+1:i+2], "git rebase --exec")
		case a.Known && strings.HasPrefix(a.Text, "--exec="):
			c.code(strings.TrimPrefix(a.Text, "--exec="), ctx{depth: st.cx.depth + 1}, "git rebase --exec")
		case !a.Known && strings.HasPrefix(a.Text, "-"):
			st.soft = append(st.soft, "an option of git rebase is known only when it runs")
		}
	}
}

// gitProgramOpts are the options of git's subcommands that name a
// program or configuration git runs.
var gitProgramOpts = []string{"--upload-pack", "--receive-pack", "--exec", "--extcmd", "-u", "--config"}

// gitProgramOptions notes the options of subcommand sub that name a
// program git runs: a rule on the subcommand alone does not allow them.
// rebase's --exec is read as code instead, and -u names a program only
// for clone.
func gitProgramOptions(st *partState, sub string, args []word) {
	for _, a := range args {
		t := a.Text
		for _, o := range gitProgramOpts {
			if (t == o || strings.HasPrefix(t, o+"=")) && !(sub == "rebase" && o == "--exec") && (o != "-u" || sub == "clone") {
				st.soft = append(st.soft, fmt.Sprintf("git %s %s names a program or configuration git runs", sub, o))
			}
		}
		if (sub == "difftool" || sub == "mergetool") && (t == "-x" || t == "-t" || strings.HasPrefix(t, "--tool=")) {
			st.soft = append(st.soft, fmt.Sprintf("git %s %s names a program git runs", sub, t))
		}
	}
}
