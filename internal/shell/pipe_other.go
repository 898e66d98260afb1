//go:build !linux

package shell

import (
	"os"
	"sync"
)

// makePipe makes a job's output pipe.
func makePipe() (r, w *os.File, err error) { return os.Pipe() }

// drainStream reads the stream into take until its end or cutOff.
func (s *stream) drainStream(take func([]byte), _ *sync.Mutex) { drain(s.r, &s.stop, take) }
