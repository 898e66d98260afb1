package shell

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"
)

// Input is spillway.BashInput inside the implementation; the fields are
// documented there.
type Input struct {
	Command         string            `json:"command,omitempty"`
	Args            []string          `json:"args,omitempty"`
	Session         string            `json:"session,omitempty"`
	Timeout         time.Duration     `json:"timeout,omitempty"`
	RunInBackground bool              `json:"run_in_background,omitempty"`
	Cwd             string            `json:"cwd,omitempty"`
	Env             map[string]string `json:"env,omitempty"`
	MaxLines        int               `json:"max_lines,omitempty"`
	MaxBytes        int               `json:"max_bytes,omitempty"`
	MaxTokens       int               `json:"max_tokens,omitempty"`
	FullOutput      bool              `json:"full_output,omitempty"`
	StdoutMaxLines  int               `json:"-"`
	StderrMaxLines  int               `json:"-"`
	TTY             bool              `json:"tty,omitempty"`
	Cols            int               `json:"cols,omitempty"`
	Rows            int               `json:"rows,omitempty"`
	Stdin           bool              `json:"stdin,omitempty"`
	DiffWith        string            `json:"diff_with,omitempty"`

	Progress func(Progress) `json:"-"`
}

// CheckInput is spillway.CheckJobInput inside the implementation; the
// fields are documented there.
type CheckInput struct {
	PID     int           `json:"check_pid"`
	Timeout time.Duration `json:"timeout,omitempty"`
	Screen  string        `json:"screen,omitempty"`
}

// KillInput is spillway.KillJobInput inside the implementation; the fields
// are documented there.
type KillInput struct {
	PID int `json:"kill_pid"`
}

// Progress is spillway.BashProgress inside the implementation; the fields
// are documented there.
type Progress struct {
	Bytes int64 `json:"bytes"`
	Lines int64 `json:"lines"`
}

// validate checks the parameters that do not depend on the session.
func (in Input) validate() error {
	if in.Command == "" {
		return errors.New("command is empty: give the command to run")
	}
	if in.Timeout < 0 {
		return fmt.Errorf("timeout %s: give a positive duration, or leave it out for the default", in.Timeout)
	}
	if (in.Cols != 0 || in.Rows != 0) && !in.TTY {
		return errors.New("cols and rows are the size of a terminal: give tty: true with them, or leave them out")
	}
	if err := checkSize(in.Cols, in.Rows); err != nil {
		return err
	}
	if in.MaxLines < 0 || in.MaxBytes < 0 || in.MaxTokens < 0 {
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
func (in Input) dir(session string) string {
	switch {
	case in.Cwd == "":
		return session
	case filepath.IsAbs(in.Cwd):
		return filepath.Clean(in.Cwd)
	default:
		return filepath.Join(session, in.Cwd)
	}
}
