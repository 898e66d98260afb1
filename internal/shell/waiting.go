package shell

import (
	"fmt"
	"time"

	"github.com/spillway-dev/spillway/internal/proc"
)

// inputQuiet is how long a job must have written nothing before it is
// said to wait for input: a prompt is the last thing a program writes
// before it reads.
const inputQuiet = 200 * time.Millisecond

// inputConfirm is how long a job seen blocked on its input must stay so,
// with no output in between, before it is said to wait. The readers may
// have taken a prompt from the kernel and not yet passed it on (a
// goroutine waits for a CPU under load): by then they have, the output
// moves the quiet time on, and the prompt is shown with the notice.
const inputConfirm = 100 * time.Millisecond

// waitingForInput reports whether the job seems to wait for input: it
// has an input still open, it has written nothing and been sent nothing
// for inputQuiet and nothing it wrote is left unread, and one of the
// processes of its group is asleep in a system call that reads that
// input (Group.BlockedOnInput; the kernel tells it differently on each
// system) — twice, inputConfirm apart, with nothing written between.
func (j *job) waitingForInput() bool {
	in := j.input
	if in == nil || in.closed.Load() || isClosed(j.readersDone) || !j.blockedNow() {
		return false
	}
	mark := j.activity()
	t := time.NewTimer(inputConfirm)
	defer t.Stop()
	select {
	case <-t.C:
	case <-j.readersDone:
		return false
	}
	return j.activity() == mark && j.blockedNow()
}

// activity is when the job last wrote output or was sent input (Unix ns).
func (j *job) activity() int64 { return max(j.lastOutput.Load(), j.lastInput.Load()) }

// blockedNow is one look: quiet, nothing unread, blocked on the input
// (or, on a terminal set to read a secret, asleep where it cannot be
// seen: sudo run by a server that is not root).
func (j *job) blockedNow() bool {
	if time.Since(time.Unix(0, j.activity())) < inputQuiet || j.unread() || j.inputPending() {
		return false
	}
	return j.procs.BlockedOnInput(j.input.link) || j.readsSecret() && j.procs.HiddenSleeper()
}

// unread reports whether output waits in one of the job's pipes or its
// terminal that the readers have not taken yet, so that a prompt is
// never reported before it can be shown.
func (j *job) unread() bool {
	j.pipeMu.Lock()
	defer j.pipeMu.Unlock()
	for _, s := range j.streams() {
		if s.closed {
			continue
		}
		if proc.Unread(s.r) > 0 {
			return true
		}
	}
	return false
}

// waitNote is the notice of a job that seems to wait for input.
func waitNote(j *job) string {
	end := ""
	if j.input != nil && !j.input.tty {
		end = ", close_stdin=true to end its input"
	}
	return fmt.Sprintf("[pid %[1]d seems to wait for input: send it with write_stdin pid=%[1]d input=\"…\" "+
		"(keys=[\"Enter\"], [\"Ctrl-C\"], [\"Ctrl-D\"] …%[2]s). Use check_pid=%[1]d for new output, kill_pid=%[1]d to stop it.]", j.pid, end)
}

// inputPending reports whether the job's terminal holds input that no
// program has read yet: sent, but not yet taken (a reader not yet
// scheduled on a loaded machine), so nothing waits for more.
func (j *job) inputPending() bool {
	if !j.input.tty {
		return false
	}
	n, ok := proc.PendingInput(j.input.f, j.input.link)
	return ok && n > 0
}
