package shell

import (
	"os"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// How a job's output pipe is read on Linux.
//
// Most commands write little, in bursts, and the reader waits for them in
// the runtime's poller, holding no thread. But a pipe the poller watches
// (epoll) wakes it on every write of the child, not only when the pipe
// was empty: a flood (a build log, `seq`, `cat` of a big file) written
// 4 KiB at a time would wake the server some 100 000 times a second, and
// those wake-ups, in the kernel and in the runtime's scheduler, cost more
// CPU than the bytes themselves.
//
// So once a stream has brought floodAfter bytes, its pipe grows to
// floodPipe, the poller lets go of it, and the reader takes what the pipe
// holds with plain non-blocking reads, sleeping floodPause whenever a read
// finds less than floodLow: the child then writes into the pipe without
// waking anyone, and the reader takes it in a few large reads a
// millisecond. A child that writes floodLow while the reader handles what
// it read is never paused for: it is read on at once, at the speed of the
// pipeline, as before. After quietAfter pauses that find the pipe empty,
// the reader goes back to the poller.
//
// The server's own end is never handed to the poller itself: a duplicate
// of it is, and closing the duplicate is what takes the pipe out.
const (
	floodAfter = 1 << 20
	floodPipe  = 1 << 20
	floodRead  = 128 << 10
	floodLow   = 32 << 10
	floodPause = time.Millisecond
	quietAfter = 8
	// lostPause is the pause of a reader that cannot go back to the
	// poller (it found no descriptor free to duplicate the pipe).
	lostPause = 10 * time.Millisecond
)

var floodBuffers = sync.Pool{New: func() any { b := make([]byte, floodRead); return &b }}

// makePipe makes a job's output pipe, both ends in blocking mode and
// outside the runtime's poller (see above).
func makePipe() (r, w *os.File, err error) {
	var p [2]int
	if err := unix.Pipe2(p[:], unix.O_CLOEXEC); err != nil {
		return nil, nil, os.NewSyscallError("pipe2", err)
	}
	return os.NewFile(uintptr(p[0]), "|0"), os.NewFile(uintptr(p[1]), "|1"), nil
}

// drainStream reads the stream into take until its end or cutOff.
func (s *stream) drainStream(take func([]byte)) {
	if s.tty != "" {
		drain(s.r, &s.stop, take) // a terminal's master is in the poller
		return
	}
	rc, err := s.r.SyscallConn()
	if err != nil {
		return
	}
	// The descriptor stays valid while the reader runs: s.r is closed
	// after it returns.
	fd := -1
	rc.Control(func(f uintptr) { fd = int(f) })
	if err := unix.SetNonblock(fd, true); err != nil {
		return
	}
	p := pipeReader{fd: fd, st: &s.stop, take: take}
	p.run()
}

// A pipeReader reads one output pipe.
type pipeReader struct {
	fd    int // the server's end, non-blocking
	st    *readStop
	take  func([]byte)
	grown bool // the pipe holds floodPipe
}

func (p *pipeReader) run() {
	for {
		w, err := p.pollable()
		if err == nil {
			end := p.quiet(w)
			p.st.watch(nil)
			w.Close() // the poller lets go of the pipe
			if end {
				return
			}
		}
		pause := floodPause
		if err != nil {
			pause = lostPause
		}
		if p.flood(pause) {
			return
		}
	}
}

// pollable returns a duplicate of the pipe's end that the runtime's
// poller watches.
func (p *pipeReader) pollable() (*os.File, error) {
	fd, err := unix.FcntlInt(uintptr(p.fd), unix.F_DUPFD_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(fd), "|0"), nil // non-blocking: in the poller
}

// quiet reads w until the stream ends or is stopped (true), or until it
// floods (false).
func (p *pipeReader) quiet(w *os.File) (end bool) {
	if !p.st.watch(w) {
		return true
	}
	bp := readBuffers.Get().(*[]byte)
	defer readBuffers.Put(bp)
	var got int
	for {
		n, err := w.Read(*bp)
		if n > 0 {
			p.take((*bp)[:n])
			got += n
		}
		if err != nil {
			return true
		}
		if got >= floodAfter {
			if p.grow() {
				return false
			}
			got = 0 // refused: asked again after the next floodAfter
		}
	}
}

// grow makes the pipe hold floodPipe bytes, and reports whether it does.
// The kernel refuses for a user whose pipes already hold their share of
// memory (/proc/sys/fs/pipe-user-pages-soft): the stream is then read in
// the poller as before, so floods never starve the pipes of others.
func (p *pipeReader) grow() bool {
	if !p.grown {
		n, err := unix.FcntlInt(uintptr(p.fd), unix.F_SETPIPE_SZ, floodPipe)
		p.grown = err == nil && n >= floodPipe
	}
	return p.grown
}

// flood reads the pipe without the poller, pausing after each read that
// finds less than floodLow, until the stream ends or is stopped
// (true) or the pipe stays empty for quietAfter pauses (false).
func (p *pipeReader) flood(pause time.Duration) (end bool) {
	bp := floodBuffers.Get().(*[]byte)
	defer floodBuffers.Put(bp)
	idle := 0
	for !p.st.stopped() {
		n, err := unix.Read(p.fd, *bp)
		switch {
		case err == unix.EINTR:
			continue
		case err == unix.EAGAIN:
			if idle++; idle >= quietAfter {
				return false
			}
		case err != nil || n <= 0:
			return true // the end of the stream, or an error
		default:
			p.take((*bp)[:n])
			idle = 0
			if n >= floodLow {
				continue
			}
		}
		time.Sleep(pause)
	}
	return true
}

// stopped reports whether the reader is stopped (only the flood
// reader polls for it).
func (s *readStop) stopped() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.done
}
