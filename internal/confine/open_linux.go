//go:build linux && !spillway_portable

package confine

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"syscall"

	"golang.org/x/sys/unix"
)

// noOpenat2 is set once the kernel (or a seccomp filter) has answered
// openat2 with ENOSYS; opens then check the opened file's real path.
var noOpenat2 atomic.Bool

// openBeneath opens the resolved path real, which lies under b (the root
// or an allowed directory), so that no component changed since the check
// can lead outside b.
func openBeneath(r *Root, b base, real string, flag int) (*os.File, error) {
	if !noOpenat2.Load() {
		f, err := openat2Beneath(b, real, flag)
		if !errors.Is(err, syscall.ENOSYS) {
			return f, err
		}
		noOpenat2.Store(true)
	}
	return openAndVerify(r, real, flag)
}

func openat2Beneath(b base, real string, flag int) (*os.File, error) {
	rel, err := filepath.Rel(b.dir, real)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: real, Err: err}
	}
	how := &unix.OpenHow{
		Flags:   uint64(flag) | unix.O_CLOEXEC | unix.O_LARGEFILE,
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_MAGICLINKS,
	}
	if flag&(os.O_CREATE|unix.O_TMPFILE) != 0 {
		how.Mode = 0o666
	}
	open := func(dirfd int) (fd int, err error) {
		for {
			fd, err = unix.Openat2(dirfd, rel, how)
			if err != unix.EINTR {
				return fd, err
			}
		}
	}
	// The handle of the base directory (the root or an allowed one) is
	// opened from its real path, following no symlink: a component of it
	// swapped for one since the check fails the open. An allowed directory
	// must still be the one its owner holds.
	var fd int
	dirfd, err := unix.Openat2(unix.AT_FDCWD, b.dir, &unix.OpenHow{
		Flags:   unix.O_PATH | unix.O_DIRECTORY | unix.O_CLOEXEC,
		Resolve: unix.RESOLVE_NO_SYMLINKS,
	})
	if err == unix.ELOOP {
		err = unix.EXDEV
	}
	if err == nil && b.id != nil && !sameDir(dirfd, b.id) {
		unix.Close(dirfd)
		err = unix.EXDEV
	}
	if err == nil {
		fd, err = open(dirfd)
		unix.Close(dirfd)
	}
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: real, Err: err}
	}
	return os.NewFile(uintptr(fd), real), nil
}

// sameDir reports whether the open directory fd is the one id describes.
func sameDir(fd int, id os.FileInfo) bool {
	var st unix.Stat_t
	want, ok := id.Sys().(*syscall.Stat_t)
	return ok && unix.Fstat(fd, &st) == nil && uint64(st.Dev) == uint64(want.Dev) && st.Ino == want.Ino
}

// openAndVerify opens real, then checks where the opened file really is.
func openAndVerify(r *Root, real string, flag int) (*os.File, error) {
	f, err := os.OpenFile(real, flag, 0o666)
	if err != nil {
		return nil, err
	}
	if err := r.CheckFile(f); err != nil {
		f.Close()
		if errors.Is(err, ErrOutside) {
			err = &os.PathError{Op: "open", Path: real, Err: syscall.EXDEV}
		}
		return nil, err
	}
	return f, nil
}

// CheckFD verifies that the file open as fd (opened by the caller from
// path, which it resolved with Resolve) really lies inside the root or an
// allowed directory: a component swapped for a symlink between the check
// and the caller's open is caught here. A nil Root allows every file.
func (r *Root) CheckFD(fd int, path string) error {
	if r == nil {
		return nil
	}
	got, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(fd))
	if err != nil {
		return &os.PathError{Op: "open", Path: path, Err: errors.New("cannot check where the opened file is: " + err.Error())}
	}
	if _, ok := r.base(got); !ok {
		return &OutsideError{Path: path, Root: r.dir, Resolved: got, Changed: true}
	}
	return nil
}

// CheckFile is CheckFD for an *os.File.
func (r *Root) CheckFile(f *os.File) error {
	if r == nil {
		return nil
	}
	conn, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var checkErr error
	if err := conn.Control(func(fd uintptr) { checkErr = r.CheckFD(int(fd), f.Name()) }); err != nil {
		return err
	}
	return checkErr
}
