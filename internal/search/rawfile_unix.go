//go:build unix

package search

import (
	"errors"
	"io"
	"io/fs"
	"syscall"

	"github.com/spillway-dev/spillway/internal/confine"
)

// rawFile is a read-only file descriptor used without *os.File: opening
// tens of thousands of files through package os costs a netpoller
// registration and a finalizer each, which the scanner does not need.
type rawFile struct {
	fd  int
	raw bool // make raw system calls (sys_linux.go)
	// at is what was opened; its path is made only when an error or a
	// check names it.
	at Entry
}

const readFlags = syscall.O_RDONLY | syscall.O_CLOEXEC | syscall.O_NONBLOCK | syscall.O_NOCTTY

// openRead opens path for reading. O_NONBLOCK makes opening a FIFO (an
// entry replaced since it was listed) return at once instead of waiting
// for a writer.
func openRead(path string) (*rawFile, error) {
	for {
		fd, err := sysOpen(false, path, readFlags)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "open", Path: path, Err: err}
		}
		return &rawFile{fd: fd, at: fileEntry(path)}, nil
	}
}

// check verifies that the file lies inside root (nil: anywhere).
func (f *rawFile) check(root *confine.Root) error {
	if root == nil {
		return nil
	}
	return root.CheckFD(f.fd, f.at.Path())
}

// stat returns the file's mode type bits and size.
func (f *rawFile) stat() (regular bool, size int64, err error) {
	var st syscall.Stat_t
	for {
		err = sysFstat(f.raw, f.fd, &st)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return false, 0, &fs.PathError{Op: "stat", Path: f.at.Path(), Err: err}
	}
	return st.Mode&syscall.S_IFMT == syscall.S_IFREG, st.Size, nil
}

// Read implements io.Reader.
func (f *rawFile) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	for {
		n, err := sysRead(f.raw, f.fd, p)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return 0, &fs.PathError{Op: "read", Path: f.at.Path(), Err: err}
		}
		if n == 0 {
			return 0, io.EOF
		}
		return n, nil
	}
}

// ReadAt implements io.ReaderAt.
func (f *rawFile) ReadAt(p []byte, off int64) (int, error) {
	total := 0
	for total < len(p) {
		n, err := syscall.Pread(f.fd, p[total:], off+int64(total))
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return total, &fs.PathError{Op: "read", Path: f.at.Path(), Err: err}
		}
		if n == 0 {
			return total, io.EOF
		}
		total += n
	}
	return total, nil
}

func (f *rawFile) Close() error {
	if f.fd < 0 {
		return errors.New("file already closed")
	}
	err := sysClose(f.raw, f.fd)
	f.fd = -1
	return err
}
