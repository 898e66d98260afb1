package shell

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spillway-dev/spillway/internal/policy"
	"github.com/spillway-dev/spillway/internal/rules"
	"github.com/spillway-dev/spillway/output"
	"github.com/spillway-dev/spillway/tool"
)

// A command to run is a tool.BashInput: what Run takes. Its plan, below,
// makes from it the process's program, arguments, directory and
// environment.

// checkCommand checks the parameters that do not depend on the session.
func checkCommand(in command) error {
	// The limits hold whether or not rules are in force: a command
	// longer than an argument of bash -c can carry could not start, and
	// one nested deeper than any parser should recurse is no command.
	if err := rules.Limit(in.Command); err != nil {
		return err
	}
	if in.Session != "" {
		if err := validSession(in.Session); err != nil {
			return err
		}
	}
	for i, a := range in.Args {
		if strings.IndexByte(a, 0) >= 0 {
			return fmt.Errorf("args[%d] holds a NUL byte, which no program argument can carry", i)
		}
	}
	if i := strings.IndexByte(in.Command, 0); i >= 0 {
		return fmt.Errorf("command holds a NUL byte (at byte %d), which no program argument can carry: remove it, or write the bytes with printf '\\0'", i)
	}
	for k, v := range in.Env {
		if err := CheckEnv(k, v); err != nil {
			return fmt.Errorf("env: %w", err)
		}
	}
	return checkDiffWith(in)
}

// commandDir resolves the call's working directory against the
// session's.
func commandDir(in command, session string) string {
	switch {
	case in.Cwd == "":
		return session
	case filepath.IsAbs(in.Cwd):
		return filepath.Clean(in.Cwd)
	default:
		return filepath.Join(session, in.Cwd)
	}
}

// A plan is how the process of one call is made: the program and its
// arguments (`bash -c COMMAND`, or the program of args run without a
// shell), its directory and environment, and its session.
type plan struct {
	dir  string
	path string
	argv []string
	env  []string
	// extra are the descriptors from 3 on (the session's state file).
	extra []*os.File
	sess  *sessionCall
	// notes are said after the result's status line.
	notes []string
	// cacheKey identifies the call for the cache; "" when not cacheable.
	cacheKey string
	// rec is the call's history record, once its job started.
	rec *record
	job *job
}

// plan resolves a call's session, directory, environment and program.
func (r *Runner) plan(in command) (*plan, error) {
	p := &plan{}
	cwd := r.cfg.Cwd
	var set map[string]string
	var unset map[string]bool
	var s *session
	if in.Session != "" {
		var forgot string
		s, forgot = r.sessions.session(in.Session)
		if forgot != "" {
			p.notes = append(p.notes, fmt.Sprintf("[Session %q was forgotten to make room: a toolset keeps at most %d sessions.]", forgot, maxSessions))
		}
		var scwd string
		scwd, set, unset = s.begin()
		if scwd != "" {
			cwd = scwd
		}
	}
	p.dir = commandDir(in, cwd)
	if fi, err := os.Stat(p.dir); err != nil {
		if s != nil && in.Cwd == "" {
			return nil, fmt.Errorf("the directory of session %q: %w (give cwd, or cd elsewhere with cwd set)", in.Session, err)
		}
		return nil, fmt.Errorf("cwd: %w", err)
	} else if !fi.IsDir() {
		return nil, fmt.Errorf("cwd %s is not a directory", p.dir)
	}
	if s != nil {
		p.env = sessionEnviron(r.cfg.Env, set, unset, in.Env)
	} else {
		p.env = environ(r.cfg.Env, in.Env)
	}
	if in.TTY {
		// A terminal emulator keeps the screen: TERM names a capable
		// terminal in place of the fixed TERM=dumb, and the call's own
		// env still has the last word.
		p.env = appendEnv(append(p.env, ttyEnv), in.Env)
	}

	if err := r.program(p, in, s); err != nil {
		return nil, err
	}
	return p, nil
}

// program sets the plan's program and arguments: the policy's shell with
// `-c COMMAND` (in a session, with the trap that saves its state to the
// state file it is given), or the program of args, run without a shell.
func (r *Runner) program(p *plan, in command, s *session) error {
	if len(in.Args) > 0 {
		path, err := lookProgram(in.Command, p.dir, p.env)
		if err != nil {
			return err
		}
		p.path, p.argv = path, append([]string{in.Command}, in.Args...)
		if s != nil {
			p.sess = &sessionCall{s: s, dir: p.dir, env: p.env, keep: r.cfg.KeepVar}
		}
		return nil
	}
	shellPath, err := lookShell(r.cfg.Shell)
	if err != nil {
		return err
	}
	p.path, p.argv = shellPath, []string{r.cfg.Shell, "-c", in.Command}
	if s != nil {
		f, err := newStateFile()
		if err != nil {
			return err
		}
		p.argv[2] = stateTrap + in.Command
		p.extra = []*os.File{f}
		p.sess = &sessionCall{s: s, dir: p.dir, env: p.env, state: f, keep: r.cfg.KeepVar}
	}
	return nil
}

// release closes what a plan holds when its process was not started.
func (p *plan) release() {
	if p.sess != nil && p.sess.state != nil {
		p.sess.state.Close()
	}
}

// lookProgram finds the program of an args call as execvp would: a name
// with a slash is a path (relative to dir), any other is looked up in the
// PATH of the command's own environment.
func lookProgram(name, dir string, env []string) (string, error) {
	if strings.Contains(name, "/") {
		p := name
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		if err := executable(p); err != nil {
			return "", fmt.Errorf("cannot run %s: %w", name, err)
		}
		return p, nil
	}
	path := envMap(env)["PATH"]
	for _, d := range filepath.SplitList(path) {
		if d == "" {
			d = "."
		}
		if !filepath.IsAbs(d) {
			d = filepath.Join(dir, d)
		}
		p := filepath.Join(d, name)
		if executable(p) == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("cannot run %q: no such program in PATH (%s); args runs a program without a shell, so give a shell command without args", name, path)
}

func executable(p string) error {
	fi, err := os.Stat(p)
	if err != nil {
		return err
	}
	if fi.IsDir() {
		return errors.New("is a directory")
	}
	if fi.Mode().Perm()&0o111 == 0 {
		return errors.New("is not executable")
	}
	return nil
}

// commandLimits applies the call's limit parameters to the policy of
// bash.
func commandLimits(in command, b tool.BashPolicy) tool.BashPolicy {
	b = forCall(b, in.MaxLines, in.MaxBytes, in.FullOutput, in.MaxTokens)
	if in.FullOutput {
		return b
	}
	for _, s := range []struct {
		lim *output.Limits
		n   int
	}{{&b.Stdout, in.lines.Stdout}, {&b.Stderr, in.lines.Stderr}} {
		if s.n > 0 {
			s.lim.MaxLines, s.lim.ShownLines = min(s.n, policy.LinesCeiling), 0
		}
	}
	return b
}

// A command is a bash call as the runner carries it: the model's input,
// the caller's hooks (CallInfo) and the per-stream line limits a peer's
// parameters set (WithLines).
type command struct {
	tool.BashInput
	call  tool.CallInfo
	lines Lines
}

// Lines are per-stream line limits that no parameter of bash sets: a
// peer's (macos-shell's maxOutputLines and maxErrorLines). Zero is
// none.
type Lines struct{ Stdout, Stderr int }

type linesKey struct{}

// WithLines returns ctx carrying the per-stream line limits l, for the
// bash calls made with it.
func WithLines(ctx context.Context, l Lines) context.Context {
	return context.WithValue(ctx, linesKey{}, l)
}

func linesFrom(ctx context.Context) Lines {
	l, _ := ctx.Value(linesKey{}).(Lines)
	return l
}
