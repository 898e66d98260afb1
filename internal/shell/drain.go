package shell

import (
	"os"
	"sync"
	"time"
)

// readBuffers are the buffers of the reader goroutines.
var readBuffers = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

// A readStop stops a stream's reader (cutOff), at once whoever still
// holds the pipe: once stopped, the file the reader waits on through the
// runtime's poller gets a read deadline in the past, and a reader that
// waits otherwise sees stopped.
type readStop struct {
	mu   sync.Mutex
	done bool
	on   *os.File // what the reader waits on through the poller, or nil
}

// stop stops the reader.
func (s *readStop) stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.done = true
	if s.on != nil {
		s.on.SetReadDeadline(time.Now())
	}
}

// watch makes f (nil: none) what the reader waits on; it reports false
// once the reader is stopped.
func (s *readStop) watch(f *os.File) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.on = f
	if s.done && f != nil {
		f.SetReadDeadline(time.Now())
	}
	return !s.done
}

// drain reads r through the runtime's poller until it fails (end of
// file, closed, or stopped) and passes each chunk to take, which must not
// keep it.
func drain(r *os.File, st *readStop, take func([]byte)) {
	if !st.watch(r) {
		return
	}
	for {
		// The buffer is taken only once there is something to read.
		if !awaitReadable(r) {
			return
		}
		bp := readBuffers.Get().(*[]byte)
		n, err := r.Read(*bp)
		if n > 0 {
			take((*bp)[:n])
		}
		readBuffers.Put(bp)
		if err != nil {
			return
		}
	}
}
