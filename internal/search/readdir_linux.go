//go:build linux && !spillway_portable

package search

import (
	"io/fs"
	"syscall"
	"unsafe"

	"github.com/spillway-dev/spillway/internal/confine"
)

// readDir lists a directory with getdents64, giving each entry's name and
// type bits without a stat per entry (an lstat only where the file system
// does not report the type). It skips "." and "..". Like rawFile, it
// spares the netpoller registration and finalizer of an *os.File.
//
// The directory is rel below the walk's root wr (see openAt), whose path
// is path.
func readDir(wr *walkRoot, rel, path string, dl *direntList, root *confine.Root) ([]dirent, error) {
	fd, err := openAt(wr, rel, path, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC|syscall.O_NONBLOCK)
	if err != nil {
		return nil, err
	}
	raw := wr != nil && wr.raw
	defer sysClose(raw, fd)
	if err := root.CheckFD(fd, path); err != nil { // changed since the check
		return nil, err
	}
	for {
		n, err := sysGetdents(raw, fd, dl.buf)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			if len(dl.spans) > 0 {
				return dl.take(), nil // what could be read
			}
			return nil, &fs.PathError{Op: "readdirent", Path: path, Err: err}
		}
		if n <= 0 {
			return dl.take(), nil
		}
		parseDirents(dl, dl.buf[:n], path, rel)
	}
}

// Offsets in struct linux_dirent64: d_ino u64, d_off s64, d_reclen u16,
// d_type u8, d_name.
const (
	direntReclen = 16
	direntType   = 18
	direntName   = 19
)

func parseDirents(dl *direntList, b []byte, dir, rel string) {
	for len(b) >= direntName {
		reclen := int(*(*uint16)(unsafe.Pointer(&b[direntReclen])))
		if reclen < direntName || reclen > len(b) {
			break
		}
		rec := b[:reclen]
		b = b[reclen:]
		name := rec[direntName:]
		for i, c := range name {
			if c == 0 {
				name = name[:i]
				break
			}
		}
		if len(name) == 0 || (name[0] == '.' && (len(name) == 1 || (len(name) == 2 && name[1] == '.'))) {
			continue
		}
		dl.add(rel, name, direntMode(rec[direntType], dir, name))
	}
}

// direntMode turns a d_type into type bits; DT_UNKNOWN takes an lstat.
// A d_type is the file's S_IFMT bits shifted down by 12 (IFTODT).
func direntMode(t uint8, dir string, name []byte) fs.FileMode {
	ifmt := uint32(t) << 12
	if t == syscall.DT_UNKNOWN {
		var st syscall.Stat_t
		if err := syscall.Lstat(dir+"/"+string(name), &st); err != nil {
			return fs.ModeIrregular
		}
		ifmt = st.Mode & syscall.S_IFMT
	}
	switch ifmt {
	case syscall.S_IFREG:
		return 0
	case syscall.S_IFDIR:
		return fs.ModeDir
	case syscall.S_IFLNK:
		return fs.ModeSymlink
	case syscall.S_IFIFO:
		return fs.ModeNamedPipe
	case syscall.S_IFSOCK:
		return fs.ModeSocket
	case syscall.S_IFCHR:
		return fs.ModeDevice | fs.ModeCharDevice
	case syscall.S_IFBLK:
		return fs.ModeDevice
	}
	return fs.ModeIrregular
}
