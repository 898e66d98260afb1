package shell

import (
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/creack/pty"

	"github.com/spillway-dev/spillway/internal/term"
	"github.com/spillway-dev/spillway/output"
)

// The default size of a job's terminal (the bash tool's cols and rows).
const (
	TTYRows = term.DefaultRows
	TTYCols = term.DefaultCols
)

// ttyEnv is what a job on a terminal gets instead of TERM=dumb: a
// terminal emulator keeps its screen, so full-screen programs may draw.
const ttyEnv = "TERM=xterm-256color"

// openTTY opens a pseudo-terminal of cols×rows. The caller gives the
// slave side to the command and reads and writes the master side.
func openTTY(cols, rows int) (master, slave *os.File, err error) {
	master, slave, err = pty.Open()
	if err != nil {
		return nil, nil, fmt.Errorf("cannot open a terminal: %w", err)
	}
	if err := pty.Setsize(master, &pty.Winsize{Rows: uint16(rows), Cols: uint16(cols)}); err != nil {
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

// openTTY gives the job a terminal of cols×rows (0: the default): the
// child gets the slave side as stdin, stdout and stderr; the master side
// is read into outPipe and into the job's screen, whose emulator spends
// from the session's budget, and written by Write.
func (j *job) openTTY(outPipe *output.Pipeline, cols, rows int, budget *term.Budget, child *childFiles) error {
	if cols == 0 {
		cols = TTYCols
	}
	if rows == 0 {
		rows = TTYRows
	}
	master, slave, err := openTTY(cols, rows)
	if err != nil {
		return err
	}
	// The processes that keep the slave after leaving the session are
	// found, as a pipe's holders are, by what their descriptors name.
	j.stdout = &stream{label: "stdout", r: master, pipe: outPipe, tty: slave.Name()}
	j.input = ttyInput(master, slave.Name())
	j.term = term.New(cols, rows, answerWriter{j.input}, budget)
	child.stdin, child.stdout, child.stderr = slave, slave, slave
	return nil
}

// An answerWriter writes the terminal's answers to a program's queries
// (where is the cursor, what terminal is this) to the job's input, as a
// terminal does; it gives up soon on a program that does not read.
type answerWriter struct{ in *jobInput }

func (w answerWriter) Write(b []byte) (int, error) {
	return w.in.write(b, time.Now().Add(100*time.Millisecond))
}

// resize gives a running job's terminal a new size: the kernel sends the
// program SIGWINCH, and it redraws.
func (j *job) resize(cols, rows int) error {
	if j.term == nil {
		return errors.New("it was started without a terminal (tty: true): it has no size to change")
	}
	c, r := j.term.Size()
	if cols == 0 {
		cols = c
	}
	if rows == 0 {
		rows = r
	}
	if cols == c && rows == r {
		return nil
	}
	j.term.Resize(cols, rows)
	if err := pty.Setsize(j.input.f, &pty.Winsize{Rows: uint16(rows), Cols: uint16(cols)}); err != nil {
		return fmt.Errorf("cannot resize its terminal: %w", err)
	}
	return nil
}
