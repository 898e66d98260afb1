package files

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"
)

// streamWait bounds how long a read waits for a "regular" file that the
// kernel can poll, such as /proc/kmsg, whose reads wait for data that may
// never come. Files on disk are never polled and never wait.
const streamWait = time.Second

// openRegular opens a regular file for reading and returns its info. It
// never blocks: the open does not wait (O_NONBLOCK), what was opened is
// checked again, so a file swapped for a FIFO or a device after the
// caller's stat is refused, not read, and reads of a pollable file give
// up after streamWait (see stalled).
func openRegular(path string) (*os.File, fs.FileInfo, error) {
	f, err := openNoBlock(path)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if err := notRegular(path, fi.Mode()); err != nil {
		f.Close()
		return nil, nil, err
	}
	// A file on disk has no deadline (os.ErrNoDeadline): only the
	// kernel's pollable pseudo-files get one.
	f.SetReadDeadline(time.Now().Add(streamWait))
	return f, fi, nil
}

// stalled turns the error of a read that waited past streamWait into one
// that says why read gave up.
func stalled(path string, err error) error {
	if !errors.Is(err, os.ErrDeadlineExceeded) {
		return nil
	}
	return fmt.Errorf("%s gave no data for %v: it is a stream that waits for data (like /proc/kmsg), not an ordinary file, so read stops rather than wait forever. If you must, use bash with a timeout: timeout 5 head -c 51200 %s", path, streamWait, ShellQuote(path))
}
