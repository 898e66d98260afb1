// Package shell runs bash commands for the bash tool: one process group per
// command, both streams through the output pipeline, timeouts that
// background instead of killing, jobs, lingering children and cancellation.
//
// Every command is a job: a fresh `bash -c` in a session of its own (so
// in its own process group, with no controlling terminal),
// whose stdout and stderr are pipes read by one goroutine each into an
// output.Pipeline, and whose shell is reaped by a third. A call waits for
// the shell; when it returns while something of the job still runs (the
// timeout passed, run_in_background, or the shell exited but children
// still hold its output or live in its group), the job stays in the
// Runner's table, its output still flowing through the same pipelines and
// spill files, until check_pid, kill_pid or Close.
//
// What a job is made of, and so what stopping it reaches:
//
//   - its process group (the shell's pid): the shell and every child that
//     did not leave the group;
//   - the processes that hold its pipes, found through /proc/PID/fd by the
//     pipe inodes: children that called setsid(2) and so left the group,
//     yet still write to the command's output.
//
// A job runs while its shell runs, a pipe is open, or its group has a live
// (non-zombie) member. A child that both leaves the group and closes the
// pipes (a daemon that double-forks and closes its descriptors) is no
// longer reachable: only a cgroup could track it.
//
// Choices where docs/tools.md is silent:
//
//   - When the shell exited but children linger, the result reports the
//     shell's exit code with running: true and backgrounded: true.
//   - kill_pid succeeds (is_error false) when the job ended, whatever its
//     exit code; check_pid of a finished job is an error when its exit
//     code is not 0; a cancelled call is always an error.
//   - check_pid and kill_pid take no other parameter: the job keeps the
//     limits it was started with.
//   - The parent-death signal (SIGKILL) reaches the shell, a direct child;
//     the rest of a job is killed by the watcher process (internal/proc)
//     when a server dies without ending its sessions.
package shell

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"github.com/spillway-dev/spillway/internal/policy"
	"github.com/spillway-dev/spillway/internal/proc"
	"github.com/spillway-dev/spillway/internal/secret"
	"github.com/spillway-dev/spillway/internal/spill"
	"github.com/spillway-dev/spillway/internal/term"
	"github.com/spillway-dev/spillway/output"
	"github.com/spillway-dev/spillway/tool"
)

// Config configures a Runner.
type Config struct {
	// Cwd is the session's working directory (absolute).
	Cwd string
	// Env holds the session's extra environment variables.
	Env map[string]string
	// Shell runs the commands ("bash" if empty).
	Shell string
	// Timeout is the default timeout of a command, after which it moves
	// to the background (policy.DefaultTimeout if zero). MaxWait, when
	// above zero, bounds how long one call waits.
	Timeout, MaxWait time.Duration
	// ResultBudget bounds a result's characters, both streams together
	// (zero: no budget); ErrorResultBudget, when above zero, that of a
	// failed command.
	ResultBudget, ErrorResultBudget int
	// Bash limits each stream (output.DefaultLimits for a zero one), says
	// whether stderr goes into stdout and when a stream is spilled or
	// binary, caps the tasks of one job (zero: no cap), and whether a cut
	// stream is shown as a digest of its shapes (unless the call gives
	// limits of its own).
	Bash tool.BashPolicy
	// CacheCommands may be answered from a result recorded within
	// CacheTTL (docs/tools.md); none by default.
	CacheCommands []string
	CacheTTL      time.Duration
	// Spill receives the output that does not fit; nil keeps none.
	Spill *spill.Store
	// Wrap, when set, rewrites each command before it starts: the
	// sandbox (sandbox.Wrap) runs it through a confining helper. An error
	// refuses the command.
	Wrap func(*exec.Cmd) (*Wrapped, error)
	// Secrets serve the pages on which the person answers a secret
	// prompt; nil serves none.
	Secrets *secret.Pages
	// SecretTrust says which programs' prompts are verified (asker.go).
	SecretTrust SecretTrust
	// KeepVar, when set, says whether a named session may carry a
	// variable its command changed to the next call; a change it refuses
	// is dropped, and the result names it. The command rules refuse the
	// variables that choose what runs (PATH, BASH_ENV, GIT_*): the next
	// call would run under a value no rule saw.
	KeepVar func(name string) bool
	// Render lays out a page of a job as its result's text. It is
	// required: the budget is shared between the streams by rendering
	// the page with smaller windows until the text fits.
	Render func(Page) string
}

// Wrapped is what Config.Wrap made of a command.
type Wrapped struct {
	// Status, when set, is the read end of a pipe on which one byte
	// arrives once the shell has started (the Runner waits for it, so
	// that no signal it sends is lost), then the shell's wait status (4
	// bytes, native order) when the shell exits:
	// the process started is then not the shell but one that outlives
	// it for as long as anything the shell started lives (the init of a
	// PID namespace), so its own end is the job's. The Runner closes it.
	Status *os.File
	// Started, when set, is called once the command has started (or
	// failed to).
	Started func()
	// Start, when set, starts the command in place of cmd.Start and
	// returns its pid: another process forks it (the sandbox's session
	// zygote), so it is not this one's child, and Status then carries the
	// shell's own wait status, its end.
	Start func() (pid int, err error)
}

// A Runner runs the bash calls of one session and owns its jobs. Its
// methods are safe for concurrent use.
type Runner struct {
	cfg Config
	// mark is in every command's environment: it finds what a job left
	// behind. It is made, and listed with the watcher process, by the
	// first command, so a session that runs none (a CLI read or grep)
	// starts no watcher and scans no process table when it ends.
	markOnce sync.Once
	mark     string
	// cg is the session's cgroup, made with the mark where cgroups are in
	// use (nil elsewhere): every command forked by this process runs in
	// it, and the session's end kills what is in it. outside: a command
	// runs outside it (the sandbox forked it, or the fork into it
	// failed), and only the mark finds what that one left.
	cg      *proc.Cgroup
	outside bool // guarded by mu

	mu       sync.Mutex
	closed   bool
	closing  chan struct{}     // closed when Close starts: stops hurry
	starting sync.WaitGroup    // launches in progress
	calls    map[*job]struct{} // commands that calls are waiting on
	jobs     []*job            // background jobs, oldest first

	sessions sessionTable // named sessions
	history  history      // every command started
	flights  flights      // cacheable runs in progress

	// emulation is the processor time the terminal emulators of this
	// session's jobs share (term.Budget): one session's flood of costly
	// sequences lags its own screens, not the server.
	emulation *term.Budget
}

// NewRunner returns a Runner.
func NewRunner(cfg Config) *Runner {
	if cfg.Render == nil {
		panic("shell: NewRunner needs a Config.Render to lay out its results")
	}
	if cfg.Shell == "" {
		cfg.Shell = "bash"
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = policy.DefaultTimeout
	}
	if cfg.Bash.Stdout == (output.Limits{}) {
		cfg.Bash.Stdout = output.DefaultLimits
	}
	if cfg.Bash.Stderr == (output.Limits{}) {
		cfg.Bash.Stderr = output.DefaultLimits
	}
	r := &Runner{cfg: cfg, calls: map[*job]struct{}{}, closing: make(chan struct{}), emulation: term.NewBudget()}
	r.history.store = cfg.Spill
	return r
}

// markEnv adds the Runner's mark, made on first use, to a command's
// environment.
func (r *Runner) markEnv(env []string) []string {
	r.markOnce.Do(func() {
		r.mark = proc.NewMark()
		r.cg = proc.NewCgroup()
	})
	if r.mark == "" {
		return env
	}
	return append(env, r.mark)
}

// launch starts a command as a job the Runner tracks.
func (r *Runner) launch(in command, pl *plan) (*job, error) {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return nil, tool.ErrClosed
	}
	r.starting.Add(1)
	r.mu.Unlock()
	defer r.starting.Done()

	j, err := r.startJob(in, pl)
	if err != nil {
		pl.release()
		return nil, err
	}
	r.mu.Lock()
	r.calls[j] = struct{}{}
	r.mu.Unlock()
	return j, nil
}

// startJob builds the pipelines and pipes, starts the shell, and starts
// the goroutines that read its output and reap it.
func (r *Runner) startJob(in command, pl *plan) (*job, error) {
	j := r.jobFor(in, pl)
	outPipe, errPipe, err := r.pipelines(in)
	if err != nil {
		return nil, err
	}
	// The child's ends: stdin (nil is /dev/null), stdout, stderr. They
	// are closed here once the child has its copies.
	var child childFiles
	if err := j.openChild(in, outPipe, errPipe, r.emulation, &child); err != nil {
		return nil, err
	}
	j.cmd = r.shellCmd(j, in, pl, &child)
	err = r.startShell(j)
	child.close()
	if err != nil {
		j.closeUnstarted()
		return nil, startError(pl.argv[0], err)
	}
	j.follow(r.cfg.Bash.MaxProcesses)
	return j, nil
}

// jobFor makes the job of a call, with the session's budgets, renderer
// and secret pages.
func (r *Runner) jobFor(in command, pl *plan) *job {
	j := newJob(in)
	j.sess, j.budget, j.errBudget = pl.sess, r.cfg.ResultBudget, r.cfg.ErrorResultBudget
	j.render = r.cfg.Render
	j.hurry = r.closing
	j.secret.pages, j.secret.cwd, j.secret.trust = r.cfg.Secrets, pl.dir, r.cfg.SecretTrust
	if in.FullOutput || in.MaxBytes > 0 {
		// The call asked for its size itself: it gets it.
		j.budget, j.errBudget = 0, 0
	}
	return j
}

// pipelines builds the pipeline of a command's stdout, and of its stderr
// unless the streams are merged (errPipe is then nil).
func (r *Runner) pipelines(in command) (outPipe, errPipe *output.Pipeline, err error) {
	// The policy's limits with the call's max_lines, max_bytes and
	// full_output applied, each held to its ceiling.
	pol := commandLimits(in, r.cfg.Bash)
	seq := 0
	if r.cfg.Spill != nil {
		seq = r.cfg.Spill.NextSeq()
	}
	if outPipe, err = r.pipeline(in, pol, seq, "stdout", pol.Stdout); err != nil {
		return nil, nil, err
	}
	if !pol.MergeStreams && !in.TTY { // a terminal is one stream
		if errPipe, err = r.pipeline(in, pol, seq, "stderr", pol.Stderr); err != nil {
			return nil, nil, err
		}
	}
	return outPipe, errPipe, nil
}

// pipeline builds the pipeline of the stream name of the call seq, which
// spills to the session's store.
func (r *Runner) pipeline(in command, pol tool.BashPolicy, seq int, name string, lim output.Limits) (*output.Pipeline, error) {
	if err := lim.Validate(); err != nil {
		return nil, fmt.Errorf("%s limits: %w", name, err)
	}
	opt := output.Options{Limits: lim, SpillWhen: pol.SpillWhen, TailKeep: tailKeep, Shapes: r.cfg.shapes(in), Binary: pol.Binary}
	if r.cfg.Spill != nil {
		opt.Spill = r.cfg.Spill.Opener("bash", seq, name)
	}
	return output.New(opt), nil
}

// openChild makes the ends the child gets and the job reads: a terminal,
// or pipes (and the caller's stdin, when the call lends one and asks for
// no input pipe).
func (j *job) openChild(in command, outPipe, errPipe *output.Pipeline, emulation *term.Budget, child *childFiles) error {
	if in.TTY {
		return j.openTTY(outPipe, in.Cols, in.Rows, emulation, child)
	}
	if err := j.openPipes(outPipe, errPipe, in.Stdin, child); err != nil {
		return err
	}
	if !in.Stdin && in.call.Stdin != nil {
		child.stdin, child.lent = in.call.Stdin, in.call.Stdin
	}
	return nil
}

// shellCmd is the command that starts the planned program with the
// child's ends, marked as the session's.
func (r *Runner) shellCmd(j *job, in command, pl *plan, child *childFiles) *exec.Cmd {
	attr := proc.Attr()
	if in.TTY {
		attr = proc.TTYAttr()
	}
	cmd := &exec.Cmd{
		Path:        pl.path,
		Args:        pl.argv,
		Dir:         pl.dir,
		Env:         r.markEnv(j.procs.MarkEnv(pl.env)),
		Stdin:       child.stdin,
		Stdout:      child.stdout,
		Stderr:      child.stderr,
		ExtraFiles:  pl.extra,
		SysProcAttr: attr,
	}
	if child.stdin == nil {
		cmd.Stdin = nil // an untyped nil: /dev/null
	}
	return cmd
}

// startShell starts j.cmd: in the session's sandbox when it wraps
// commands, else in the session's cgroup. A command started outside any
// cgroup is noted, for Close.
func (r *Runner) startShell(j *job) error {
	j.start = time.Now()
	j.lastOutput.Store(j.start.UnixNano())
	var wrapped *Wrapped
	var err error
	if r.cfg.Wrap != nil {
		wrapped, err = r.cfg.Wrap(j.cmd)
	}
	if err == nil {
		if wrapped != nil && wrapped.Start != nil {
			// The session's sandbox forks the command itself.
			err = j.procs.StartWith(wrapped.Start)
		} else {
			j.procs.InCgroup(r.cg)
			err = j.procs.Start(j.cmd)
		}
	}
	if err == nil && j.procs.Cgroup() == nil {
		r.mu.Lock()
		r.outside = true
		r.mu.Unlock()
	}
	if wrapped != nil {
		if wrapped.Started != nil {
			wrapped.Started()
		}
		j.statusPipe = wrapped.Status
	}
	return err
}

// closeUnstarted closes the job's ends of the pipes of a shell that did
// not start.
func (j *job) closeUnstarted() {
	for _, s := range j.streams() {
		s.r.Close()
		s.pipe.Close()
	}
	j.input.close()
	if j.statusPipe != nil {
		j.statusPipe.Close()
	}
}

// startError says why prog could not start, and what to do when its
// arguments and environment were too long.
func startError(prog string, err error) error {
	if errors.Is(err, syscall.E2BIG) {
		return fmt.Errorf("cannot start %s: %w (the command, its arguments and its environment together are longer than the system lets a program start with: shorten the environment, or write the data to a file)", prog, err)
	}
	return fmt.Errorf("cannot start %s: %w", prog, err)
}

// follow takes over a job whose shell started: it caps its processes at
// maxTasks, waits for the sandbox to report the start, and starts the
// goroutines that read its output, reap it and watch its processes.
func (j *job) follow(maxTasks int) {
	j.pid = j.procs.Pid()
	// Set at once, before the shell has had time to fork: what it forks
	// inherits the cap. The sandbox's helper sets it itself before it
	// runs anything.
	j.procs.LimitTasks(maxTasks)
	if j.statusPipe != nil {
		// EOF instead means the process failed; wait reports how.
		var started [1]byte
		j.statusPipe.Read(started[:])
	}
	streams := j.streams()
	j.pending.Store(int32(len(streams)))
	for _, s := range streams {
		j.goRead(s)
	}
	goGuarded("the wait for the command's exit", j.wait, j.waitFailed)
	j.procs.Watch()
}

// Close ends the session's commands: every background job and every
// command a call still waits on is stopped (SIGTERM to the session's
// cgroup where there is one, and to each job's process group,
// SIGKILL after closeGrace; the processes outside the group that still
// hold its pipes after that are looked for and get the same), and Close
// waits until their shells are reaped and their output is read. Calls
// after Close fail.
func (r *Runner) Close() error {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return nil
	}
	r.closed = true
	close(r.closing)
	r.mu.Unlock()
	r.starting.Wait() // a launch in progress adds its job to r.calls

	r.mu.Lock()
	all := make([]*job, 0, len(r.jobs)+len(r.calls))
	all = append(all, r.jobs...)
	for j := range r.calls {
		all = append(all, j)
	}
	r.mu.Unlock()

	r.markOnce.Do(func() {}) // no mark nor cgroup is made after this
	if r.cg != nil {
		// Every process the session's commands started, whatever group
		// or session it moved to, at once. Each job's end below waits for
		// its own processes (their exit and their pipes' end, not a poll),
		// End after it for what is left.
		r.cg.Signal(syscall.SIGTERM)
	}
	var wg sync.WaitGroup
	for _, j := range all {
		wg.Go(func() { j.endForClose() })
	}
	wg.Wait()
	r.mu.Lock()
	outside := r.outside
	r.mu.Unlock()
	if r.cg != nil {
		r.cg.End(closeGrace)
		r.cg.Remove()
	}
	switch {
	case r.mark == "":
	case r.cg == nil || outside:
		proc.EndOrphans(r.mark, closeGrace)
	default:
		// The cgroup held every process the mark could find.
		proc.ForgetMark(r.mark)
	}
	return nil
}

// childFiles are the ends of a command's stdin, stdout and stderr that
// the child gets; stdin nil is /dev/null. stdout and stderr may be one.
type childFiles struct {
	stdin, stdout, stderr *os.File
	// lent is the caller's file (CallInfo.Stdin), which stays open.
	lent *os.File
}

// close closes our copies, each once.
func (c *childFiles) close() {
	seen := map[*os.File]bool{nil: true, c.lent: true}
	for _, f := range []*os.File{c.stdin, c.stdout, c.stderr} {
		if !seen[f] {
			seen[f] = true
			f.Close()
		}
	}
}

// openPipes makes the job's output pipes (one for stdout and stderr when
// errPipe is nil) and, with stdin, its input pipe.
func (j *job) openPipes(outPipe, errPipe *output.Pipeline, stdin bool, child *childFiles) error {
	var err error
	if j.stdout, child.stdout, err = newStream("stdout", outPipe); err != nil {
		return fmt.Errorf("cannot make a pipe: %w", err)
	}
	child.stderr = child.stdout
	if errPipe != nil {
		if j.stderr, child.stderr, err = newStream("stderr", errPipe); err != nil {
			j.stdout.r.Close()
			child.close()
			return fmt.Errorf("cannot make a pipe: %w", err)
		}
	}
	if stdin {
		if child.stdin, j.input, err = newStdinPipe(); err != nil {
			for _, s := range j.streams() {
				s.r.Close()
			}
			child.close()
			return fmt.Errorf("cannot make a pipe: %w", err)
		}
	}
	return nil
}
