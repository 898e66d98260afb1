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
// A file leaves the poller only when it is closed: each move from one
// reading to the other replaces the server's end by a duplicate of it
// (see toPoller).
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

// drainStream reads the stream into take until its end or cutOff. mu
// guards s.r, which the reader replaces as it moves the pipe into the
// poller and out of it.
func (s *stream) drainStream(take func([]byte), mu *sync.Mutex) {
	if s.tty != "" {
		drain(s.r, &s.stop, take) // a terminal's master is in the poller
		return
	}
	p := pipeReader{s: s, mu: mu, st: &s.stop, take: take}
	p.run()
}

// A pipeReader reads one output pipe.
type pipeReader struct {
	s     *stream
	mu    *sync.Mutex
	fd    int // s.r's descriptor while out of the poller, non-blocking
	st    *readStop
	take  func([]byte)
	grown bool // the pipe holds floodPipe
}

func (p *pipeReader) run() {
	for {
		lost := p.toPoller() != nil
		if lost {
			p.fd = fdOf(p.s.r)
		} else {
			for {
				end := p.quiet(p.s.r) // only this reader replaces s.r
				p.st.watch(nil)
				if end {
					return
				}
				if p.toFlood() == nil {
					break
				}
				// No descriptor free to leave the poller: read on in it.
			}
		}
		pause := floodPause
		if lost {
			pause = lostPause
		}
		if p.flood(pause) {
			return
		}
	}
}

// The stream holds one descriptor of its pipe, s.r, in the poller or out
// of it: a pipe held twice would cost a session a descriptor more for
// each stream of its running job, and descriptors bound the sessions of a
// node. A file leaves the poller only when it is closed, so each move
// duplicates s.r, closes the old one, and keeps the duplicate; the pipe's
// inode stays open throughout.

// toPoller makes s.r a non-blocking duplicate that the runtime's poller
// watches.
func (p *pipeReader) toPoller() error {
	fd := fdOf(p.s.r)
	if err := unix.SetNonblock(fd, true); err != nil {
		return err
	}
	dup, err := unix.FcntlInt(uintptr(fd), unix.F_DUPFD_CLOEXEC, 0)
	if err != nil {
		return err
	}
	p.swap(os.NewFile(uintptr(dup), "|0")) // non-blocking: in the poller
	return nil
}

// toFlood makes s.r a duplicate outside the poller: os.NewFile keeps a
// descriptor out of it when it is in blocking mode, so the pipe is
// blocking while the duplicate is wrapped, and non-blocking again for the
// flood reader once the polled file is closed.
func (p *pipeReader) toFlood() error {
	dup, err := unix.FcntlInt(uintptr(fdOf(p.s.r)), unix.F_DUPFD_CLOEXEC, 0)
	if err != nil {
		return err
	}
	unix.SetNonblock(dup, false)
	p.swap(os.NewFile(uintptr(dup), "|0"))
	p.fd = dup
	return unix.SetNonblock(dup, true)
}

// swap replaces s.r by f and closes the file it replaces.
func (p *pipeReader) swap(f *os.File) {
	p.mu.Lock()
	defer p.mu.Unlock()
	old := p.s.r
	p.s.r = f
	old.Close()
}

// fdOf returns f's descriptor, which stays valid while the reader runs:
// only the reader closes the files it replaces.
func fdOf(f *os.File) int {
	fd := -1
	if rc, err := f.SyscallConn(); err == nil {
		rc.Control(func(d uintptr) { fd = int(d) })
	}
	return fd
}

// quiet reads w until the stream ends or is stopped (true), or until it
// floods (false).
func (p *pipeReader) quiet(w *os.File) (end bool) {
	if !p.st.watch(w) {
		return true
	}
	var got int
	for {
		// The buffer is taken only once there is something to read.
		if !awaitReadable(w) {
			return true
		}
		bp := readBuffers.Get().(*[]byte)
		n, err := w.Read(*bp)
		if n > 0 {
			p.take((*bp)[:n])
			got += n
		}
		readBuffers.Put(bp)
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
		n, err := unix.FcntlInt(uintptr(fdOf(p.s.r)), unix.F_SETPIPE_SZ, floodPipe)
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
