package shell

import (
	"errors"
	"fmt"
	"github.com/spillway-dev/spillway/tool"
	"sync"
	"sync/atomic"
	"time"
)

// A JobWatch is a background job as the person's console shows it.
type JobWatch = tool.JobWatch

// Watch describes the jobs for the console, oldest first, with up to
// tail bytes of each one's output. It changes nothing a result of the
// model's shows next.
func (r *Runner) Watch(tail int) []JobWatch {
	r.mu.Lock()
	jobs := append([]*job(nil), r.jobs...)
	r.mu.Unlock()
	out := make([]JobWatch, 0, len(jobs))
	for _, j := range jobs {
		info := j.info()
		w := JobWatch{PID: j.pid, Command: QuoteCommand(j.command, j.args), State: info.State, TTY: j.input != nil && j.input.tty}
		for _, s := range []*stream{j.stdout, j.stderr} {
			if s == nil {
				continue
			}
			s.mu.Lock()
			w.Output += string(s.pipe.Recent(tail))
			s.mu.Unlock()
		}
		if j.term != nil {
			w.Screen = j.term.View().Lines
		}
		out = append(out, w)
	}
	return out
}

// personNote leads the model's next look at a job the person typed into
// from the console. What they typed shows only as the terminal echoed
// it: typed with echo off, it is in no output.
const personNote = "[the person typed into this job in spillway console; what follows is the terminal as it is now]"

// A personHold is the person's hold on a job's terminal: while held,
// write_stdin from the model is refused, and the job's raw output goes
// to the console's terminal as well.
type personHold struct {
	held  atomic.Bool
	typed atomic.Bool
	mu    sync.Mutex
	tap   func([]byte)
}

// watch passes a chunk of the job's output to the console's terminal.
func (h *personHold) watch(b []byte) {
	if !h.held.Load() {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.tap != nil {
		h.tap(b)
	}
}

// ErrNotTerminal is why a job without a terminal cannot be taken over.
var ErrNotTerminal = errors.New("only a job on a terminal (tty: true) can be taken over")

// ErrHeld is why a job already held cannot be taken over again.
var ErrHeld = errors.New("the job is already held in another console")

// Hold gives the job's terminal to the person: tap gets its raw output
// from now on (it must not block), and the returned screen is what it
// shows now. Release hands it back.
func (r *Runner) Hold(pid int, tap func([]byte)) ([]string, error) {
	j, err := r.job(pid)
	if err != nil {
		return nil, err
	}
	if j.input == nil || !j.input.tty || j.term == nil {
		return nil, ErrNotTerminal
	}
	if !j.running() {
		return nil, errors.New("it has ended")
	}
	if !j.console.held.CompareAndSwap(false, true) {
		return nil, ErrHeld
	}
	j.console.mu.Lock()
	j.console.tap = tap
	j.console.mu.Unlock()
	return j.term.View().Lines, nil
}

// Release hands the job back to the model.
func (r *Runner) Release(pid int) {
	j, err := r.job(pid)
	if err != nil {
		return
	}
	j.console.mu.Lock()
	j.console.tap = nil
	j.console.mu.Unlock()
	j.console.held.Store(false)
}

// PersonWrite writes what the person typed to the job's terminal, as
// it came (keys included). It is never recorded.
func (r *Runner) PersonWrite(pid int, b []byte) error {
	j, err := r.job(pid)
	if err != nil {
		return err
	}
	if !j.console.held.Load() {
		return errors.New("the job is not held: take it over first")
	}
	if !j.running() {
		return errors.New("it has ended")
	}
	j.console.typed.Store(true)
	j.lastInput.Store(time.Now().UnixNano())
	_, err = j.input.write(b, time.Now().Add(2*time.Second))
	return err
}

// heldError is the error of write_stdin to a job the person holds.
func (j *job) heldError() error {
	if !j.console.held.Load() {
		return nil
	}
	return fmt.Errorf("pid %d is held by the person in spillway console, who types into it now: nothing was sent. Wait, and look with check_pid=%d; once they hand it back, write_stdin works again", j.pid, j.pid)
}

// HeldByPerson is the error of write_stdin to job pid while the person
// holds it; nil otherwise (an unknown pid included: Write says so).
func (r *Runner) HeldByPerson(pid int) error {
	j, err := r.job(pid)
	if err != nil {
		return nil
	}
	return j.heldError()
}
