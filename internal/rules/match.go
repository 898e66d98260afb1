package rules

import (
	"fmt"
	"math/bits"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// carrierReason is the reason of a program that runs code read in
// turn (bash -c '…') when no rule names it.
var carrierReason = [...]string{
	Allow: "it runs the code decided in the parts that follow",
	Ask:   "no rule matches this program, which runs the code decided in the parts that follow: the default is ask",
	Deny:  "no rule matches this program, which runs the code decided in the parts that follow: the default is deny",
}

var defaultReason = [...]string{
	Allow: "no rule matches: the default is allow",
	Ask:   "no rule matches: the default is ask",
	Deny:  "no rule matches: the default is deny",
}

// partState gathers what is known of one simple command while its
// wrappers are seen through.
type partState struct {
	cx     ctx
	stdinR *syntax.Redirect
	// words are the command as written, shown as the part's command;
	// they stay valid until the part is added.
	words []word
	// cands are decisions of rules that named an outer layer (a
	// wrapper): they can make the part stricter, never looser.
	cands []cand
	// hard are reasons the part may not be allow, whatever rule matches.
	hard []string
	// soft are reasons the part may not be allow unless a rule allows
	// its program explicitly (python3 -c … with allow "python3 *").
	soft        []string
	interactive bool
	// noProgram, when set, is why a builtin that runs no program and
	// whose effect is modelled is allowed when no rule names it.
	noProgram string
	// layerAllow is the allow rule that matched a privilege wrapper
	// around the command (allow sudo apt *).
	layerAllow *Rule
	// runsNothing: the wrapper runs none of its words (command -v).
	runsNothing bool
	// viaProgram: a wrapper seen through is a program of its own (env,
	// nice, timeout, xargs), not a builtin (command, builtin, exec).
	viaProgram bool
	// codeRead: the part is a program that runs code decided in parts
	// of its own (bash -c '…'): its words name no program to look for.
	codeRead bool
	// noPATH: a wrapper cleared the environment (env -i), PATH with it.
	noPATH bool
}

// newPartState returns a cleared partState for a simple command decided
// in cx, held until releasePartState.
func (c *checker) newPartState(cx ctx, stdinR *syntax.Redirect) *partState {
	if c.statesUsed == len(c.states) {
		c.states = append(c.states, new(partState))
	}
	st := c.states[c.statesUsed]
	c.statesUsed++
	*st = partState{cx: cx, stdinR: stdinR}
	return st
}

// releasePartState gives back the state newPartState returned last.
func (c *checker) releasePartState() { c.statesUsed-- }

// A cand is the decision a rule, or the default, gives a part, with its
// reason when it is not the rule's own.
type cand struct {
	d      Decision
	rule   *Rule
	reason string
}

// indexLetters fills letterRules: most programs are named by a word
// starting with a letter, and each part of a long input then tries only
// the rules that may name it instead of testing every rule's key.
func (c *checker) indexLetters() {
	if len(c.keys) > 64 {
		return
	}
	c.letterRules = new([26]uint64)
	var any uint64
	for i, k := range c.keys {
		if k == 0 {
			any |= 1 << i
		}
	}
	for l := range c.letterRules {
		c.letterRules[l] = any
	}
	for i, k := range c.keys {
		if k >= 'a' && k <= 'z' {
			c.letterRules[k-'a'] |= 1 << i
		}
	}
}

// nextRule returns the index of the first rule from i on that may name
// a program of wordKey wk (mayName), or len(c.keys) when none does.
func (c *checker) nextRule(wk byte, i int) int {
	if c.letterRules != nil && wk >= 'a' && wk <= 'z' {
		m := c.letterRules[wk-'a'] &^ (1<<i - 1)
		if m == 0 {
			return len(c.keys)
		}
		return bits.TrailingZeros64(m)
	}
	for ; i < len(c.keys) && !mayName(c.keys[i], wk); i++ {
	}
	return i
}

// ruleCands records the deny and ask rules that match an outer layer.
func (c *checker) ruleCands(st *partState, ws []word) {
	wk := wordKey(ws)
	for i := c.nextRule(wk, 0); i < len(c.keys); i = c.nextRule(wk, i+1) {
		r := &c.set.Rules[i]
		if r.Decision == Allow {
			continue
		}
		if k, ok := ruleCand(r, ws); ok {
			st.cands = append(st.cands, k)
		}
	}
}

// ruleCand is what rule r says of words: its decision when it surely
// matches them, ask when it only may (an allow rule that only may match
// says nothing); false when it says nothing.
func ruleCand(r *Rule, words []word) (cand, bool) {
	switch r.Pattern.matchWords(words, r.Decision) {
	case sureMatch:
		return cand{d: r.Decision, rule: r}, true
	case maybeMatch:
		if r.Decision != Allow {
			return cand{d: Ask, rule: r, reason: maybeReason(r)}, true
		}
	}
	return cand{}, false
}

// suspendedReason names the first suspended allow rule that surely
// matches words, and the default d that decided instead; "" when none
// does.
func (c *checker) suspendedReason(words []word, d Decision) string {
	for i := range c.set.Suspended {
		r := &c.set.Suspended[i]
		if r.Pattern.matchWords(words, Allow) == sureMatch {
			return r.Justification + " (no other rule matches: the default is " + d.String() + ")"
		}
	}
	return ""
}

// maybeReason is the reason of a part that rule r may match.
func maybeReason(r *Rule) string {
	return fmt.Sprintf("it may match the %s rule %q: that depends on an expansion known only when it runs", r.Decision, r.Text)
}

// unknown adds the part as ask for reason, or stricter when a rule on an
// outer layer says so.
func (c *checker) unknown(st *partState, reason string) {
	st.hard = append(st.hard, reason)
	c.emit(st, cand{d: Ask, reason: reason})
}

// emit adds the part with the strictest of best and the outer layers'
// rules, raised to ask by any hard reason.
func (c *checker) emit(st *partState, best cand) {
	for _, k := range st.cands {
		if k.d > best.d || k.d == best.d && best.rule == nil && k.rule != nil {
			best = k
		}
	}
	if best.d < Ask && len(st.hard) > 0 {
		best = cand{d: Ask, reason: st.hard[0]}
	}
	reason := best.reason
	if best.rule == nil && reason == "" {
		reason = defaultReason[best.d]
	}
	c.add(c.display(st.words), best.d, best.rule, reason, st.interactive)
	c.parts[len(c.parts)-1].carrier = st.codeRead
}

// carrier adds the part of a command that runs code decided elsewhere
// (bash -c '…', eval '…'). A carrier that is a program (a shell, watch,
// flock, at), or that a program wrapper runs (env X=1 eval …), is a
// program that runs: a part of its own, decided by the rules that name
// it (the carrier's words, or the command as written, wrapper and all)
// and by the default when none does. A builtin carrier (eval, trap) is
// a part only when something about it counts: a rule naming it, or a
// reason not to allow it.
func (c *checker) carrier(st *partState, ws []word) {
	if st.viaProgram || len(ws) > 0 && !builtinCarriers[programName(ws[0].Base)] {
		st.codeRead = true
		var raw []word
		if len(st.words) != len(ws) {
			raw = st.words
		}
		c.final(st, ws, raw)
		return
	}
	c.ruleCands(st, ws)
	if len(st.cands) == 0 && len(st.hard) == 0 {
		return
	}
	c.emit(st, cand{d: Allow, reason: "it runs the code decided in the parts that follow"})
}

// final decides the innermost command: the strictest rule that surely
// matches it, or the default; a rule that only may match raises it to
// ask. raw, when not nil, is the command as written before git's global
// options were skipped; rules match it too, and only a rule that allows
// raw lifts the soft reasons.
func (c *checker) final(st *partState, ws, raw []word) {
	var m ruleMatch
	c.weighRules(&m, st, ws, false, raw != nil)
	if raw != nil {
		c.weighRules(&m, st, raw, true, true)
	}
	var b cand
	if !m.found {
		b = c.defaultCand(st, ws)
	} else {
		b = m.best
		// A sure allow is not enough when an outer maybe says ask; emit
		// takes the strictest. A rule that may deny leaves the default
		// in force if that is stricter.
		if b.d < c.set.Default && b.reason != "" {
			b = cand{d: c.set.Default}
		}
	}
	if r := c.pathRisk(st, ws, b); r != "" {
		b = cand{d: Ask, reason: r}
	}
	if b.d < Ask && len(st.soft) > 0 && !m.allowedByName {
		b = cand{d: Ask, reason: st.soft[0] + "; a rule allowing the program by name would allow it"}
	}
	c.emit(st, b)
}

// ruleMatch is the strictest of the rules that match a command, as
// final weighs them.
type ruleMatch struct {
	best  cand
	found bool
	// allowedByName: an allow rule surely matches the command as it is
	// written.
	allowedByName bool
}

// weighRules weighs the rules that match words into m. isRaw: words are
// the command as written, whose allow counts only for code read in
// parts of its own; hasRaw: such words are weighed too, and only their
// allow lifts the soft reasons.
func (c *checker) weighRules(m *ruleMatch, st *partState, words []word, isRaw, hasRaw bool) {
	wk := wordKey(words)
	for i := c.nextRule(wk, 0); i < len(c.keys); i = c.nextRule(wk, i+1) {
		k, ok := ruleCand(&c.set.Rules[i], words)
		if !ok {
			continue
		}
		if k.d == Allow && (!hasRaw || isRaw) {
			m.allowedByName = true
		}
		if isRaw && k.d == Allow && !st.codeRead {
			continue
		}
		if !m.found || k.d > m.best.d || k.d == m.best.d && m.best.reason != "" && k.reason == "" {
			m.best, m.found = k, true
		}
	}
}

// defaultCand decides a command no rule matches: by the default, unless
// a privilege wrapper's allow rule, a builtin that runs no program, code
// read in parts of its own, or a denied name among its words decides.
func (c *checker) defaultCand(st *partState, ws []word) cand {
	b := cand{d: c.set.Default}
	switch {
	case st.layerAllow != nil:
		// The privilege wrapper's own allow rule decides the command it
		// runs, when no rule names that command.
		b = cand{d: Allow, rule: st.layerAllow}
	case st.noProgram != "" && b.d != Deny:
		b = cand{d: Allow, reason: st.noProgram}
	case st.codeRead:
		// The code it runs was read, and is decided in parts of its
		// own: a denied name in it is one of those.
		b.reason = carrierReason[b.d]
	case b.d == Allow && !st.runsNothing:
		if r := c.namesDenied(st.words); r != "" {
			b = cand{d: Ask, reason: r}
		}
	}
	if b.rule == nil && b.reason == "" {
		b.reason = c.suspendedReason(ws, b.d)
	}
	return b
}

// pathRisk is why the allow b of the program ws[0] by a rule naming it
// by name is ask: written as a path, it is not the file PATH lookup
// finds, or lookup finds it in a directory the session can write; ""
// when neither.
func (c *checker) pathRisk(st *partState, ws []word, b cand) string {
	if b.d != Allow || b.rule == nil || len(ws) == 0 || ruleNamesPath(b.rule) {
		return ""
	}
	prog := ws[0]
	if strings.Contains(prog.Text, "/") {
		if c.ownEnv && c.env == nil {
			c.env = processContext()
		}
		if r := c.pathMatch(prog); r != "" {
			return r
		}
		// It is the file lookup finds, and where lookup finds it counts
		// as for the bare name.
		return c.writableFound(prog.Base)
	}
	if prog.Known && prog.Text != "" && (st.viaProgram || !bashBuiltins[prog.Text]) {
		return c.writableFound(prog.Text)
	}
	return ""
}

// namesDenied is the reason a part the default would allow is ask: a
// program a deny rule names appears among its words, or inside one of
// them (a -c string, EXEC:rm, system("rm …") in code given inline), so
// the part may run it in a way the parser does not see. This is best
// effort: it is what stands between a deny rule and a wrapper or
// language spillway does not know, under default allow.
func (c *checker) namesDenied(ws []word) string {
	if c.denied == nil {
		c.denied = deniedSequences(c.set.Rules)
	}
	if len(c.denied) == 0 {
		return ""
	}
	var toks []string
	for _, w := range ws {
		toks = appendTokens(toks, w.Text)
	}
	for _, seq := range c.denied {
		k := 0
		for _, t := range toks {
			if k < len(seq) && t == seq[k] {
				k++
			}
		}
		if k == len(seq) {
			return fmt.Sprintf("%q, which a deny rule names, appears in the command, which may run it in a way spillway does not read", strings.Join(seq, " "))
		}
	}
	return ""
}

// deniedSequences returns the words the deny rules among rules name,
// lowercased: for each program a rule names (its base name), that name
// followed by the words of the rule that have a single form.
func deniedSequences(rules []Rule) [][]string {
	denied := [][]string{}
	for i := range rules {
		r := &rules[i]
		if r.Decision != Deny || len(r.Pattern.Words) == 0 {
			continue
		}
		for _, alt := range r.Pattern.Words[0] {
			seq := []string{strings.ToLower(alt[strings.LastIndexByte(alt, '/')+1:])}
			for _, pos := range r.Pattern.Words[1:] {
				if len(pos) != 1 {
					break
				}
				seq = append(seq, strings.ToLower(pos[0]))
			}
			denied = append(denied, seq)
		}
	}
	return denied
}

// appendTokens appends the lowercased runs of name characters of s: a
// program's name, wherever it stands in a word or a string of code.
func appendTokens(toks []string, s string) []string {
	start := -1
	for i := 0; i <= len(s); i++ {
		name := i < len(s) && (s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z' || s[i] >= '0' && s[i] <= '9' || s[i] == '_' || s[i] == '-' || s[i] == '.' || s[i] == '+' || s[i] >= 0x80)
		switch {
		case name && start < 0:
			start = i
		case !name && start >= 0:
			toks = append(toks, strings.ToLower(s[start:i]))
			start = -1
		}
	}
	return toks
}

// ruleNamesPath reports whether a rule names its program by a path
// (allow /usr/bin/git status): it then matches that path only.
func ruleNamesPath(r *Rule) bool {
	if len(r.Pattern.Words) == 0 {
		return false
	}
	for _, alt := range r.Pattern.Words[0] {
		if strings.Contains(alt, "/") {
			return true
		}
	}
	return false
}
