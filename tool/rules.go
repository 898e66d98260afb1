package tool

// RulesDetails are the decision on a bash command: details.rules of
// every bash result while rules are in force.
type RulesDetails struct {
	// Decision is the strictest decision of the parts: allow, ask or
	// deny. After the person approved an ask, it is allow.
	Decision string `json:"decision" doc:"allow, ask or deny: the strictest decision of the parts (allow once the user approved an ask)."`
	// Parts are the simple commands of the command, each decided.
	Parts []RulePart `json:"parts" doc:"Each simple command of the command (through pipes, lists, substitutions, bash -c, eval and wrappers such as sudo, env, xargs and find -exec), with its decision."`
}

// A RulePart is one simple command and how it was decided.
type RulePart struct {
	// Command is the part with quotes and escapes resolved and wrappers
	// named ("sudo rm -rf /").
	Command string `json:"command" doc:"The part, quotes and escapes resolved."`
	// Decision is allow, ask or deny.
	Decision string `json:"decision" doc:"allow, ask or deny."`
	// Rule is the rule that decided it and Source where that rule was
	// written; both empty when no rule did.
	Rule   string `json:"rule,omitempty" doc:"The rule that decided the part, as written."`
	Source string `json:"source,omitempty" doc:"Where that rule is written (file:line)."`
	// Justification is the rule's own reason, when it has one.
	Justification string `json:"justification,omitempty" doc:"The rule's own reason, when it gives one."`
	// Reason says why a part no rule decided got its decision: the
	// default, a program known only when it runs, input that does not
	// parse, an interpreter started with a terminal or stdin.
	Reason string `json:"reason,omitempty" doc:"Why a part no rule decided got its decision."`
	// ApprovedForSession: the person allowed this part for the rest of
	// the session.
	ApprovedForSession bool `json:"approved_for_session,omitempty" doc:"The user allowed this part for the rest of the session."`
}
