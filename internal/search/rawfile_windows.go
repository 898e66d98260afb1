package search

import (
	"io"
	"os"

	"github.com/spillway-dev/spillway/internal/confine"
)

// rawFile is an *os.File on Windows, where there is no raw descriptor
// path to spare the cost of one.
type rawFile struct {
	f    *os.File
	path string
	raw  bool // never: every call goes through package os
}

func openRead(path string) (*rawFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	return &rawFile{f: f, path: path}, nil
}

func openDir(path string) (*os.File, error) { return os.Open(path) }

func (f *rawFile) check(root *confine.Root) error { return root.CheckFile(f.f) }

func (f *rawFile) stat() (regular bool, size int64, err error) {
	fi, err := f.f.Stat()
	if err != nil {
		return false, 0, err
	}
	return fi.Mode().IsRegular(), fi.Size(), nil
}

func (f *rawFile) Read(p []byte) (int, error) { return f.f.Read(p) }

func (f *rawFile) ReadAt(p []byte, off int64) (int, error) { return f.f.ReadAt(p, off) }

func (f *rawFile) Close() error { return f.f.Close() }

var _ io.ReaderAt = (*rawFile)(nil)
