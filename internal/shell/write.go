package shell

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"syscall"
	"time"

	"github.com/spillway-dev/spillway/tool"
)

// DefaultWriteWait is how long write_stdin waits for an answer by
// default: a REPL or a prompt answers in far less, and the call returns
// as soon as the job waits for input again or ends.
const DefaultWriteWait = 2 * time.Second

// inputPollEvery is how often a call looks whether its job waits for
// input.
const inputPollEvery = 50 * time.Millisecond

// An inputStep is one thing write_stdin does: write bytes, signal the
// job's process group, or close its stdin.
type inputStep struct {
	data   string
	signal syscall.Signal
	close  bool
}

// steps turns the call's input into steps for a job on a terminal (tty)
// or a pipe. A pipe has no line discipline: there Ctrl-C and Ctrl-\ are
// the signals a terminal would send (SIGINT, SIGQUIT to the process
// group), Ctrl-D closes the pipe (end of file), and Ctrl-Z, which would
// stop the job with nobody to resume it, is refused.
func inputSteps(in tool.WriteStdinInput, tty bool) ([]inputStep, error) {
	var steps []inputStep
	text := in.Input
	if tty {
		text = strings.ReplaceAll(text, "\n", "\r")
	}
	if text != "" {
		steps = append(steps, inputStep{data: text})
	}
	for _, k := range in.Keys {
		b, err := keyCode(k)
		if err != nil {
			return nil, err
		}
		switch {
		case tty:
			steps = append(steps, inputStep{data: b})
		case b == "\r":
			steps = append(steps, inputStep{data: "\n"})
		case b == "\x03":
			steps = append(steps, inputStep{signal: syscall.SIGINT})
		case b == "\x1c":
			steps = append(steps, inputStep{signal: syscall.SIGQUIT})
		case b == "\x04":
			steps = append(steps, inputStep{close: true})
		case b == "\x1a":
			return nil, errors.New("Ctrl-Z would stop a job that reads a pipe with nobody to resume it: use kill_pid to end it, or start it with tty: true")
		default:
			steps = append(steps, inputStep{data: b})
		}
	}
	if in.CloseStdin {
		if tty {
			steps = append(steps, inputStep{data: "\x04"})
		} else {
			steps = append(steps, inputStep{close: true})
		}
	}
	// Join neighbouring writes into one.
	out := steps[:0]
	for _, s := range steps {
		if n := len(out); n > 0 && s.data != "" && out[n-1].data != "" {
			out[n-1].data += s.data
			continue
		}
		out = append(out, s)
	}
	return out, nil
}

// Write sends input to a running job (write_stdin): text, named keys,
// and the end of its input; then it waits, at most Wait, for the
// answer and returns the job's new output. The wait ends as soon as the
// job waits for input again, or ends. The error says why nothing could
// be sent (an unknown pid, a job without input, a bad key, a job that no
// longer reads); its output then stays for the next look.
func (r *Runner) Write(ctx context.Context, in tool.WriteStdinInput) (Outcome, error) {
	if in.Timeout < 0 {
		return Outcome{}, fmt.Errorf("timeout %s: give a positive duration, or leave it out for %s", in.Timeout, DefaultWriteWait)
	}
	j, err := r.job(in.PID)
	if err != nil {
		return Outcome{}, err
	}
	if j.input == nil {
		return Outcome{}, fmt.Errorf("pid %d was started without input (its stdin is /dev/null): run the command again with tty: true (a terminal) or stdin: true (a pipe)", in.PID)
	}
	if err := j.heldError(); err != nil {
		return Outcome{}, err
	}
	if in.Input != "" && !in.AllowModelSecret && j.readsSecret() {
		return Outcome{}, j.secretRefusal()
	}
	steps, err := inputSteps(in, j.input.tty)
	if err != nil {
		return Outcome{}, err
	}
	wait := in.Timeout
	if wait == 0 {
		wait = DefaultWriteWait
	}
	wait = min(wait, MaxCheckWait) // every major MCP client gives up after 60 s
	deadline := time.Now().Add(wait)
	sent := time.Now()
	if in.Cols != 0 || in.Rows != 0 {
		if err := j.resize(in.Cols, in.Rows); err != nil {
			return Outcome{}, fmt.Errorf("pid %d: %w", in.PID, err)
		}
	}
	if err := j.send(steps, deadline); err != nil {
		return Outcome{}, fmt.Errorf("pid %d: %w", in.PID, err)
	}
	j.awaitAnswer(ctx, sent, deadline)
	if j.relaySecret(ctx, deadline) {
		j.awaitAnswer(ctx, time.Now(), deadline)
	}
	return j.report(in.Screen == ScreenFull), nil
}

// send carries out the steps.
func (j *job) send(steps []inputStep, deadline time.Time) error {
	if !j.running() {
		return errors.New("it has ended; nothing can be sent to it")
	}
	for _, s := range steps {
		j.lastInput.Store(time.Now().UnixNano())
		switch {
		case s.close:
			j.input.close()
		case s.signal != 0:
			j.procs.SignalGroup(s.signal)
		default:
			if _, err := j.input.write([]byte(s.data), deadline); err != nil {
				return err
			}
		}
	}
	j.lastInput.Store(time.Now().UnixNano())
	return nil
}

// awaitAnswer waits until the job waits for input again, its output
// ends, ctx is done or deadline passes; for a job on a terminal, also
// until its screen has settled after output that came since sent.
func (j *job) awaitAnswer(ctx context.Context, sent, deadline time.Time) {
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	every := inputPollEvery
	if j.term != nil {
		every = settlePollEvery
	}
	poll := time.NewTicker(every)
	defer poll.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-timer.C:
			return
		case <-j.readersDone:
			// Its output has ended: give the shell a moment to be
			// reaped, so that the result has its exit code.
			t := time.NewTimer(min(drainWait, max(time.Until(deadline), 0)))
			defer t.Stop()
			select {
			case <-j.exited:
			case <-t.C:
			case <-ctx.Done():
			}
			return
		case <-poll.C:
			if j.term != nil && j.settled(sent) {
				return
			}
			if j.waitingForInput() {
				return
			}
		}
	}
}

// PipeText is the text a write to a job reading a pipe hands it, Input
// and keys in order as Write sends them (Enter a newline, other keys
// their bytes; Ctrl-C and Ctrl-\ are signals and add none), and whether
// the write ends its input (close_stdin, Ctrl-D). The error is Write's
// for a key it would refuse.
func PipeText(in tool.WriteStdinInput) (text string, closes bool, err error) {
	steps, err := inputSteps(in, false)
	if err != nil {
		return "", false, err
	}
	var b strings.Builder
	for _, s := range steps {
		if s.close {
			// Nothing after the end of input reaches the job.
			return b.String(), true, nil
		}
		b.WriteString(s.data)
	}
	return b.String(), false, nil
}
