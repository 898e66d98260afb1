package shell

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// maxTimeoutMS bounds the timeout parameter (about 24 days), so that any
// int given fits a time.Duration.
const maxTimeoutMS = 1<<31 - 1

// Run executes one bash call: it runs Command, or checks (CheckPID) or
// stops (KillPID) a background job. A call that cannot be made returns a
// one-line error result.
func (r *Runner) Run(ctx context.Context, in Input) Result {
	if err := in.validate(); err != nil {
		return errorResult(err)
	}
	switch {
	case in.CheckPID != 0:
		return r.check(in.CheckPID)
	case in.KillPID != 0:
		return r.kill(in.KillPID)
	}
	return r.run(ctx, in)
}

// run starts a command and waits until it ends, its timeout passes, the
// context is done, or (run_in_background) not at all.
func (r *Runner) run(ctx context.Context, in Input) Result {
	if err := ctx.Err(); err != nil {
		return errorResult(fmt.Errorf("not started: %w", err))
	}
	pl, err := r.plan(in)
	if err != nil {
		return errorResult(err)
	}
	res := r.runPlan(ctx, in, pl)
	if len(pl.notes) > 0 {
		res.Text += "\n" + strings.Join(pl.notes, "\n")
	}
	return res
}

// runPlan runs a planned call.
func (r *Runner) runPlan(ctx context.Context, in Input, pl *plan) Result {
	if in.RunInBackground {
		if err := r.roomForJob(); err != nil {
			pl.release()
			return errorResult(err)
		}
	}
	j, err := r.launch(in, pl)
	if err != nil {
		return errorResult(err)
	}
	if in.RunInBackground {
		j.sess.abandon()
		return r.background(j, fmt.Sprintf("[Started in the background as pid %d. Use check_pid=%d for its output, kill_pid=%d to stop it.]",
			j.pid, j.pid, j.pid))
	}

	ms := r.cfg.Policy.TimeoutMS
	if in.Timeout > 0 {
		ms = in.Timeout
	}
	j.timeout = time.Duration(min(ms, maxTimeoutMS)) * time.Millisecond
	timer := time.NewTimer(j.timeout)
	defer timer.Stop()
	var tick <-chan time.Time
	if in.Progress != nil {
		t := time.NewTicker(time.Second)
		defer t.Stop()
		tick = t.C
	}
	for {
		select {
		case <-j.exited:
			j.sess.finish()
			if j.settle(ctx) {
				r.forgetCall(j)
				res := j.result(j.look(), "(no output)")
				res.IsError = j.status.code != 0
				return res
			}
			if ctx.Err() != nil {
				return r.cancel(j)
			}
			return r.background(j, fmt.Sprintf("[The shell exited, but processes it started still run (they hold its output or stay in its process group): "+
				"they go on as background job pid %d. Use check_pid=%d for their new output, kill_pid=%d to stop them.]", j.pid, j.pid, j.pid))
		case <-timer.C:
			if j.hasExited() {
				continue // the exit came first: report it as such
			}
			j.timedOut = true
			j.sess.abandon()
			return r.background(j, fmt.Sprintf("[Still running after the %s timeout: it goes on in the background as pid %d, its output still captured. "+
				"Use check_pid=%d for new output, kill_pid=%d to stop it.]", j.timeout, j.pid, j.pid, j.pid))
		case <-ctx.Done():
			j.sess.abandon()
			return r.cancel(j)
		case <-tick:
			in.Progress(j.progress())
		}
	}
}

// background keeps j as a background job and returns the output so far
// with note, which says how to continue.
func (r *Runner) background(j *job, note string) Result {
	if err := r.addJob(j); err != nil {
		out := j.stop()
		r.forgetCall(j)
		res := j.result(j.look(), "(no output)", stopNote(out, "Not kept in the background ("+err.Error()+")"))
		res.IsError = true
		return res
	}
	res := j.result(j.look(), "(no output)", note)
	res.Details.Backgrounded = true
	res.IsError = res.Details.ExitCode != nil && *res.Details.ExitCode != 0
	return res
}

// cancel stops the command of a call whose context is done.
func (r *Runner) cancel(j *job) Result {
	out := j.stop()
	r.forgetCall(j)
	res := j.result(j.look(), "(no output)", stopNote(out, "Cancelled"))
	res.IsError = true
	return res
}

// check returns how a background job stands and its output since the
// last look.
func (r *Runner) check(pid int) Result {
	j, err := r.findJob(pid)
	if err != nil {
		return errorResult(err)
	}
	j.drain()
	l := j.look()
	var note string
	switch {
	case l.running && l.exited:
		note = fmt.Sprintf("[pid %d: the shell has exited, but processes it started still run. Use check_pid=%d again for new output, kill_pid=%d to stop them.]", pid, pid, pid)
	case l.running:
		note = fmt.Sprintf("[pid %d is still running (%s so far). Use check_pid=%d again for new output, kill_pid=%d to stop it.]",
			pid, j.duration().Round(time.Millisecond), pid, pid)
	}
	res := j.result(l, "(no new output)", note)
	res.Details.Backgrounded = true
	res.IsError = !l.running && j.status.code != 0
	return res
}

// kill stops a background job and returns its final output.
func (r *Runner) kill(pid int) Result {
	j, err := r.findJob(pid)
	if err != nil {
		return errorResult(err)
	}
	out := j.stop()
	res := j.result(j.look(), "(no new output)", stopNote(out, fmt.Sprintf("kill_pid %d", pid)))
	res.Details.Backgrounded = true
	res.IsError = out == stopCutOff
	return res
}

// stopNote says what stop did, after what (a call, or "Cancelled").
func stopNote(out stopOutcome, what string) string {
	switch out {
	case stopNotNeeded:
		return "[" + what + ": it had already finished.]"
	case stopTerm:
		return "[" + what + ": its processes got SIGTERM and have ended.]"
	case stopKill:
		return "[" + what + ": its processes got SIGTERM, then SIGKILL after 2s, and have ended.]"
	default:
		return "[" + what + ": some of its processes survived SIGKILL or hold its output out of reach; spillway stopped reading their output.]"
	}
}

// A look is how a job stands at one moment.
type look struct {
	exited  bool // the shell has been reaped: its status is known
	running bool // something of the job is left (see job.running)
}

// look takes the job's state. Taken before its windows are cut, a look
// that says the job is over guarantees the windows hold all its output.
func (j *job) look() look {
	exited := j.hasExited()
	return look{exited: exited, running: j.running()}
}

// result cuts the job's windows and renders them with the state l. empty
// is said when neither stream has new output; notes follow the status.
// IsError is left to the caller.
func (j *job) result(l look, empty string, notes ...string) Result {
	stdout, stderr := j.cut()
	d := Details{
		TimedOut:   j.timedOut,
		Running:    l.running,
		PID:        j.pid,
		DurationMS: j.duration().Milliseconds(),
		Stdout:     streamDetails(stdout),
	}
	p := page{stdout: stdout, stderr: stderr, empty: empty}
	if stderr != nil {
		d.Stderr = streamDetails(*stderr)
	}
	if l.exited {
		code := j.status.code
		d.ExitCode, d.Signal = &code, j.status.signal
		p.status = j.status.String()
	}
	for _, n := range notes {
		if n != "" {
			p.notes = append(p.notes, n)
		}
	}
	res := Result{Text: p.text(), Details: d, Stdout: stdout.Text()}
	if stderr != nil {
		res.Stderr = stderr.Text()
	}
	return res
}
