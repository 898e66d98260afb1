package shell

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/spillway-dev/spillway/internal/proc"
)

// A jobInput is what a job reads as its input, seen from our side: the
// write end of its stdin pipe, or the master side of its terminal.
type jobInput struct {
	f   *os.File // for a terminal, the master, which the stdout reader owns
	tty bool
	// link is what the job's processes see for that input in
	// /proc/PID/fd: "pipe:[INODE]", or the terminal's "/dev/pts/N".
	link string

	mu     sync.Mutex  // serialises writes
	closed atomic.Bool // the pipe was closed (close_stdin, or the job ended)
}

// newStdinPipe makes a stdin pipe: the caller gives r to the command and
// closes it once the command started.
func newStdinPipe() (r *os.File, in *jobInput, err error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, nil, err
	}
	in = &jobInput{f: w}
	if fi, err := r.Stat(); err == nil {
		if ino := proc.Inode(fi); ino != 0 {
			in.link = "pipe:[" + strconv.FormatUint(ino, 10) + "]"
		}
	}
	return r, in, nil
}

// ttyInput is the input of a job on the terminal whose master is m and
// whose slave is named slave.
func ttyInput(m *os.File, slave string) *jobInput {
	return &jobInput{f: m, tty: true, link: slave}
}

// errInputClosed: the job's stdin was closed by an earlier call.
var errInputClosed = errors.New("its stdin was closed by an earlier call (close_stdin); nothing more can be sent")

// write writes b, waiting at most until deadline for the job to take it:
// a pipe holds 64 KiB and a terminal's line 4 KiB that the job has not
// read yet. It returns how much was written.
func (in *jobInput) write(b []byte, deadline time.Time) (int, error) {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.closed.Load() {
		return 0, errInputClosed
	}
	if len(b) == 0 {
		return 0, nil
	}
	in.f.SetWriteDeadline(deadline)
	n, err := in.f.Write(b)
	in.f.SetWriteDeadline(time.Time{})
	switch {
	case err == nil:
		return n, nil
	case errors.Is(err, os.ErrDeadlineExceeded):
		return n, fmt.Errorf("wrote %d of %d bytes: the job is not reading its input (its buffer is full); check_pid shows what it does", n, len(b))
	case errors.Is(err, syscall.EPIPE), errors.Is(err, os.ErrClosed), errors.Is(err, syscall.EIO):
		return n, errors.New("it no longer reads its input (it closed it, or has ended)")
	default:
		return n, err
	}
}

// close closes a stdin pipe, so that the job reads end of file. It is
// done once, by close_stdin or when the job is over, and does not wait
// for a write in progress: that write fails at once. A terminal's master
// is closed by its reader instead.
func (in *jobInput) close() {
	if in == nil || in.tty || !in.closed.CompareAndSwap(false, true) {
		return
	}
	in.f.Close()
}
