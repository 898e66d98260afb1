// Package rules decides whether a bash command may run: every simple
// command of the parsed input is matched against allow, ask and deny
// rules on its own, and the input gets the strictest decision of its
// parts. It holds no I/O of its own beyond reading rule files: the caller
// asks the person when the decision is Ask.
package rules

import (
	"sync"

	"github.com/spillway-dev/spillway/tool"
)

// A Decision is what a rule, a part or a whole command comes to. The
// order is strictness: a larger value wins when parts are combined.
type Decision int

const (
	Allow Decision = iota
	Ask
	Deny
)

// String returns "allow", "ask" or "deny": the words of the config and of
// details.rules.
func (d Decision) String() string {
	switch d {
	case Allow:
		return "allow"
	case Ask:
		return "ask"
	case Deny:
		return "deny"
	}
	return "unknown"
}

// A Pattern is a command prefix as a list of words, each position a set
// of alternatives (Codex's prefix_rule allows ["git", ["push", "fetch"]];
// a Claude Code pattern has one alternative a position). Prefix is false
// for an exact pattern ("git status" matches only those two words).
type Pattern struct {
	Words  [][]string
	Prefix bool
	// OpenLast makes the last word match any word it begins, as Claude
	// Code reads a * glued to a pattern's end ("git push*" matches
	// push, pushed and push-all); any words may follow (Prefix).
	OpenLast bool
	// Glob, when not nil, is a pattern with a * that is not only at its
	// end ("git * main", "* --version"): the literal text between its
	// stars. It matches the command's words joined by single spaces,
	// each * any run of characters, as Claude Code matches the command
	// line; GlobTail adds Claude Code's trailing " *" (the text alone, or
	// followed by a space and anything). GlobText is the pattern as
	// written. Words is empty then.
	Glob     []string
	GlobTail bool
	GlobText string
	// Exact, when set, is an entry that is more than words: a whole
	// input Claude Code wrote when the person chose "don't ask again"
	// (a here-document, $(…), VAR=value before the command). It
	// matches an input equal to it, never a part (Set.exact).
	Exact string
}

// A Rule is one allow, ask or deny entry and where it came from.
type Rule struct {
	// Text is the rule as the person wrote it ("git push:*",
	// `prefix_rule(pattern=["git","push"])`), shown in results.
	Text     string
	Pattern  Pattern
	Decision Decision
	// Source names where the rule was read: "config.toml:12",
	// "~/.claude/settings.json", "~/.codex/rules/default.rules:3".
	Source string
	// Justification is the rule's own reason, when its format has one
	// (Codex's justification=).
	Justification string
}

// A Set is the rules in force.
type Set struct {
	// Default decides a part no rule matches.
	Default Decision
	Rules   []Rule
	// Suspended are allow rules not in force because the project that
	// wrote them is not trusted (SuspendedRule): a part the default
	// decides names the first that would have allowed it, in place of
	// "no rule matches", so that the person learns to trust the project
	// rather than to write the rule again.
	Suspended []Rule
	// MaxDepth bounds how many levels of shell code held in strings
	// (bash -c '…', eval '…') are read; past it a part is ask. Zero
	// means DefaultMaxDepth.
	MaxDepth int

	// exactOnce finds whether any rule is Exact, once.
	exactOnce sync.Once
	anyExact  bool
}

// A Verdict is the decision on a whole input and on each of its parts.
type Verdict struct {
	// Decision is the strictest of the parts' (Allow when there is none).
	Decision Decision
	parts    []part
}

// Parts are the simple commands of the input, each as a bash result's
// details show it: its Command as it reads in the input, words resolved
// where they could be (quotes and escapes removed, wrappers named); its
// Decision, a Decision's word; the Rule that decided it as written, with
// its Source and Justification (all three empty when the default decided,
// or when the part could not be known); and, when no rule alone decided
// it, the Reason in words: "the program $CMD is known only when it
// runs", "the input does not parse as bash: …", "no rule matches: the
// default is ask", or why a rule that only may match (it depends on an
// expansion) made the part ask. Each call makes them anew.
func (v Verdict) Parts() []tool.RulePart {
	out := make([]tool.RulePart, len(v.parts))
	for i, p := range v.parts {
		rp := &out[i]
		rp.Command, rp.Decision, rp.Reason = p.command, p.decision.String(), p.reason
		if p.rule != nil {
			rp.Rule, rp.Source, rp.Justification = p.rule.Text, p.rule.Source, p.rule.Justification
		}
	}
	return out
}

// Interactive gives the indexes in Parts of the shells and interpreters
// started with no code, no script and their stdin left to the caller
// (bash, python3 alone): what they run is typed into them later, where no
// rule sees it. The caller decides whether such a part may run with a
// terminal or stdin attached; the part's own decision comes from the
// rules on its name.
func (v Verdict) Interactive() []int {
	var out []int
	for i, p := range v.parts {
		if p.interactive {
			out = append(out, i)
		}
	}
	return out
}
