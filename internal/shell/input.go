package shell

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"
)

// Input holds the parameters of a command to run.
type Input struct {
	// Command is run with `bash -c`, or as a program when Args are given.
	Command string `json:"command,omitempty"`
	// Args, when given, run Command as a program with these arguments,
	// without a shell: nothing in them is expanded or quoted.
	Args []string `json:"args,omitempty"`
	// Session names a session whose cwd and exported environment persist
	// from call to call (see session.go); "" runs the call stateless.
	Session string `json:"session,omitempty"`
	// Timeout is how long the call waits before the command moves to the
	// background (it is not killed); 0 takes the policy's.
	Timeout time.Duration `json:"timeout,omitempty"`
	// RunInBackground returns at once with the pid.
	RunInBackground bool `json:"run_in_background,omitempty"`
	// Cwd is the command's working directory, relative to the session's.
	Cwd string `json:"cwd,omitempty"`
	// Env holds extra environment variables.
	Env map[string]string `json:"env,omitempty"`
	// MaxLines and MaxBytes limit each stream for this call; 0 takes the
	// policy's.
	MaxLines int `json:"max_lines,omitempty"`
	MaxBytes int `json:"max_bytes,omitempty"`
	// MaxTokens, when above zero, limits each stream for this call to
	// that many estimated tokens (output.EstimateTokens), beside the
	// other limits.
	MaxTokens int `json:"max_tokens,omitempty"`
	// FullOutput shows each stream whole, up to the hard ceiling.
	FullOutput bool `json:"full_output,omitempty"`
	// StdoutMaxLines and StderrMaxLines, when above zero, set max_lines
	// for one stream (macos-shell's maxOutputLines and maxErrorLines).
	StdoutMaxLines int `json:"-"`
	StderrMaxLines int `json:"-"`
	// TTY runs the command on a pseudo-terminal: stdin, stdout and stderr
	// are its terminal, so interactive programs prompt and REPLs start;
	// both streams arrive as one, in stdout. Input goes in with Write.
	TTY bool `json:"tty,omitempty"`
	// Stdin gives the command a pipe as stdin, written with Write and
	// closed on request, instead of /dev/null.
	Stdin bool `json:"stdin,omitempty"`

	// Progress, when set, receives the bytes and lines seen so far about
	// once a second while the call waits for its command.
	Progress func(Progress) `json:"-"`
}

// CheckInput names a background job whose status and new output to return.
type CheckInput struct {
	// PID is the pid the job was given.
	PID int `json:"check_pid"`
	// Timeout, when above zero, waits up to that long (at most
	// MaxCheckWait) for output the job has not shown yet, or its end,
	// before returning: a wait without polling. Zero returns at once.
	Timeout time.Duration `json:"timeout,omitempty"`
}

// KillInput names a background job to stop.
type KillInput struct {
	// PID is the pid the job was given.
	PID int `json:"kill_pid"`
}

// Progress is what a long call has produced so far, both streams together.
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
	return nil
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
