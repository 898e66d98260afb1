package shell

import (
	"fmt"
	"log"
	"runtime/debug"
	"sync/atomic"
)

// A call starts goroutines that outlive it (the wait for the shell's
// exit, the readers of its output, the history's record, a secret
// page's watch of the terminal). A panic in one of them (a bug) would end
// the process and every session in it; instead it becomes the error of
// the job it serves, said by the call that reports the job, and the
// server goes on.

// panicAt, when set (tests only), is called by each such goroutine as
// it starts (hookAt), with its name: a test makes it panic there.
var panicAt atomic.Pointer[func(where string)]

// hookAt calls panicAt, when set, with where.
func hookAt(where string) {
	if h := panicAt.Load(); h != nil {
		(*h)(where)
	}
}

// goGuarded runs f on a goroutine of its own, named where. A panic in it
// is recovered, logged with its stack, and handed to failed as an error
// that says where it happened.
func goGuarded(where string, f func(), failed func(error)) {
	go runGuarded(where, f, failed)
}

// runGuarded runs f, as goGuarded does but on the caller's goroutine:
// failed has the error before runGuarded returns, so that what the
// caller does next (say that a reader is done) comes after it.
func runGuarded(where string, f func(), failed func(error)) {
	defer func() {
		if p := recover(); p != nil {
			log.Printf("spillway: internal error in %s: %v\n%s", where, p, debug.Stack())
			err := fmt.Errorf("spillway: internal error in %s (%v)", where, p)
			func() {
				defer func() { recover() }() // the handler itself may be what fails
				failed(err)
			}()
		}
	}()
	f()
}

// fail records the first internal error of the job's goroutines: the
// call that waits on the job returns it, and every look says it.
func (j *job) fail(err error) {
	j.fault.CompareAndSwap(nil, &err)
}

// faultErr is the job's internal error, nil when none.
func (j *job) faultErr() error {
	if p := j.fault.Load(); p != nil {
		return *p
	}
	return nil
}

// faultNote says the job's internal error in a result.
func (j *job) faultNote() string {
	if err := j.faultErr(); err != nil {
		return fmt.Sprintf("[%v: what this result says of the command may be incomplete; kill_pid=%d stops it if it still runs]", err, j.pid)
	}
	return ""
}

// waitFailed ends the wait of a job whose waiting goroutine panicked:
// its exit is unknown, so the job is told it exited with 125 (the code
// a command runner gives its own failure), and the process is reaped
// when it ends.
func (j *job) waitFailed(err error) {
	j.fail(err)
	if !isClosed(j.reaped) {
		close(j.reaped)
	}
	if !isClosed(j.exited) {
		j.exit(exitStatus{code: 125})
	}
	if j.cmd.Process != nil {
		go j.cmd.Wait() // reaps it; an error if the wait already ran
	}
}
