package shell

import (
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"time"

	"github.com/spillway-dev/spillway/internal/proc"
	"github.com/spillway-dev/spillway/internal/term"
	"github.com/spillway-dev/spillway/output"
)

// How long a call waits, after its shell exits, for the job to finish
// before the processes left behind become a background job. A call
// returns within 1 s of the exit: lingerGrace waits for quick
// children, and drainWait more only when no process holds the pipes any
// more, so all that remains is to read what is buffered in them.
const (
	lingerGrace = 200 * time.Millisecond
	drainWait   = 500 * time.Millisecond
	// initGrace is how long a look waits, after the shell of a wrapped
	// command exited and its output is read, for the process that
	// outlives the shell (the sandbox's init) to end.
	initGrace = 100 * time.Millisecond
	pollEvery = 10 * time.Millisecond
)

// A job is one command: its shell (pid = process group id), the
// processes the shell started, and the pipelines its output flows through.
// A call that returns while the job runs (timeout, run_in_background,
// lingering children) leaves it in the Runner's job table.
type job struct {
	pid     int
	start   time.Time
	cmd     *exec.Cmd
	command string          // as the call gave it
	args    []string        // the call's args, when it ran a program without a shell
	hurry   <-chan struct{} // closed when the session closes

	// input is the job's stdin pipe or terminal; nil for /dev/null.
	input *jobInput
	// term keeps the screen of a job on a terminal; nil without one.
	term *term.Screen
	// shown is the screen as the last look showed it, nil when that look
	// showed the stream (guarded by shownMu).
	shown   *term.View
	shownMu sync.Mutex
	// gaveUpSaid: a result said that the screen gave up (see
	// screenGaveUp).
	gaveUpSaid atomic.Bool

	// lastOutput is when output last arrived (Unix ns), the start until
	// then.
	lastOutput atomic.Int64
	// lastInput is when input was last written to it (Unix ns), or 0.
	lastInput atomic.Int64

	stdout *stream
	stderr *stream // nil when stderr goes into stdout

	// statusPipe, for a wrapped command, yields the shell's wait status
	// when it exits; the process cmd started then outlives the shell.
	statusPipe *os.File

	exited chan struct{} // closed once the shell has exited
	// reaped is closed once the process started is reaped: the shell, or
	// for a wrapped command the process that outlives it.
	reaped chan struct{}
	status exitStatus // set before exited is closed
	end    time.Time  // set before exited is closed

	pending     atomic.Int32  // readers still running
	readersDone chan struct{} // closed when every pipe is drained and closed
	// fault is the first panic of the job's goroutines, as an error
	// (guard.go).
	fault atomic.Pointer[error]

	// completeRecord completes the job's history record once it has
	// ended (nil for a job with none): a result that reports the end
	// calls it, so that the history read next says what the result said.
	// It is set before the job can be found by its pid.
	completeRecord func()

	mu   sync.Mutex
	gone bool // no live process and no open pipe remain (final once true)

	// pipeMu guards the closing of the read ends against heldPipes: a
	// pipe's inode names it only while we hold its read end open; once it
	// is closed, the kernel may give the number to a new pipe of anyone.
	pipeMu sync.Mutex

	stopMu sync.Mutex // serialises stop

	// budget is the most bytes one result of the job shows (0: none);
	// errBudget, when above zero, the most a result of the job shows once
	// it has failed.
	budget, errBudget int
	// render lays out its results (Config.Render).
	render func(Page) string
	// news wakes a check that waits for new output.
	news activity

	// procs are its processes: its process group and those that hold
	// its pipes.
	procs *proc.Group

	// Set by the call that started the job, before it is shared.
	timeout  time.Duration
	timedOut bool

	// sess is the job's session call, nil outside a named session.
	sess *sessionCall

	// secret is its secret prompt, when its terminal asks for one.
	secret secretState

	// console is the person's hold on the job (console.go).
	console personHold
}

// A stream is one output pipe of a job and its pipeline. The reader
// goroutine writes to the pipeline; calls cut windows from it.
type stream struct {
	label  string
	r      *os.File
	ino    uint64   // the pipe's inode, to find the processes that hold it
	tty    string   // or the terminal's slave ("/dev/pts/N"), for the same
	closed bool     // r is closed (guarded by the job's pipeMu)
	stop   readStop // cutOff stops the reader with it

	mu   sync.Mutex
	pipe *output.Pipeline
	// shown is what pipe had seen (Progress bytes) at the last cut.
	shown int64
}

// newJob returns a job for the command of in, not started yet.
func newJob(in command) *job {
	j := &job{
		command:     in.Command,
		args:        in.Args,
		exited:      make(chan struct{}),
		reaped:      make(chan struct{}),
		readersDone: make(chan struct{}),
	}
	j.procs = proc.NewGroup(j.exited, j.readersDone, j.heldPipes)
	return j
}

// newStream makes a pipe whose read end feeds pipe; the caller passes the
// write end to the child and closes it.
func newStream(label string, pipe *output.Pipeline) (*stream, *os.File, error) {
	r, w, err := makePipe()
	if err != nil {
		return nil, nil, err
	}
	s := &stream{label: label, r: r, pipe: pipe}
	if fi, err := r.Stat(); err == nil {
		s.ino = proc.Inode(fi)
	}
	return s, w, nil
}

// goRead reads the stream s on a goroutine of its own. However the
// reading ends, the stream is then closed and counted once, and the waits
// on the readers end; a panic is the job's error before that, so that
// the call those waits end reports it.
func (j *job) goRead(s *stream) {
	go func() {
		defer j.readDone(s)
		runGuarded("the reader of the command's "+s.label, func() { j.read(s) }, j.fail)
	}()
}

// readDone closes the stream s and counts it done: the last one ends the
// waits on the readers.
func (j *job) readDone(s *stream) {
	j.pipeMu.Lock()
	s.r.Close()
	s.closed = true
	j.pipeMu.Unlock()
	if j.pending.Add(-1) == 0 {
		close(j.readersDone)
		j.noteFinished()
	}
}

// read copies the pipe into the pipeline until every writer has closed it
// (or cutOff stops it), then closes the pipeline.
func (j *job) read(s *stream) {
	hookAt("the reader of the command's " + s.label)
	// A terminal's master reads EIO once no process holds the slave:
	// its end of file.
	j.drainGuarded(s)
	if j.term != nil {
		j.term.Close()
	}
	func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.pipe.Close()
	}()
}

// drainGuarded reads the stream to its end. A panic while its output is taken
// (a bug) ends the stream with a notice in its output, and the job
// goes on being waited for, instead of ending the process.
func (j *job) drainGuarded(s *stream) {
	defer func() {
		if p := recover(); p != nil {
			func() {
				defer func() { recover() }() // the pipeline itself may be what fails
				s.mu.Lock()
				defer s.mu.Unlock()
				s.pipe.Write(fmt.Appendf(nil, "\n[spillway: internal error while reading this output (%v); the rest of it is lost]\n", p))
			}()
			// Keep the pipe read, so that the command is not stopped by
			// SIGPIPE, but take nothing more of it.
			s.drainStream(func([]byte) {}, &j.pipeMu)
		}
	}()
	s.drainStream(func(b []byte) { j.take(s, b) }, &j.pipeMu)
}

// take passes a chunk of output to the stream's pipeline, and to the
// screen of a job on a terminal. When the program leaves the alternate
// screen, what it drew there is no longer what a person sees: the window
// is cut there (its text stays in the spill file), and the next look
// shows the text that follows.
func (j *job) take(s *stream, b []byte) {
	left, at := false, 0
	if j.term != nil {
		left, at = j.term.Write(b)
	}
	j.console.watch(b)
	func() {
		// Unlocked however Write ends: a panic in it must not leave
		// the stream locked for every later look.
		s.mu.Lock()
		defer s.mu.Unlock()
		if left {
			s.pipe.Write(b[:at])
			s.pipe.Cut()
			b = b[at:]
		}
		s.pipe.Write(b)
	}()
	j.noteOutput()
}

// wait reaps the shell, or for a wrapped command learns the shell's exit
// from the status pipe and then reaps the process it started.
func (j *job) wait() {
	hookAt("the wait for the command's exit")
	if j.statusPipe != nil {
		var b [4]byte
		if _, err := io.ReadFull(j.statusPipe, b[:]); err == nil {
			j.exit(decodeStatus(binary.NativeEndian.Uint32(b[:])))
		}
		j.statusPipe.Close()
	}
	if j.cmd.Process == nil {
		// Started by another process, which reaped it: a status that
		// never came means that one failed.
		close(j.reaped)
		if !isClosed(j.exited) {
			j.exit(exitStatus{code: 126})
		}
		return
	}
	j.cmd.Wait() // the exit status is read from ProcessState
	close(j.reaped)
	if !isClosed(j.exited) {
		j.exit(statusOf(j.cmd.ProcessState))
	}
}

// exit records how the shell ended.
func (j *job) exit(s exitStatus) {
	j.procs.ShellExited()
	j.status = s
	j.end = time.Now()
	close(j.exited)
	j.noteFinished()
}

// noteFinished records, as soon as the shell has exited and the pipes are
// closed, whether the process group is already empty: once the job is
// known to be gone, a later stop or Close never signals its pid again,
// which by then may name an unrelated process group.
func (j *job) noteFinished() {
	if isClosed(j.exited) && isClosed(j.readersDone) {
		j.running()
	}
}

func (j *job) streams() []*stream {
	if j.stderr == nil {
		return []*stream{j.stdout}
	}
	return []*stream{j.stdout, j.stderr}
}

// noteOutput records that output arrived, for the waits on it.
func (j *job) noteOutput() {
	j.lastOutput.Store(time.Now().UnixNano())
	j.news.signal()
}

func isClosed(c <-chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// hasExited reports whether the shell has been reaped.
func (j *job) hasExited() bool { return isClosed(j.exited) }

// isGone reports whether the job was found gone, without looking again.
func (j *job) isGone() bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.gone
}

// running reports whether anything of the job is left: the shell, an open
// pipe (held by a child, even one that left the process group), or a live
// member of the process group.
func (j *job) running() bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.gone {
		return false
	}
	if !isClosed(j.exited) || !isClosed(j.readersDone) || j.procs.Live() {
		return true
	}
	j.gone = true
	j.input.close()
	j.closeSecret()
	j.procs.Forget()
	return false
}

// settle waits, after the shell's exit, for the job to finish: its pipes
// to close and its process group to empty. It gives up after lingerGrace
// (or drainWait later, when no process holds the pipes and only buffered
// output is left to read) and reports whether the job finished.
func (j *job) settle(ctx context.Context) bool {
	grace := time.NewTimer(lingerGrace)
	defer grace.Stop()
	select {
	case <-j.readersDone:
	case <-ctx.Done():
		return false
	case <-grace.C:
		if j.procs.HoldersLeft() {
			return false
		}
		grace.Reset(drainWait)
		select {
		case <-j.readersDone:
		case <-ctx.Done():
			return false
		case <-grace.C:
			return false
		}
	}
	if !j.running() {
		return true
	}
	// The pipes are closed but the process group has live members.
	tick := time.NewTicker(pollEvery)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return false
		case <-grace.C:
			return false
		case <-tick.C:
			if !j.running() {
				return true
			}
		}
	}
}

// drain waits a little for the pipes to close when the shell has exited
// and no process holds them any more: the readers only have buffered
// output left. It keeps a check_pid from reporting as running a job that
// has in fact just ended.
func (j *job) drain() {
	if j.statusPipe != nil && j.hasExited() && isClosed(j.readersDone) {
		// The sandbox's init ends a moment after the shell when nothing
		// else of the job runs.
		t := time.NewTimer(initGrace)
		defer t.Stop()
		select {
		case <-j.reaped:
		case <-t.C:
		}
		return
	}
	if !j.hasExited() || isClosed(j.readersDone) || j.procs.HoldersLeft() {
		return
	}
	t := time.NewTimer(drainWait)
	defer t.Stop()
	select {
	case <-j.readersDone:
	case <-t.C:
	}
}

// cut returns what each stream shows since the previous cut, within the
// job's result budget (its error budget once it has failed) as render
// measures the whole text, and starts new
// windows. Both streams are held still meanwhile, so that the windows cut
// are the ones measured.
func (j *job) cut(failed bool, render func(stdout output.Result, stderr *output.Result) string) (stdout output.Result, stderr *output.Result) {
	for _, s := range j.streams() {
		s.mu.Lock()
		defer s.mu.Unlock()
	}
	var errPipe *output.Pipeline
	if j.stderr != nil {
		errPipe = j.stderr.pipe
	}
	stdout, stderr = cutWithin(j.budgetFor(failed), j.stdout.pipe, errPipe, render)
	for _, s := range j.streams() {
		s.shown, _ = s.pipe.Progress()
	}
	return stdout, stderr
}

// budgetFor is the most bytes a result of the job shows (0: no bound),
// once it has failed or not.
func (j *job) budgetFor(failed bool) int {
	budget := j.budget
	if failed && j.errBudget > 0 && (budget == 0 || j.errBudget < budget) {
		budget = j.errBudget
	}
	return budget
}

// cutWithin cuts the windows of stdout and stderr (nil when merged) with
// the shares of budget that make render's text fit it.
func cutWithin(budget int, stdout, stderr *output.Pipeline, render func(stdout output.Result, stderr *output.Result) string) (output.Result, *output.Result) {
	view := func(out, err int) (output.Result, *output.Result) {
		o := stdout.ResultWithin(out)
		if stderr == nil {
			return o, nil
		}
		e := stderr.ResultWithin(err)
		return o, &e
	}
	o, e := view(1<<30, 1<<30)
	out, err, _ := fitShares(budget, func(out, err int) string { return render(view(out, err)) },
		contentBytes(&o), contentBytes(e))
	so := stdout.CutWithin(out)
	if stderr == nil {
		return so, nil
	}
	se := stderr.CutWithin(err)
	return so, &se
}

// progress sums what both streams have seen so far.
func (j *job) progress() (bytes, lines int64) {
	for _, s := range j.streams() {
		s.mu.Lock()
		b, l := s.pipe.Progress()
		s.mu.Unlock()
		bytes += b
		lines += l
	}
	return bytes, lines
}

// duration is the time from start to the shell's exit, or to now.
func (j *job) duration() time.Duration {
	if j.hasExited() {
		return j.end.Sub(j.start)
	}
	return time.Since(j.start)
}
