//go:build linux && !spillway_portable

package search

import (
	"io/fs"
	"syscall"
)

// A walk opens what it meets relative to a descriptor of its root
// (openat), not by absolute path: the kernel then looks up only the
// components below the root, not the root's own path again for every
// file, which was a tenth of the system time of a grep over a tree.

// A walkRoot is the open root of a walk.
type walkRoot struct {
	fd int
	// raw: the tree lies on local file systems, so the walk's system
	// calls are made raw (sys_linux.go). It is false until settle.
	raw bool
	// local delivers what localTree found, until settle takes it.
	local chan bool
}

// openWalkRoot opens the root of a walk for openat, or returns nil (then
// entries are opened by path). Whether the tree is local is found on
// another goroutine, while the walk reads the root's ignore files and
// lists it: reading the mount table took a third of a millisecond
// before any work could start, with the other cores idle.
func openWalkRoot(root string) *walkRoot {
	for {
		fd, err := syscall.Open(root, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil
		}
		wr := &walkRoot{fd: fd, local: make(chan bool, 1)}
		go func() { wr.local <- localTree(root) }()
		return wr
	}
}

// settle waits for the check of the root's mounts and makes the walk's
// calls raw when the tree is local. The walk's goroutine calls it before
// it queues any work, so the queue orders it before every read of raw.
func (wr *walkRoot) settle() {
	if wr != nil && wr.local != nil {
		wr.raw = <-wr.local
		wr.local = nil
	}
}

func closeWalkRoot(wr *walkRoot) {
	if wr != nil {
		syscall.Close(wr.fd)
	}
}

// openAt opens rel below the walk's root wr (path, when wr is nil or rel
// is empty) with flags.
func openAt(wr *walkRoot, rel, path string, flags int) (int, error) {
	for {
		var fd int
		var err error
		if wr != nil && rel != "" {
			fd, err = sysOpenat(wr.raw, wr.fd, rel, flags)
		} else {
			fd, err = sysOpen(false, path, flags)
		}
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return -1, &fs.PathError{Op: "open", Path: path, Err: err}
		}
		return fd, nil
	}
}

// openReadAt is openRead of the entry e, below its walk's root when it
// has one, into f (the scanner's own: no allocation per file). Its path
// is made only when the open is by path or fails.
func openReadAt(f *rawFile, e Entry) error {
	var path string
	if e.root == nil || e.Rel == "" {
		path = e.Path()
	}
	fd, err := openAt(e.root, e.Rel, path, readFlags)
	if err != nil {
		if pe, ok := err.(*fs.PathError); ok && pe.Path == "" {
			pe.Path = e.Path()
		}
		return err
	}
	*f = rawFile{fd: fd, raw: e.root != nil && e.root.raw, at: e}
	return nil
}
