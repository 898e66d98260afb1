package spillway

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/spillway-dev/spillway/internal/rules"
	"github.com/spillway-dev/spillway/internal/shell"

	"github.com/spillway-dev/spillway/tool"
)

// approvals are the parts the person allowed for the rest of the session,
// by their command as Check writes it.
type approvals struct {
	mu    sync.Mutex
	parts map[string]bool
}

func (a *approvals) has(part string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.parts[part]
}

func (a *approvals) add(part string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.parts == nil {
		a.parts = map[string]bool{}
	}
	a.parts[part] = true
}

// interactiveReason is the reason of an interpreter started with a
// terminal or stdin and no rule allowing it by name.
const interactiveReason = "an interpreter started with a terminal or stdin: what is typed into it later is not checked"

// decideBash decides a bash call before anything runs. It returns the
// details every result of the call carries, and, when the command must
// not run, the result to return instead.
func (t *Toolset) decideBash(ctx context.Context, in BashInput) (*RulesDetails, *Result[BashDetails]) {
	d, refused, trusted := t.decideBashOnce(ctx, in)
	if !trusted {
		return d, refused
	}
	// The person trusted the project: its allow entries count now, and
	// the command is decided again by them (what they do not allow is
	// asked about again).
	d, refused, trusted = t.decideBashOnce(ctx, in)
	if trusted {
		return d, t.refusal(d, "[trusting the project's rules did not settle the command: nothing ran]")
	}
	return d, refused
}

// decideBashOnce is decideBash with the rules in force now; trusted
// says that the person answered by trusting the project (the asker
// called TrustProject), and the command is to be decided again.
func (t *Toolset) decideBashOnce(ctx context.Context, in BashInput) (_ *RulesDetails, _ *Result[BashDetails], trusted bool) {
	command := in.Command
	if len(in.Args) > 0 {
		command = quoteArgv(append([]string{in.Command}, in.Args...))
	}
	rc := t.ruleContext(ctx, in)
	v := t.rulesNow().set.CheckIn(command, rc)
	d := rulesDetails(v)
	if in.TTY || in.Stdin || tool.CallInfoFrom(ctx).Stdin != nil {
		askInteractive(&d, v.Interactive())
	}
	t.allowApprovedParts(&d)
	switch d.Decision {
	case "allow":
		return &d, nil, false
	case "deny":
		return &d, t.refusal(&d, deniedText(d)), false
	}
	ask := askingParts(d.Parts)
	cwd := rc.Dir
	a := t.askerFor(ctx)
	if a == nil {
		return &d, t.refusal(&d, cannotAskText(ask, "no one can be asked (the library was given no Asker)")), false
	}
	answer, err := a(ctx, command, cwd, ask)
	var notice askNotice
	if errors.As(err, &notice) {
		return &d, t.refusal(&d, notice.Notice()), false
	}
	if err != nil {
		return &d, t.refusal(&d, cannotAskText(ask, err.Error())), false
	}
	switch answer {
	case trustProject:
		return &d, t.refusal(&d, "[the project's rules were trusted: decide again]"), true
	case allowOnce, allowSession:
		for i, p := range d.Parts {
			if p.Decision == "ask" {
				if answer == allowSession {
					t.approved.add(p.Command)
					d.Parts[i].ApprovedForSession = true
				}
				d.Parts[i].Decision = "allow"
			}
		}
		d.Decision = "allow"
		return &d, nil, false
	}
	return &d, t.refusal(&d, fmt.Sprintf("[the user denied the command: nothing ran]\nThe part%s that needed approval: %s.", plural(len(ask)), partList(ask))), false
}

// askInteractive makes ask the parts that start an interpreter with
// nothing to run but what is typed into it, unless a rule allows it by
// name: the terminal or stdin the call gives it carries code no rule
// sees.
func askInteractive(d *RulesDetails, interactive []int) {
	for _, i := range interactive {
		p := &d.Parts[i]
		if p.Decision != "allow" || p.Rule != "" {
			continue
		}
		p.Decision, p.Reason = "ask", interactiveReason
		if d.Decision == "allow" {
			d.Decision = "ask"
		}
	}
}

// refusal is the result of a command that does not run: an error result
// whose details hold the decision.
func (t *Toolset) refusal(d *RulesDetails, text string) *Result[BashDetails] {
	return &Result[BashDetails]{Text: text, IsError: true, Details: BashDetails{Rules: d}}
}

// deniedText names each denied part, its rule, where the rule was
// written and its justification.
func deniedText(d RulesDetails) string {
	var b strings.Builder
	b.WriteString("[denied by the command rules: nothing ran]")
	for _, p := range d.Parts {
		if p.Decision != "deny" {
			continue
		}
		fmt.Fprintf(&b, "\n%s: denied", quoted(p.Command))
		if p.Rule != "" {
			fmt.Fprintf(&b, " by the rule %s (%s)", quoted(p.Rule), p.Source)
		} else if p.Reason != "" {
			fmt.Fprintf(&b, ": %s", p.Reason)
		}
		if p.Justification != "" {
			fmt.Fprintf(&b, ". Justification: %s", p.Justification)
		}
	}
	b.WriteString("\nDo not try another spelling of the same command: each part of a command is decided, through wrappers, quotes and substitutions. Ask the user instead.")
	return b.String()
}

// cannotAskText says why a command that needs approval did not run and,
// for each part, how the person can allow it.
func cannotAskText(ask []RulePart, why string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[needs the user's approval, and %s: nothing ran]", why)
	for _, p := range ask {
		fmt.Fprintf(&b, "\n%s: ", quoted(p.Command))
		switch {
		case p.Rule != "" && p.Reason == "":
			fmt.Fprintf(&b, "the rule %s (%s) asks first; to run it without asking, the user removes or narrows that rule", quoted(p.Rule), p.Source)
		case p.Reason == interactiveReason || strings.Contains(p.Reason, "by name would allow it"):
			fmt.Fprintf(&b, "%s; to allow it, the user adds to spillway's config [rules] allow = [%s]", p.Reason, strconv.Quote(firstWord(p.Command)+" *"))
		case strings.Contains(p.Reason, " is suspended: "):
			fmt.Fprintf(&b, "%s; once the user trusts the project, that entry allows it", p.Reason)
		case strings.HasPrefix(p.Reason, "no rule matches"):
			fmt.Fprintf(&b, "%s; to allow it, the user adds to spillway's config [rules] allow = [%s]", p.Reason, strconv.Quote(p.Command))
		default:
			reason := p.Reason
			if reason == "" {
				reason = "it cannot be known before it runs"
			}
			fmt.Fprintf(&b, "%s; no rule can allow it: write the command with its programs spelled out, or the user runs it", reason)
		}
	}
	return b.String()
}

func firstWord(s string) string {
	if f := strings.Fields(s); len(f) > 0 {
		return f[0]
	}
	return s
}

// askingParts are the parts of a decision that ask.
func askingParts(parts []RulePart) []RulePart {
	var ask []RulePart
	for _, p := range parts {
		if p.Decision == "ask" {
			ask = append(ask, p)
		}
	}
	return ask
}

func partList(parts []RulePart) string {
	q := make([]string, len(parts))
	for i, p := range parts {
		q[i] = quoted(p.Command)
	}
	return strings.Join(q, ", ")
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// quoted shows a command or rule in backquotes.
func quoted(s string) string { return "`" + s + "`" }

// quoteArgv writes an argv as a shell command that runs it, so that a
// call with Args is decided as the same program and words.
func quoteArgv(argv []string) string {
	var b strings.Builder
	for i, w := range argv {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteByte('\'')
		b.WriteString(strings.ReplaceAll(w, "'", `'\''`))
		b.WriteByte('\'')
	}
	return b.String()
}

// renderRefusal applies the format to the result of a command that did
// not run, and sets its tokens.
func (t *Toolset) renderRefusal(r Result[BashDetails]) Result[BashDetails] {
	r.Text = t.finish(r.Text, &r.Details.Tokens, func() any { return r.Details })
	return r
}

// ruleContext is what the rules know, before the command runs, of
// where it runs: the working directory (the session's, then the cwd
// parameter), the PATH it will have (the process's, the session's, the
// env parameter's), the env and cwd parameters themselves, and a reader
// of git's aliases as git reads them there.
func (t *Toolset) ruleContext(ctx context.Context, in BashInput) rules.Context {
	dir := t.cwd
	path := os.Getenv("PATH")
	if in.Session != "" {
		t.shell.EachSession(func(name, cwd string, set map[string]string, _ []string, _ int, _ time.Time) {
			if name != in.Session {
				return
			}
			if cwd != "" {
				dir = cwd
			}
			if p, ok := set["PATH"]; ok {
				path = p
			}
		})
	}
	if in.Cwd != "" {
		if filepath.IsAbs(in.Cwd) {
			dir = in.Cwd
		} else {
			dir = filepath.Join(dir, in.Cwd)
		}
	}
	if p, ok := in.Env["PATH"]; ok {
		path = p
	}
	return rules.Context{Dir: dir, PATH: path, Env: in.Env, CwdParam: in.Cwd, Writable: t.writableDir(),
		GitAliases: func(d string) map[string]string { return gitAliases(ctx, d) }}
}

// writableDir is what the rules count as a directory the session can
// write: under --sandbox, one its commands may write (a path or beneath
// one, symbolic links resolved); without, nil: one the user can write.
func (t *Toolset) writableDir() func(string) bool {
	if !t.sandboxed {
		return nil
	}
	roots := t.sandboxWritable
	return func(d string) bool {
		for _, p := range []string{d, evalSymlinks(d)} {
			for _, r := range roots {
				if p == r || strings.HasPrefix(p, strings.TrimSuffix(r, "/")+"/") {
					return true
				}
				if rr := evalSymlinks(r); p == rr || strings.HasPrefix(p, strings.TrimSuffix(rr, "/")+"/") {
					return true
				}
			}
		}
		return false
	}
}

// evalSymlinks is p with its symbolic links resolved, or p.
func evalSymlinks(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

// gitAliases reads git's aliases in dir as git reads them there:
// git --no-pager config -z --no-includes --get-regexp (--no-pager: git
// reads pager.config with includes followed before it starts). It runs in the server,
// outside any sandbox, while deciding, so nothing of the call reaches
// it: not its env parameter (LD_PRELOAD would load a library into it,
// GIT_TRACE_SETUP would have git write dir's name to any file, and
// GIT_CONFIG_* would add aliases), nor its PATH; its environment is
// built here from the server's own. A call whose env moves git's
// configuration (HOME, XDG_CONFIG_HOME, GIT_*) is asked for by the
// rules whatever its aliases. Includes are not followed, as one may
// name a FIFO or a device git would wait on: a configuration holding
// one gives a map marked rules.AliasesUnread. A failure (no git, dir
// not a directory, not a repository) is no aliases: a subcommand git
// does not know is then decided by its name.
func gitAliases(ctx context.Context, dir string) map[string]string {
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	git, err := exec.LookPath("git")
	if err != nil {
		return nil
	}
	cmd := exec.CommandContext(ctx, git, "--no-pager", "config", "-z", "--no-includes", "--get-regexp", `^(alias|include|includeif)\.`)
	cmd.Dir = dir
	cmd.Env = gitLookupEnv()
	out, err := cmd.Output()
	if err != nil {
		return nil
	}
	m := map[string]string{}
	for _, rec := range bytes.Split(out, []byte{0}) {
		k, v, _ := strings.Cut(string(rec), "\n")
		k = strings.ToLower(k)
		if strings.HasPrefix(k, "include.") || strings.HasPrefix(k, "includeif.") {
			m[rules.AliasesUnread] = k
		} else if name, ok := strings.CutPrefix(k, "alias."); ok && name != "" {
			m[name] = v
		}
	}
	return m
}

// gitLookupEnv is the environment of the server's own git lookups: the
// server's PATH, HOME and the variables that say which configuration
// files git reads, and nothing else (no LD_*, no GIT_TRACE*).
func gitLookupEnv() []string {
	env := []string{"LANG=C", "LC_ALL=C", "GIT_TERMINAL_PROMPT=0", "GIT_OPTIONAL_LOCKS=0"}
	for _, k := range []string{"PATH", "HOME", "XDG_CONFIG_HOME", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM",
		"GIT_CONFIG_NOSYSTEM", "GIT_CEILING_DIRECTORIES", "GIT_DISCOVERY_ACROSS_FILESYSTEM"} {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	return env
}

// decideStdin decides what write_stdin sends to a job while rules are
// in force. A job that runs what is typed into it — a shell, an
// interpreter, a program with a shell escape (less, vim, ed, gdb, psql
// …) — would run it where no rule sees it: allowing such a program by
// name allows starting it, not what is typed into it. So every write to
// such a job is ask, unless the person chose "allow for this session"
// for that job; text sent to bash or sh reading a pipe is decided as the
// commands it holds, with nothing known of the shell's variables.
func (t *Toolset) decideStdin(ctx context.Context, in WriteStdinInput) *Result[BashDetails] {
	refused, trusted := t.decideStdinOnce(ctx, in)
	if trusted {
		// The person trusted the project: decided again by its rules.
		if refused, trusted = t.decideStdinOnce(ctx, in); trusted {
			return t.refusal(&RulesDetails{Decision: "ask"}, "[trusting the project's rules did not settle the input: nothing was sent]")
		}
	}
	return refused
}

// decideStdinOnce is decideStdin with the rules in force now; trusted
// says that the person answered by trusting the project.
func (t *Toolset) decideStdinOnce(ctx context.Context, in WriteStdinInput) (_ *Result[BashDetails], trusted bool) {
	if t.rulesNow() == nil {
		return nil, false
	}
	job, command := t.stdinJob(in.PID)
	if job == nil {
		return nil, false // the write itself says why nothing can be sent
	}
	prog, isShell := rules.TypedInto(command)
	if prog == "" {
		return nil, false
	}
	key := fmt.Sprintf("write_stdin to job %d", in.PID)
	if t.approved.has(key) {
		return nil, false
	}
	typed := typedText(in)
	pipeShell := isShell && job.Input == "stdin"
	var d RulesDetails
	if pipeShell {
		var refused *Result[BashDetails]
		var decided bool
		if d, refused, decided = t.decidePipeInput(in, prog, typed); decided {
			return refused, false
		}
	} else {
		reason := fmt.Sprintf("job %d runs %s, which runs what is typed into it: %s", in.PID, prog, interactiveTypingReason)
		d = RulesDetails{Decision: "ask", Parts: []RulePart{{Command: typed, Decision: "ask", Reason: reason}}}
	}
	ask := askingParts(d.Parts)
	answer, refused := t.askStdin(ctx, &d, ask, fmt.Sprintf("%s (typed into `%s`)", typed, command))
	if refused != nil {
		return refused, false
	}
	switch answer {
	case trustProject:
		return nil, true
	case allowSession:
		if pipeShell {
			for _, p := range ask {
				t.approved.add(p.Command)
			}
			return nil, false
		}
		t.approved.add(key)
		return nil, false
	case allowOnce:
		return nil, false
	}
	return t.refusal(&d, "[the user denied the input: nothing was sent]"), false
}

// stdinJob is the job pid that can be written to, and the command it
// runs as the rules read it; nil when no such job takes input.
func (t *Toolset) stdinJob(pid int) (*JobInfo, string) {
	var job *JobInfo
	for _, j := range t.shell.Jobs() {
		if j.PID == pid {
			job = &j
			break
		}
	}
	if job == nil || job.Input == "" || job.Input == "closed" {
		return nil, ""
	}
	command := job.Command
	if len(job.Args) > 0 {
		command = quoteArgv(append([]string{job.Command}, job.Args...))
	}
	return job, command
}

// typedText is a write_stdin's input as the person is shown it, each
// key in angle brackets.
func typedText(in WriteStdinInput) string {
	typed := in.Input
	for _, k := range in.Keys {
		typed += "<" + k + ">"
	}
	return typed
}

// decidePipeInput decides what is written to a shell reading a pipe
// (prog) as the commands it holds. decided says that no one is asked:
// refused is then the refusal, or nil to send the input; else d holds
// the parts to ask about.
//
// Commands typed into a shell reading a pipe are decided as a command of
// their own would be; the shell's variables are not known, so no
// arithmetic on them is. Only whole commands are sent: what the shell
// holds unended it joins to the next write, which would be decided
// alone. Refusing a piece, rather than holding it until the rest comes,
// keeps the shell at the start of a command before every write, with no
// text waiting in spillway that neither the model nor the person sees.
func (t *Toolset) decidePipeInput(in WriteStdinInput, prog, typed string) (d RulesDetails, refused *Result[BashDetails], decided bool) {
	text, ends, err := shell.PipeText(in)
	if err != nil {
		return d, nil, true // the write itself refuses the key
	}
	if r := rules.WholeCommands(text, ends); r != "" {
		d = RulesDetails{Decision: "deny", Parts: []RulePart{{Command: typed, Decision: "deny", Reason: r}}}
		return d, t.refusal(&d, fmt.Sprintf("[not sent: job %d runs %s reading a pipe, and what is written to it is decided as whole commands; this input is not (%s), so nothing was sent. Send whole commands, each line ended with a newline, in one write_stdin.]", in.PID, prog, r)), true
	}
	if text == "" {
		return d, nil, true // a signal, or the end of input: no command
	}
	v := t.rulesNow().set.CheckIn(text, rules.Context{Dir: t.cwd, PATH: os.Getenv("PATH"), Writable: t.writableDir()})
	d = rulesDetails(v)
	// The parts the person allowed for the session are allowed: the
	// part, not what else is typed.
	t.allowApprovedParts(&d)
	switch d.Decision {
	case "allow":
		return d, nil, true
	case "deny":
		return d, t.refusal(&d, deniedText(d)), true
	}
	return d, nil, false
}

// askStdin asks the person about the parts ask of an input to a job,
// described as question. It returns the answer, or the refusal when no
// one could answer.
func (t *Toolset) askStdin(ctx context.Context, d *RulesDetails, ask []RulePart, question string) (string, *Result[BashDetails]) {
	a := t.askerFor(ctx)
	if a == nil {
		return "", t.refusal(d, cannotAskText(ask, "no one can be asked (the library was given no Asker)"))
	}
	answer, err := a(ctx, question, t.cwd, ask)
	var notice askNotice
	if errors.As(err, &notice) {
		return "", t.refusal(d, notice.Notice())
	}
	if err != nil {
		return "", t.refusal(d, cannotAskText(ask, err.Error()))
	}
	return answer, nil
}

// interactiveTypingReason is why typing into such a job is asked about.
const interactiveTypingReason = "allowing a program by name allows starting it, not what is typed into it; \"allow for this session\" allows typing into this job"

// allowApprovedParts allows each part of d that asks and that the person
// allowed for the session; d is allowed when no part asks any more.
func (t *Toolset) allowApprovedParts(d *RulesDetails) {
	if d.Decision != "ask" {
		return
	}
	pending := false
	for i, p := range d.Parts {
		if p.Decision == "ask" && t.approved.has(p.Command) {
			d.Parts[i].Decision, d.Parts[i].ApprovedForSession = "allow", true
		}
		pending = pending || d.Parts[i].Decision == "ask"
	}
	if !pending {
		d.Decision = "allow"
	}
}
