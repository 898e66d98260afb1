package safewrite

import (
	"bytes"
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// copyXattrs copies the extended attributes of src to dst (POSIX ACLs are
// the system.posix_acl_* ones) and returns how many it copied and the
// names of those it could not (a security.* one the process may not set).
func copyXattrs(src, dst *os.File) (int, []string) {
	sfd, dfd := int(src.Fd()), int(dst.Fd())
	size, err := unix.Flistxattr(sfd, nil)
	if err != nil || size == 0 {
		return 0, nil
	}
	names := make([]byte, size)
	size, err = unix.Flistxattr(sfd, names)
	if err != nil {
		return 0, nil
	}
	kept := 0
	var lost []string
	for _, name := range bytes.Split(names[:size], []byte{0}) {
		if len(name) == 0 {
			continue
		}
		n := string(name)
		vsize, err := unix.Fgetxattr(sfd, n, nil)
		if err != nil {
			lost = append(lost, n)
			continue
		}
		val := make([]byte, vsize)
		if vsize, err = unix.Fgetxattr(sfd, n, val); err != nil {
			lost = append(lost, n)
			continue
		}
		if err := unix.Fsetxattr(dfd, n, val[:vsize], 0); err != nil {
			lost = append(lost, n)
			continue
		}
		kept++
	}
	return kept, lost
}

// allocate reserves size bytes for f, so that writing them cannot fail
// for want of space, without changing its size (its content stays the
// old one until it is overwritten). A file system that cannot reserve is
// written anyway.
func allocate(f *os.File, size int64) error {
	if size == 0 {
		return nil
	}
	err := unix.Fallocate(int(f.Fd()), unix.FALLOC_FL_KEEP_SIZE, 0, size)
	if errors.Is(err, unix.EOPNOTSUPP) || errors.Is(err, unix.ENOSYS) {
		return nil
	}
	return err
}
