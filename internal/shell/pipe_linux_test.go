package shell

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spillway-dev/spillway/internal/proc"
	"golang.org/x/sys/unix"
)

// Tests of how an output pipe is read on Linux (pipe_linux.go): a flood
// is read without the poller from a grown pipe, a quiet stream through
// it, and the reader stops at once in either mode.

// A testStream is a stream and the lock its reader takes to replace s.r.
type testStream struct {
	*stream
	mu sync.Mutex
}

// file returns the stream's current end of the pipe.
func (s *testStream) file() *os.File {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.r
}

// pipeStream returns a stream on a new output pipe and the pipe's write
// end, both closed when the test ends.
func pipeStream(t *testing.T) (*testStream, *os.File) {
	t.Helper()
	r, w, err := makePipe()
	if err != nil {
		t.Fatal(err)
	}
	s := &testStream{stream: &stream{label: "stdout", r: r}}
	if fi, err := r.Stat(); err == nil {
		s.ino = proc.Inode(fi)
	}
	t.Cleanup(func() {
		s.file().Close()
		w.Close()
	})
	return s, w
}

// startDrain runs the stream's reader; the channel is closed when it
// returns, and got holds what it took.
func startDrain(s *testStream) (done chan struct{}, got *lockedBuffer) {
	done, got = make(chan struct{}), &lockedBuffer{}
	go func() {
		defer close(done)
		s.drainStream(got.write, &s.mu)
	}()
	return done, got
}

type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) write(p []byte) {
	b.mu.Lock()
	b.buf.Write(p)
	b.mu.Unlock()
}

func (b *lockedBuffer) len() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Len()
}

// awaitDone fails the test if the reader does not return; the bound only
// keeps a broken reader from hanging the test.
func awaitDone(t *testing.T, done <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatalf("the reader did not return %s", what)
	}
}

// awaitDrained waits for a reader that is draining a long stream into
// got: it fails only when the reader stops making progress for 30 s, so a
// slow machine (the race detector at load 20 took over 30 s for 64 MiB)
// is not a hang.
func awaitDrained(t *testing.T, done <-chan struct{}, got *lockedBuffer, what string) {
	t.Helper()
	last := -1
	for {
		select {
		case <-done:
			return
		case <-time.After(30 * time.Second):
			n := got.len()
			if n == last {
				t.Fatalf("the reader did not return %s: no progress in 30 s at %d bytes", what, n)
			}
			last = n
		}
	}
}

// pattern is n bytes of numbered lines, like seq's.
func pattern(from, n int) []byte {
	var b bytes.Buffer
	for i := from; b.Len() < n; i++ {
		b.WriteString(itoa(i))
		b.WriteByte('\n')
	}
	return b.Bytes()[:n]
}

func itoa(i int) string {
	var d [20]byte
	k := len(d)
	for {
		k--
		d[k] = byte('0' + i%10)
		if i /= 10; i == 0 {
			return string(d[k:])
		}
	}
}

// writeIn writes b to w in 4 KiB writes, as stdio does.
func writeIn(t *testing.T, w *os.File, b []byte) {
	for len(b) > 0 {
		n := min(len(b), 4096)
		if _, err := w.Write(b[:n]); err != nil {
			t.Error(err)
			return
		}
		b = b[n:]
	}
}

func pipeSize(t *testing.T, s *testStream) int {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	rc, err := s.r.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	size := 0
	rc.Control(func(fd uintptr) { size, err = unix.FcntlInt(fd, unix.F_GETPIPE_SZ, 0) })
	if err != nil {
		t.Fatal(err)
	}
	return size
}

// A stream that floods, goes quiet, then writes again and ends is read
// whole and in order, and its pipe has grown for the flood.
func TestPipeFloodThenQuiet(t *testing.T) {
	s, w := pipeStream(t)
	flood := pattern(1, 4*floodAfter)
	after := []byte("done\n")
	done, got := startDrain(s)
	writeIn(t, w, flood)
	// Until the reader has taken it all and gone back to the poller (it
	// does after quietAfter empty pauses): what follows is read there.
	for got.len() < len(flood) {
		time.Sleep(time.Millisecond)
	}
	time.Sleep(20 * quietAfter * floodPause)
	if size := pipeSize(t, s); size < floodPipe {
		t.Errorf("the pipe holds %d bytes after a flood, want %d", size, floodPipe)
	}
	writeIn(t, w, after)
	w.Close()
	awaitDone(t, done, "at the end of the stream")
	want := append(flood, after...)
	if !bytes.Equal(got.buf.Bytes(), want) {
		t.Errorf("read %d bytes, want the %d written", got.len(), len(want))
	}
}

// A quiet stream never grows its pipe.
func TestPipeQuietKeepsSize(t *testing.T) {
	s, w := pipeStream(t)
	before := pipeSize(t, s)
	done, got := startDrain(s)
	writeIn(t, w, pattern(1, 100<<10))
	w.Close()
	awaitDone(t, done, "at the end of the stream")
	if got.len() != 100<<10 {
		t.Errorf("read %d bytes, want %d", got.len(), 100<<10)
	}
	if size := pipeSize(t, s); size != before {
		t.Errorf("the pipe holds %d bytes after 100 KiB, want %d as before", size, before)
	}
}

// stop ends the reader at once whoever still holds the pipe: while the
// stream floods, while it is quiet, and before the reader starts.
func TestPipeStop(t *testing.T) {
	t.Run("flooding", func(t *testing.T) {
		s, w := pipeStream(t)
		done, got := startDrain(s)
		go func() {
			chunk := pattern(1, 4096)
			for {
				if _, err := w.Write(chunk); err != nil {
					return // the test closed the pipe
				}
			}
		}()
		for got.len() < 4*floodAfter {
			time.Sleep(time.Millisecond)
		}
		s.stop.stop()
		awaitDone(t, done, "when stopped during a flood")
		if size := pipeSize(t, s); size < floodPipe {
			t.Errorf("the pipe holds %d bytes, want %d: the stream was not read as a flood", size, floodPipe)
		}
	})
	t.Run("quiet", func(t *testing.T) {
		s, w := pipeStream(t)
		done, got := startDrain(s)
		writeIn(t, w, []byte("prompt> "))
		for got.len() < len("prompt> ") {
			time.Sleep(time.Millisecond)
		}
		s.stop.stop()
		awaitDone(t, done, "when stopped while quiet")
	})
	t.Run("before it starts", func(t *testing.T) {
		s, _ := pipeStream(t)
		s.stop.stop()
		done, _ := startDrain(s)
		awaitDone(t, done, "when stopped before it started")
	})
}

// The server holds one descriptor of a job's pipe, however it reads it
// (through the poller, or as a flood without it): the descriptors of a
// node's running jobs bound its sessions. Before, the reader held a
// duplicate in the poller beside the stream's own end.
func TestPipeHeldOnce(t *testing.T) {
	s, w := pipeStream(t)
	done, got := startDrain(s)
	held := func(when string) {
		t.Helper()
		if n := descriptorsOf(t, s.ino); n != 1 {
			t.Errorf("%s: the server holds %d descriptors of the pipe, want 1", when, n)
		}
	}
	writeIn(t, w, []byte("prompt> "))
	for got.len() < len("prompt> ") {
		time.Sleep(time.Millisecond)
	}
	held("while quiet")
	go func() {
		writeIn(t, w, pattern(1, 64*floodAfter))
		w.Close()
	}()
	for got.len() < 2*floodAfter {
		time.Sleep(time.Millisecond)
	}
	held("while it floods")
	awaitDrained(t, done, got, "at the end of the stream")
}

// descriptorsOf counts this process's descriptors of the read end of the
// pipe ino.
func descriptorsOf(t *testing.T, ino uint64) int {
	t.Helper()
	names, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("pipe:[%d]", ino)
	n := 0
	for _, e := range names {
		if l, err := os.Readlink("/proc/self/fd/" + e.Name()); err == nil && l == want && readOnly(e.Name()) {
			n++
		}
	}
	return n
}

// readOnly reports whether this process's descriptor fd is open for
// reading only.
func readOnly(fd string) bool {
	b, _ := os.ReadFile("/proc/self/fdinfo/" + fd)
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "flags:"); ok {
			flags, err := strconv.ParseUint(strings.TrimSpace(v), 8, 64)
			return err == nil && flags&unix.O_ACCMODE == unix.O_RDONLY
		}
	}
	return false
}
