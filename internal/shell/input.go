package shell

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"
)

// A Command is a command to run, how to run it and what to show of its
// output: what Run takes.
type Command struct {
	// Command is run with the policy's shell, or, with Args, as a
	// program without one.
	Command string
	Args    []string
	// Session names the session whose directory and variables carry
	// over; "" keeps nothing.
	Session string
	Cwd     string
	Env     map[string]string
	// Timeout is how long Run waits before the command moves to the
	// background; zero is the policy's.
	Timeout time.Duration
	// Background returns as soon as the command started.
	Background bool
	Limits     Limits
	// TTY runs the command on a pseudo-terminal of Size (zero: the
	// default size); Stdin gives it a pipe as its input instead.
	TTY   bool
	Size  TermSize
	Stdin bool
	// DiffWith names the run whose output the result is a diff with: a
	// history id, or "last".
	DiffWith string
	// Progress, when set, is told what both streams carried so far,
	// about once a second while Run waits.
	Progress func(bytes, lines int64)
}

// Limits are a call's own bounds on each stream shown, over the
// policy's: zero takes the policy's.
type Limits struct {
	MaxLines, MaxBytes, MaxTokens int
	// Full shows each stream whole, up to the ceilings.
	Full bool
	// StdoutLines and StderrLines bound the lines of one stream alone.
	StdoutLines, StderrLines int
}

// A TermSize is the size of a terminal; zero sides take the default.
type TermSize struct{ Cols, Rows int }

// A Look asks how a background job stands (Check), after waiting up to
// Wait for news; Screen is ScreenFull for every row of a screen the job
// holds.
type Look struct {
	PID    int
	Wait   time.Duration
	Screen string
}

// validate checks the parameters that do not depend on the session.
func (in Command) validate() error {
	if in.Command == "" {
		return errors.New("command is empty: give the command to run")
	}
	if in.Timeout < 0 {
		return fmt.Errorf("timeout %s: give a positive duration, or leave it out for the default", in.Timeout)
	}
	if (in.Size.Cols != 0 || in.Size.Rows != 0) && !in.TTY {
		return errors.New("cols and rows are the size of a terminal: give tty: true with them, or leave them out")
	}
	if err := checkSize(in.Size.Cols, in.Size.Rows); err != nil {
		return err
	}
	if l := in.Limits; l.MaxLines < 0 || l.MaxBytes < 0 || l.MaxTokens < 0 {
		return errors.New("max_lines, max_bytes and max_tokens must be positive (leave them out for the defaults)")
	}
	if in.Session != "" {
		if err := validSession(in.Session); err != nil {
			return err
		}
	}
	for i, a := range in.Args {
		if strings.IndexByte(a, 0) >= 0 {
			return fmt.Errorf("args[%d] holds a NUL byte, which no program argument can carry", i)
		}
	}
	if len(in.Args) > 0 && strings.IndexByte(in.Command, 0) >= 0 {
		return errors.New("command holds a NUL byte")
	}
	for k, v := range in.Env {
		if err := CheckEnv(k, v); err != nil {
			return fmt.Errorf("env: %w", err)
		}
	}
	return checkDiffWith(in)
}

// CheckEnv reports an environment variable that cannot be set.
func CheckEnv(name, value string) error {
	if name == "" || strings.ContainsAny(name, "=\x00") {
		return fmt.Errorf("%q is not a variable name (no '=' or NUL, not empty)", name)
	}
	if strings.IndexByte(value, 0) >= 0 {
		return fmt.Errorf("the value of %s holds a NUL byte", name)
	}
	return nil
}

// The values of the screen parameter of check_pid and write_stdin.
const (
	ScreenChanges = "changes" // the rows changed since the last look (the default)
	ScreenFull    = "full"    // every row
)

// checkScreen checks the screen parameter.
func checkScreen(s string) error {
	switch s {
	case "", ScreenChanges, ScreenFull:
		return nil
	}
	return fmt.Errorf("screen %q: give %q for every row of a terminal's screen, or %q (the default) for the rows changed since the last look", s, ScreenFull, ScreenChanges)
}

// validPID checks the pid a job call names.
func validPID(pid int) error {
	if pid <= 0 {
		return fmt.Errorf("pid %d: give the positive pid a background command was given", pid)
	}
	return nil
}

// dir resolves the call's working directory against the session's.
func (in Command) dir(session string) string {
	switch {
	case in.Cwd == "":
		return session
	case filepath.IsAbs(in.Cwd):
		return filepath.Clean(in.Cwd)
	default:
		return filepath.Join(session, in.Cwd)
	}
}
