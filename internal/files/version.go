package files

import "io/fs"

// A fileVersion tells one version of a file from another: its identity
// (device and inode where the system has them) and its size, mtime and
// ctime. A file replaced by another of the same size and mtime (mv, or
// touch -r after a rewrite) differs in inode or ctime, so an index made
// for one is never used for the other.
type fileVersion struct {
	dev, ino uint64
	size     int64
	mtime    int64 // UnixNano
	ctime    int64 // UnixNano; 0 where the system does not say
}

func versionOf(fi fs.FileInfo) fileVersion {
	v := fileVersion{size: fi.Size(), mtime: fi.ModTime().UnixNano()}
	v.dev, v.ino, v.ctime = identity(fi)
	return v
}
