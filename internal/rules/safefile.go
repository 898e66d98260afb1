package rules

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// Caps on what the rule files of one import may hold. A person's own
// settings file is a few kilobytes (the largest seen, 325 entries, is
// 15 KB); a file past the cap is an import failure, read no further.
const (
	// MaxRuleFileBytes caps one rules file.
	MaxRuleFileBytes = 1 << 20
	// MaxRuleBytes caps the rules files of one import together.
	MaxRuleBytes = 8 << 20
)

// errAbsent is a rules file that is not there: no rule, no failure.
var errAbsent = errors.New("not there")

// readRuleFile reads a rules file that is a regular file (a symbolic
// link to one is followed) of at most limit bytes. A FIFO, a device, a
// socket or a directory is an error at once, without waiting on it or
// reading it; so is a link to nothing, which a person would otherwise
// take for rules in force. A file that is not there is errAbsent.
func readRuleFile(name string, limit int64) ([]byte, error) {
	fi, err := os.Stat(name)
	if errors.Is(err, fs.ErrNotExist) {
		if li, lerr := os.Lstat(name); lerr == nil && li.Mode()&fs.ModeSymlink != 0 {
			target, _ := os.Readlink(name)
			return nil, fmt.Errorf("a symbolic link to %s, which does not exist", target)
		}
		return nil, errAbsent
	}
	if err != nil {
		return nil, err
	}
	if err := regular(fi); err != nil {
		return nil, err
	}
	f, err := openNoWait(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// The file may have been replaced since the Stat: what was opened is
	// checked again.
	if fi, err = f.Stat(); err != nil {
		return nil, err
	}
	if err := regular(fi); err != nil {
		return nil, err
	}
	if fi.Size() > limit {
		return nil, fmt.Errorf("%d bytes, more than the %d a rules file may hold", fi.Size(), limit)
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("more than the %d bytes a rules file may hold", limit)
	}
	return data, nil
}

// regular says why fi is not a regular file, or nil.
func regular(fi fs.FileInfo) error {
	m := fi.Mode()
	switch {
	case m.IsRegular():
		return nil
	case m.IsDir():
		return errors.New("a directory, not a file")
	case m&fs.ModeNamedPipe != 0:
		return errors.New("a FIFO, not a regular file: it is not read")
	case m&fs.ModeSocket != 0:
		return errors.New("a socket, not a regular file")
	case m&fs.ModeDevice != 0:
		return errors.New("a device, not a regular file: it is not read")
	}
	return fmt.Errorf("not a regular file (%s)", m.Type())
}
