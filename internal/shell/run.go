package shell

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/spillway-dev/spillway/output"
	"github.com/spillway-dev/spillway/tool"
)

// Run runs a command and waits until it ends, its timeout passes, the
// context is done, or (Background) not at all. The error says why a
// call could not be made (bad input, no cwd, the shell missing, the
// session closed); what the command did is in the result.
func (r *Runner) Run(ctx context.Context, bash tool.BashInput) (Outcome, error) {
	in := command{BashInput: bash, call: tool.CallInfoFrom(ctx), lines: linesFrom(ctx)}
	if err := checkCommand(in); err != nil {
		return Outcome{}, err
	}
	if err := ctx.Err(); err != nil {
		return Outcome{}, fmt.Errorf("not started: %w", err)
	}
	var base *record
	if in.DiffWith != "" {
		var err error
		if base, err = r.diffBase(in); err != nil {
			return Outcome{}, err
		}
	}
	pl, err := r.plan(in)
	if err != nil {
		return Outcome{}, err
	}
	if in.DiffWith == "" && r.cacheable(in) {
		pl.cacheKey = cacheKey(pl)
		for {
			if res, ok := r.fromCache(in, pl.cacheKey); ok {
				pl.release()
				return res, nil
			}
			c, lead := r.flights.join(pl.cacheKey)
			if lead {
				defer r.flights.land(pl.cacheKey)
				break
			}
			select {
			case <-c: // the run ended: look again
			case <-ctx.Done():
				pl.release()
				return Outcome{}, fmt.Errorf("not started: %w", ctx.Err())
			}
		}
	}
	res, err := r.runPlan(ctx, in, pl)
	if err != nil {
		return Outcome{}, err
	}
	if pl.rec != nil {
		res.Details.HistoryID = pl.rec.ID
		if !res.Details.Running {
			pl.job.completeRecord()
		}
	}
	switch {
	case in.DiffWith == "":
	case base == nil:
		pl.notes = append(pl.notes, "[diff_with last: this command has no earlier run in the history, so its output is shown whole; call again with diff_with for a diff]")
	case res.Details.Running || pl.rec == nil || pl.rec.data == nil || !isClosed(pl.rec.data.done):
		pl.notes = append(pl.notes, "[diff_with: the command has not ended, so its output is shown; the diff needs a run that ended]")
	default:
		res = r.diffResult(in, base, pl.rec, res)
	}
	if len(pl.notes) > 0 {
		res.Text += "\n" + strings.Join(pl.notes, "\n")
	}
	return res, nil
}

// runPlan runs a planned call.
func (r *Runner) runPlan(ctx context.Context, in command, pl *plan) (Outcome, error) {
	if in.RunInBackground {
		if err := r.roomForJob(); err != nil {
			pl.release()
			return Outcome{}, err
		}
	}
	j, err := r.launch(in, pl)
	if err != nil {
		return Outcome{}, err
	}
	pl.rec, pl.job = r.history.start(in, pl, j), j
	if in.RunInBackground {
		j.sess.abandon()
		return r.background(j, fmt.Sprintf("[Started in the background as pid %d. Use check_pid=%d for its output, kill_pid=%d to stop it.]",
			j.pid, j.pid, j.pid)), nil
	}
	return r.await(ctx, in, j)
}

// await waits for a call's command to end, its timeout to pass or the
// context to be done, reporting progress and relaying secret prompts as
// it waits, and returns the call's result.
func (r *Runner) await(ctx context.Context, in command, j *job) (Outcome, error) {
	j.timeout = in.Timeout
	if j.timeout <= 0 {
		j.timeout = r.cfg.Timeout
	}
	j.timeout = r.cfg.boundWait(j.timeout)
	deadline := time.Now().Add(j.timeout)
	timer := time.NewTimer(j.timeout)
	defer timer.Stop()
	var tick <-chan time.Time
	if in.call.Progress != nil {
		t := time.NewTicker(time.Second)
		defer t.Stop()
		tick = t.C
	}
	// A command that takes input is watched for waiting on it: a call
	// blocked on a prompt returns early instead of waiting out its timeout.
	var inputPoll <-chan time.Time
	if j.input != nil {
		t := time.NewTicker(inputPollEvery)
		defer t.Stop()
		inputPoll = t.C
	}
	for {
		select {
		case <-j.exited:
			j.sess.finish()
			return r.exited(ctx, j)
		case <-timer.C:
			if j.hasExited() {
				continue // the exit came first: report it as such
			}
			j.timedOut = true
			j.sess.abandon()
			return r.background(j, fmt.Sprintf("[Still running after the %s timeout: it goes on in the background as pid %d, its output still captured. "+
				"Use check_pid=%d for new output, kill_pid=%d to stop it.]", j.timeout, j.pid, j.pid, j.pid)), nil
		case <-ctx.Done():
			j.sess.abandon()
			return r.cancel(j), nil
		case <-tick:
			in.call.Progress(j.progress())
		case <-inputPoll:
			if !j.waitingForInput() {
				continue
			}
			if j.relaySecret(ctx, deadline) {
				continue // the person answered: the command goes on
			}
			if !j.waitingForInput() {
				continue // it took its input meanwhile (an answer, late on a loaded machine)
			}
			j.sess.abandon()
			return r.background(j, inputNote), nil
		}
	}
}

// exited returns the result of a call whose shell exited: all of it once
// its output has ended; else the call was cancelled, or what the shell
// started goes on as a background job.
func (r *Runner) exited(ctx context.Context, j *job) (Outcome, error) {
	if j.settle(ctx) {
		return r.finished(j)
	}
	if ctx.Err() != nil {
		return r.cancel(j), nil
	}
	if err := j.faultErr(); err != nil {
		r.background(j, "")
		return Outcome{}, fmt.Errorf("%w; processes it started still run, as background job pid %d: kill_pid=%d stops them", err, j.pid, j.pid)
	}
	return r.background(j, fmt.Sprintf("[The shell exited, but processes it started still run (they hold its output or stay in its process group): "+
		"they go on as background job pid %d. Use check_pid=%d for their new output, kill_pid=%d to stop them.]", j.pid, j.pid, j.pid)), nil
}

// finished returns the result of a call whose command ended, output and
// all.
func (r *Runner) finished(j *job) (Outcome, error) {
	r.forgetCall(j)
	if err := j.faultErr(); err != nil {
		return Outcome{}, err
	}
	res := j.result(j.look(), "(no output)")
	res.Failed = j.status.code != 0
	if n := j.sess.droppedNote(); n != "" {
		res.Text += "\n" + n
	}
	return res, nil
}

// background keeps j as a background job and returns the output so far
// with note, which says how to continue.
func (r *Runner) background(j *job, note string) Outcome {
	if err := r.addJob(j); err != nil {
		out := j.stop()
		r.forgetCall(j)
		res := j.result(j.look(), "(no output)", stopNote(out, "Not kept in the background ("+err.Error()+")"))
		res.Failed = true
		return res
	}
	res := j.result(j.look(), "(no output)", note)
	res.Details.Backgrounded = true
	res.Failed = res.Details.ExitCode != nil && *res.Details.ExitCode != 0
	return res
}

// cancel stops the command of a call whose context is done.
func (r *Runner) cancel(j *job) Outcome {
	out := j.stop()
	r.forgetCall(j)
	res := j.result(j.look(), "(no output)", stopNote(out, "Cancelled"))
	res.Failed = true
	return res
}

// Check returns how the background job pid stands and its output since
// the last look, after waiting up to wait for news; screen is ScreenFull
// for every row of a screen the job holds. An unknown pid is an error
// that lists the known ones.
func (r *Runner) Check(ctx context.Context, pid int, wait time.Duration, screen string) (Outcome, error) {
	j, err := r.job(pid)
	if err != nil {
		return Outcome{}, err
	}
	wait = r.cfg.boundWait(wait)
	start := time.Now()
	if deadline := start.Add(wait); wait > 0 && j.waitingForInput() && j.relaySecret(ctx, deadline) {
		j.awaitAnswer(ctx, time.Now(), deadline)
	} else {
		j.waitForNews(ctx, wait)
	}
	if wait <= 0 {
		wait = maxSettle
	}
	j.awaitSettle(ctx, wait-time.Since(start))
	return j.report(screen == ScreenFull), nil
}

// report returns how a background job stands and its output since the
// last look, with a note on how to go on; full asks for every row of a
// screen.
func (j *job) report(full bool) Outcome {
	j.drain()
	l := j.look()
	j.recordEnd(l)
	l.full = full
	pid := j.pid
	var note string
	switch {
	case l.waiting || l.secret:
		note = inputNote
	case l.running && l.exited:
		note = fmt.Sprintf("[pid %d: the shell has exited, but processes it started still run. Use check_pid=%d again for new output, kill_pid=%d to stop them.]", pid, pid, pid)
	case l.running:
		note = j.runningNote()
	}
	res := j.result(l, "(no new output)", note)
	res.Details.Backgrounded = true
	res.Failed = !l.running && j.status.code != 0
	return res
}

// Kill stops a background job and returns its final output. An unknown
// pid is an error that lists the known ones.
func (r *Runner) Kill(ctx context.Context, pid int) (Outcome, error) {
	j, err := r.job(pid)
	if err != nil {
		return Outcome{}, err
	}
	out := j.stop()
	l := j.look()
	j.recordEnd(l)
	res := j.result(l, "(no new output)", stopNote(out, fmt.Sprintf("kill_pid %d", pid)))
	res.Details.Backgrounded = true
	res.Failed = out == stopCutOff
	return res, nil
}

// job finds the background job a Check or Kill names.
func (r *Runner) job(pid int) (*job, error) { return r.findJob(pid) }

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

// recordEnd completes the job's history record when l, about to be
// reported, says it has ended.
func (j *job) recordEnd(l look) {
	if !l.running && j.completeRecord != nil {
		j.completeRecord()
	}
}

// A look is how a job stands at one moment.
type look struct {
	exited  bool // the shell has been reaped: its status is known
	running bool // something of the job is left (see job.running)
	waiting bool // it seems to wait for input (see job.waitingForInput)
	full    bool // show every row of a screen, not the rows changed
	secret  bool // it waits for a secret (see job.readsSecret); waiting is then false
}

// look takes the job's state. Taken before its windows are cut, a look
// that says the job is over guarantees the windows hold all its output.
func (j *job) look() look {
	l := look{exited: j.hasExited(), running: j.running()}
	l.waiting = l.running && j.waitingForInput()
	if l.waiting && j.readsSecret() {
		l.waiting, l.secret = false, true
	}
	return l
}

// result cuts the job's windows and renders them with the state l. empty
// is said when neither stream has new output; notes follow the status.
// Failed is left to the caller.
func (j *job) result(l look, empty string, notes ...string) Outcome {
	var kept, lead []string
	if n := j.secretLead(l); n != "" {
		lead = append(lead, n)
	}
	var secret *tool.SecretDetails
	var next []output.Call
	for i, n := range notes {
		if n != inputNote {
			continue
		}
		switch {
		case l.secret:
			notes[i], secret, next = j.secretInfo()
		case l.waiting:
			notes[i] = waitNote(j)
		case l.running:
			// It took its input between the look that found it
			// waiting and this one: it runs on.
			notes[i] = j.runningNote()
		default:
			notes[i] = ""
		}
	}
	for _, n := range notes {
		if n != "" {
			kept = append(kept, n)
		}
	}
	if n := j.screenGaveUp(); n != "" {
		kept = append(kept, n)
	}
	if n := j.screenLag(); n != "" {
		kept = append(kept, n)
	}
	if n := j.faultNote(); n != "" {
		kept = append(kept, n)
	}
	var exit *Exit
	var status string // its length is kept out of the screen's room
	if l.exited {
		exit, status = j.status.view(), j.status.String()
	}
	failed := l.exited && (j.status.code != 0 || j.status.signal != "")
	room := j.budgetFor(failed)
	if room > 0 {
		room = max(1, room-notesLen(status, kept))
	}
	screen := j.screenText(l.full, room)
	text := func(stdout output.Result, stderr *output.Result) string {
		return j.render(Page{Lead: lead, Stdout: stdout, Stderr: stderr, Screen: screen, Empty: empty, Exit: exit, Notes: kept})
	}
	stdout, stderr := j.cut(failed, text)
	d := tool.BashDetails{
		PID: j.pid, DurationMS: j.duration().Milliseconds(),
		TimedOut: j.timedOut, Running: l.running, Waiting: l.waiting, WaitsSecret: l.secret,
		Secret: secret, NextCalls: tool.NextCalls{Next: next},
	}
	if exit != nil {
		d.ExitCode, d.Signal = &exit.Code, exit.Signal
	}
	return Outcome{Text: text(stdout, stderr), Details: d, Stdout: stdout, Stderr: stderr, Screen: screen}
}

// runningNote says that a background job still runs, and how to go on.
func (j *job) runningNote() string {
	return fmt.Sprintf("[pid %d is still running (%s so far). Use check_pid=%d again for new output, kill_pid=%d to stop it.]",
		j.pid, j.duration().Round(time.Millisecond), j.pid, j.pid)
}

// inputNote stands, among the notes given to result, for the note of a
// job that waits for input: the look result takes says which (waitNote,
// or the page of a secret prompt), or none when it no longer waits.
const inputNote = "\x00input"
