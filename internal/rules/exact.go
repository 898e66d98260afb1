package rules

import "strings"

// exact applies the rules whose Pattern is Exact to an input equal to
// their text (spaces at either end aside), after its parts are decided:
// an exact deny or ask makes the whole input at least that, with a part
// naming the rule; an exact allow lifts only the parts that no rule
// decided and that the default alone sent to ask or deny. A part a deny
// or ask rule decided, or one spillway cannot model (an unknown program,
// a risky assignment, input that does not parse), keeps its decision:
// the entry names the whole input, and what the checker knows about a
// part of it still counts.
func (s *Set) exact(command string, v Verdict) Verdict {
	if s == nil || !s.hasExact() {
		return v
	}
	in := strings.TrimSpace(command)
	for i := range s.Rules {
		r := &s.Rules[i]
		if r.Pattern.Exact == "" || r.Pattern.Exact != in {
			continue
		}
		switch r.Decision {
		case Deny, Ask:
			v.parts = append(v.parts, part{command: in, rule: r, decision: r.Decision})
		case Allow:
			for j := range v.parts {
				p := &v.parts[j]
				if p.rule == nil && p.decision > Allow && p.reason == defaultReason[p.decision] {
					p.decision, p.rule, p.reason = Allow, r, ""
				}
			}
		}
	}
	v.Decision = Allow
	for _, p := range v.parts {
		v.Decision = max(v.Decision, p.decision)
	}
	return v
}

func (s *Set) hasExact() bool {
	s.exactOnce.Do(func() {
		for i := range s.Rules {
			if s.Rules[i].Pattern.Exact != "" {
				s.anyExact = true
				return
			}
		}
	})
	return s.anyExact
}
