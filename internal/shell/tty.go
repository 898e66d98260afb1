package shell

import (
	"fmt"
	"os"

	"github.com/creack/pty"

	"github.com/spillway-dev/spillway/output"
)

// The size of every job's terminal. It is fixed: nobody resizes a window
// the model does not see. 120 columns wrap less than 80 and keep tables
// whole; 40 rows is what a full-screen program draws.
const (
	TTYRows = 40
	TTYCols = 120
)

// openTTY opens a pseudo-terminal of the fixed size. The caller gives
// the slave side to the command and reads and writes the master side.
func openTTY() (master, slave *os.File, err error) {
	master, slave, err = pty.Open()
	if err != nil {
		return nil, nil, fmt.Errorf("cannot open a terminal: %w", err)
	}
	if err := pty.Setsize(master, &pty.Winsize{Rows: TTYRows, Cols: TTYCols}); err != nil {
		master.Close()
		slave.Close()
		return nil, nil, fmt.Errorf("cannot size the terminal: %w", err)
	}
	if master, err = pollable(master); err != nil {
		slave.Close()
		return nil, nil, fmt.Errorf("cannot open a terminal: %w", err)
	}
	return master, slave, nil
}

// openTTY gives the job a terminal: the child gets the slave side as
// stdin, stdout and stderr; the master side is read into outPipe and
// written by Write.
func (j *job) openTTY(outPipe *output.Pipeline, child *childFiles) error {
	master, slave, err := openTTY()
	if err != nil {
		return err
	}
	// The processes that keep the slave after leaving the session are
	// found, as a pipe's holders are, by what their descriptors name.
	j.stdout = &stream{label: "stdout", r: master, pipe: outPipe, tty: slave.Name()}
	j.input = ttyInput(master, slave.Name())
	j.screen = &screenWatch{}
	child.stdin, child.stdout, child.stderr = slave, slave, slave
	return nil
}
