package shell

import (
	"time"
)

// A JobView is a background job as it stands, for a listing.
type JobView struct {
	PID     int
	Command string
	Args    []string
	State   JobState
	// Exit is how the job's shell ended; nil while it runs. A job whose
	// shell exited can still be running: processes it started live on.
	Exit  *Exit
	Input InputKind
	// SecretURL is the page where the person answers the secret prompt
	// of a job in JobWaitingSecret; "" when none could be opened.
	SecretURL string
	// Elapsed is the time from the start to the shell's exit, or to now.
	Elapsed        time.Duration
	Stdout, Stderr Totals
}

// A JobState is what a background job is doing.
type JobState int

const (
	JobExited        JobState = iota // its shell exited and nothing it started runs
	JobRunning                       // it runs
	JobWaitingInput                  // it seems to wait for input
	JobWaitingSecret                 // its terminal reads a secret
)

// An InputKind is what a job's stdin is.
type InputKind int

const (
	InputNone   InputKind = iota // /dev/null
	InputTTY                     // a terminal
	InputPipe                    // a pipe still open
	InputClosed                  // a pipe it was sent the end of
)

// An Exit is how a shell ended: its exit code, or the signal that
// killed it (the code is then 128+signal, as a shell reports it).
type Exit struct {
	Code   int
	Signal string // "SIGKILL", or "" when the shell exited by itself
}

func (s exitStatus) view() *Exit { return &Exit{Code: s.code, Signal: s.signal} }

// Totals are how much a stream carried and where it is kept whole.
type Totals struct {
	Bytes, Lines int64
	// SpillPath is the spill file that holds the stream; SpillCapped
	// says it reached its size cap, and TailPath then holds the end of
	// the stream, when it could be kept.
	SpillPath   string
	SpillCapped bool
	TailPath    string
	Binary      bool
	// SpillError says why the spill file holds only the stream's start.
	SpillError string
}

// Jobs lists the session's background jobs, oldest first: the commands
// that check_pid, write_stdin and kill_pid reach.
func (r *Runner) Jobs() []JobView {
	r.mu.Lock()
	jobs := append([]*job(nil), r.jobs...)
	r.mu.Unlock()
	views := make([]JobView, 0, len(jobs))
	for _, j := range jobs {
		views = append(views, j.view())
	}
	return views
}

// view describes the job as it stands; its windows are not cut.
func (j *job) view() JobView {
	l := j.look()
	v := JobView{PID: j.pid, Command: j.command, Args: j.args, Elapsed: j.duration()}
	switch {
	case l.secret:
		v.State = JobWaitingSecret
		if pg, err := j.secretPage(); err == nil {
			v.SecretURL = pg.URL()
		}
	case l.waiting:
		v.State = JobWaitingInput
	case l.running:
		v.State = JobRunning
	default:
		v.State = JobExited
	}
	if l.exited {
		v.Exit = j.status.view()
	}
	switch {
	case j.input == nil:
	case j.input.tty:
		v.Input = InputTTY
	case j.input.closed.Load():
		v.Input = InputClosed
	default:
		v.Input = InputPipe
	}
	v.Stdout = j.stdout.totals()
	if j.stderr != nil {
		v.Stderr = j.stderr.totals()
	}
	return v
}

// totals says how much the stream has carried so far and where it
// spills.
func (s *stream) totals() Totals {
	s.mu.Lock()
	defer s.mu.Unlock()
	bytes, lines := s.pipe.Progress()
	st := s.pipe.Stream()
	return Totals{Bytes: bytes, Lines: lines, SpillPath: st.SpillPath, SpillCapped: st.SpillCapped, Binary: st.Binary, SpillError: st.SpillError}
}

// String is the status line of a result: "exit code: 0", or
// "exit code: 137 (killed by SIGKILL)".
func (e Exit) String() string { return exitStatus{code: e.Code, signal: e.Signal}.String() }
