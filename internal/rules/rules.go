// Package rules decides whether a bash command may run: every simple
// command of the parsed input is matched against allow, ask and deny
// rules on its own, and the input gets the strictest decision of its
// parts. It holds no I/O of its own beyond reading rule files: the caller
// asks the person when the decision is Ask.
package rules

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
}

// A Part is one simple command of the input and how it was decided.
type Part struct {
	// Command is the part as it reads in the input, words resolved where
	// they could be (quotes and escapes removed, wrappers named).
	Command  string
	Decision Decision
	// Rule is the rule that decided the part; nil when the default did,
	// or when the part could not be known (Reason says why).
	Rule *Rule
	// Reason says in words why a part with no rule got its decision:
	// "the program is an expansion known only when it runs", "the
	// input does not parse: …". Empty when Rule decided it.
	Reason string
}

// A Verdict is the decision on a whole input and on each of its parts.
type Verdict struct {
	Decision Decision
	Parts    []Part
}
