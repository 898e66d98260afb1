package shell

import "github.com/spillway-dev/spillway/tool"

// An Exit is how a shell ended: its exit code, or the signal that
// killed it (the code is then 128+signal, as a shell reports it).
type Exit struct {
	Code   int
	Signal string // "SIGKILL", or "" when the shell exited by itself
}

func (s exitStatus) view() *Exit { return &Exit{Code: s.code, Signal: s.signal} }

// Jobs lists the session's background jobs, oldest first: the commands
// that check_pid, write_stdin and kill_pid reach.
func (r *Runner) Jobs() []tool.JobInfo {
	r.mu.Lock()
	jobs := append([]*job(nil), r.jobs...)
	r.mu.Unlock()
	infos := make([]tool.JobInfo, 0, len(jobs))
	for _, j := range jobs {
		infos = append(infos, j.info())
	}
	return infos
}

// info describes the job as it stands; its windows are not cut.
func (j *job) info() tool.JobInfo {
	l := j.look()
	j.recordEnd(l)
	v := tool.JobInfo{PID: j.pid, Command: j.command, Args: j.args, DurationMS: j.duration().Milliseconds()}
	switch {
	case l.secret:
		v.State = "waiting for secret"
		j.secretPage() // opened for the person; its address is theirs only
	case l.waiting:
		v.State = "waiting for input"
	case l.running:
		v.State = "running"
	default:
		v.State = "exited"
	}
	if l.exited {
		code := j.status.code
		v.ExitCode, v.Signal = &code, j.status.signal
	}
	switch {
	case j.input == nil:
	case j.input.tty:
		v.Input = "tty"
	case j.input.closed.Load():
		v.Input = "closed"
	default:
		v.Input = "stdin"
	}
	v.Stdout = j.stdout.totals()
	if j.stderr != nil {
		v.Stderr = j.stderr.totals()
	}
	return v
}

// totals says how much the stream has carried so far and where it
// spills.
func (s *stream) totals() tool.StreamRecord {
	s.mu.Lock()
	defer s.mu.Unlock()
	bytes, lines := s.pipe.Progress()
	st := s.pipe.Stream()
	return tool.StreamRecord{TotalBytes: bytes, TotalLines: lines, FullOutputPath: st.SpillPath, SpillCapped: st.SpillCapped, Binary: st.Binary, SpillError: st.SpillError}
}

// String is the status line of a result: "exit code: 0", or
// "exit code: 137 (killed by SIGKILL)".
func (e Exit) String() string { return exitStatus{code: e.Code, signal: e.Signal}.String() }
