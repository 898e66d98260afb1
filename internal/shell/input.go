package shell

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
)

// Input holds the parameters of one bash call (SPEC §2). Exactly one of
// Command, CheckPID and KillPID is given.
type Input struct {
	Command string `json:"command,omitempty"`
	// Args, when given, run Command as a program with these arguments,
	// without a shell: nothing in them is expanded or quoted.
	Args []string `json:"args,omitempty"`
	// Session names a session whose cwd and exported environment persist
	// from call to call (see session.go); "" runs the call stateless.
	Session         string            `json:"session,omitempty"`
	Timeout         int               `json:"timeout,omitempty"` // ms
	RunInBackground bool              `json:"run_in_background,omitempty"`
	Cwd             string            `json:"cwd,omitempty"`
	Env             map[string]string `json:"env,omitempty"`
	MaxLines        int               `json:"max_lines,omitempty"`
	MaxBytes        int               `json:"max_bytes,omitempty"`
	FullOutput      bool              `json:"full_output,omitempty"`
	CheckPID        int               `json:"check_pid,omitempty"`
	KillPID         int               `json:"kill_pid,omitempty"`

	// Progress, when set, receives the bytes and lines seen so far about
	// once a second while the call waits for its command.
	Progress func(Progress) `json:"-"`
}

// Progress is what a long call has produced so far, both streams together.
type Progress struct {
	Bytes int64 `json:"bytes"`
	Lines int64 `json:"lines"`
}

// validate checks the parameters that do not depend on the session.
func (in Input) validate() error {
	given := 0
	for _, ok := range []bool{in.Command != "", in.CheckPID != 0, in.KillPID != 0} {
		if ok {
			given++
		}
	}
	if given != 1 {
		return errors.New("give exactly one of command (to run), check_pid or kill_pid (to manage a background command)")
	}
	if in.CheckPID < 0 || in.KillPID < 0 {
		return errors.New("check_pid and kill_pid take the positive pid a background command was given")
	}
	if in.Command == "" {
		// check_pid and kill_pid act on a running job: the parameters of a
		// new command would have no effect, so say so rather than ignore them.
		var extra []string
		if in.Timeout != 0 {
			extra = append(extra, "timeout")
		}
		if in.RunInBackground {
			extra = append(extra, "run_in_background")
		}
		if in.Cwd != "" {
			extra = append(extra, "cwd")
		}
		if len(in.Env) > 0 {
			extra = append(extra, "env")
		}
		if in.MaxLines != 0 {
			extra = append(extra, "max_lines")
		}
		if in.MaxBytes != 0 {
			extra = append(extra, "max_bytes")
		}
		if in.FullOutput {
			extra = append(extra, "full_output")
		}
		if len(in.Args) > 0 {
			extra = append(extra, "args")
		}
		if in.Session != "" {
			extra = append(extra, "session")
		}
		if len(extra) > 0 {
			verb := "check_pid"
			if in.KillPID != 0 {
				verb = "kill_pid"
			}
			return fmt.Errorf("%s takes no other parameter (got %s): a background command keeps the limits it was started with",
				verb, strings.Join(extra, ", "))
		}
		return nil
	}
	if in.Timeout < 0 {
		return fmt.Errorf("timeout %d: give a positive number of milliseconds, or leave it out for the default", in.Timeout)
	}
	if in.MaxLines < 0 || in.MaxBytes < 0 {
		return errors.New("max_lines and max_bytes must be positive (leave them out for the defaults)")
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
		if k == "" || strings.ContainsAny(k, "=\x00") {
			return fmt.Errorf("env: %q is not a variable name (no '=' or NUL, not empty)", k)
		}
		if strings.IndexByte(v, 0) >= 0 {
			return fmt.Errorf("env: the value of %s holds a NUL byte", k)
		}
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
