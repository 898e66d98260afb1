package files

import (
	"io/fs"
	"os"
)

// openRegular opens a regular file for reading and returns its info. It
// never blocks: the open does not wait (O_NONBLOCK), and what was opened
// is checked again, so a file swapped for a FIFO or a device after the
// caller's stat is refused, not read.
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
	return f, fi, nil
}
