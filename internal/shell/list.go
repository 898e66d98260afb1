package shell

import (
	"fmt"
	"strings"
	"time"
)

// JobInfo is spillway.JobInfo inside the implementation; the fields are
// documented there.
type JobInfo struct {
	PID        int          `json:"pid"`
	Command    string       `json:"command"`
	Args       []string     `json:"args,omitempty"`
	State      string       `json:"state"`
	ExitCode   *int         `json:"exit_code"`
	Signal     string       `json:"signal,omitempty"`
	Input      string       `json:"input,omitempty"`
	SecretURL  string       `json:"secret_url,omitempty"`
	DurationMS int64        `json:"duration_ms"`
	Stdout     StreamRecord `json:"stdout"`
	Stderr     StreamRecord `json:"stderr"`
}

// Jobs lists the session's background jobs, oldest first: the commands
// that check_pid, write_stdin and kill_pid reach.
func (r *Runner) Jobs() []JobInfo {
	r.mu.Lock()
	jobs := append([]*job(nil), r.jobs...)
	r.mu.Unlock()
	infos := make([]JobInfo, 0, len(jobs))
	for _, j := range jobs {
		infos = append(infos, j.info())
	}
	return infos
}

// info describes the job as it stands; its windows are not cut.
func (j *job) info() JobInfo {
	l := j.look()
	in := JobInfo{PID: j.pid, Command: j.command, Args: j.args, DurationMS: j.duration().Milliseconds()}
	switch {
	case l.secret:
		in.State = "waiting for secret"
		if pg, err := j.secretPage(); err == nil {
			in.SecretURL = pg.URL()
		}
	case l.waiting:
		in.State = "waiting for input"
	case l.running:
		in.State = "running"
	default:
		in.State = "exited"
	}
	if l.exited {
		code := j.status.code
		in.ExitCode, in.Signal = &code, j.status.signal
	}
	switch {
	case j.input == nil:
	case j.input.tty:
		in.Input = "tty"
	case j.input.closed.Load():
		in.Input = "closed"
	default:
		in.Input = "stdin"
	}
	in.Stdout = j.stdout.sizes()
	if j.stderr != nil {
		in.Stderr = j.stderr.sizes()
	}
	return in
}

// sizes says how much the stream has carried so far and where it spills.
func (s *stream) sizes() StreamRecord {
	s.mu.Lock()
	defer s.mu.Unlock()
	bytes, lines := s.pipe.Progress()
	st := s.pipe.Stream()
	return StreamRecord{TotalBytes: bytes, TotalLines: lines, FullOutputPath: st.SpillPath, SpillCapped: st.SpillCapped, Binary: st.Binary}
}

// JobsText renders a jobs listing for the model: a line per job (pid,
// state, time, input, command) and a line per stream with output.
func JobsText(jobs []JobInfo) string {
	if len(jobs) == 0 {
		return "(no background jobs: a command becomes one when it runs in the background, times out, waits for input or leaves children running)"
	}
	var b strings.Builder
	for _, j := range jobs {
		state := j.State
		if j.ExitCode != nil {
			state += fmt.Sprintf(" (exit code %d", *j.ExitCode)
			if j.Signal != "" {
				state += ", " + j.Signal
			}
			if j.State != "exited" {
				state += "; processes it started still run"
			}
			state += ")"
		}
		fmt.Fprintf(&b, "pid %d %s %s", j.PID, state, (time.Duration(j.DurationMS) * time.Millisecond).Round(100*time.Millisecond))
		if j.Input != "" {
			fmt.Fprintf(&b, " [%s]", j.Input)
		}
		fmt.Fprintf(&b, " %s\n", quoteCommand(Record{Command: j.Command, Args: j.Args}))
		if j.SecretURL != "" {
			fmt.Fprintf(&b, "  the user answers its secret prompt at %s (never you)\n", j.SecretURL)
		}
		writeStreamSizes(&b, j.Stdout, j.Stderr)
	}
	b.WriteString("[Use check_pid=PID for a job's new output, write_stdin pid=PID to answer one that waits for input, kill_pid=PID to stop one.]")
	return b.String()
}
