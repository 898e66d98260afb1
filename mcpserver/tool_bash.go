package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spillway-dev/spillway"
)

func init() {
	register(toolAdapter("bash", bashTool, callBash))
}

// bashArgs are the bash tool's parameters as a model sends them: one
// object for running a command (command and its options) and for the job
// calls (check_pid, kill_pid), which map onto Toolset.Bash, CheckJob and
// KillJob. timeout is in milliseconds.
type bashArgs struct {
	Command         string            `json:"command"`
	Args            []string          `json:"args"`
	Session         string            `json:"session"`
	Timeout         int               `json:"timeout"`
	RunInBackground bool              `json:"run_in_background"`
	Cwd             string            `json:"cwd"`
	Env             map[string]string `json:"env"`
	MaxLines        int               `json:"max_lines"`
	MaxBytes        int               `json:"max_bytes"`
	FullOutput      bool              `json:"full_output"`
	CheckPID        int               `json:"check_pid"`
	KillPID         int               `json:"kill_pid"`
	TTY             bool              `json:"tty"`
	Stdin           bool              `json:"stdin"`
}

// maxTimeoutMS bounds the timeout parameter (about 24 days), so that any
// value given fits a time.Duration.
const maxTimeoutMS = 1<<31 - 1

// input returns the command the arguments ask to run.
func (a bashArgs) input() spillway.BashInput {
	return spillway.BashInput{
		Command:         a.Command,
		Args:            a.Args,
		Session:         a.Session,
		Timeout:         time.Duration(min(a.Timeout, maxTimeoutMS)) * time.Millisecond,
		RunInBackground: a.RunInBackground,
		Cwd:             a.Cwd,
		Env:             a.Env,
		MaxLines:        a.MaxLines,
		MaxBytes:        a.MaxBytes,
		FullOutput:      a.FullOutput,
		TTY:             a.TTY,
		Stdin:           a.Stdin,
	}
}

// check reports arguments that do not name exactly one thing to do, or
// give a job call the options of a new command.
func (a bashArgs) check() error {
	given := 0
	for _, ok := range []bool{a.Command != "", a.CheckPID != 0, a.KillPID != 0} {
		if ok {
			given++
		}
	}
	if given != 1 {
		return errors.New("give exactly one of command (to run), check_pid or kill_pid (to manage a background command)")
	}
	if a.Command != "" {
		return nil
	}
	// check_pid and kill_pid act on a running job: the parameters of a
	// new command would have no effect, so say so rather than ignore them.
	var extra []string
	for _, p := range []struct {
		name  string
		given bool
	}{
		{"timeout", a.Timeout != 0}, {"run_in_background", a.RunInBackground}, {"cwd", a.Cwd != ""},
		{"env", len(a.Env) > 0}, {"max_lines", a.MaxLines != 0}, {"max_bytes", a.MaxBytes != 0}, {"full_output", a.FullOutput},
		{"args", len(a.Args) > 0}, {"session", a.Session != ""}, {"tty", a.TTY}, {"stdin", a.Stdin},
	} {
		if p.given {
			extra = append(extra, p.name)
		}
	}
	if len(extra) > 0 {
		verb := "check_pid"
		if a.KillPID != 0 {
			verb = "kill_pid"
		}
		return fmt.Errorf("%s takes no other parameter (got %s): a background command keeps the limits it was started with",
			verb, strings.Join(extra, ", "))
	}
	return nil
}

func callBash(ctx context.Context, ts *spillway.Toolset, req *mcp.CallToolRequest, a bashArgs) (result[spillway.BashDetails], error) {
	if err := a.check(); err != nil {
		return result[spillway.BashDetails]{}, fmt.Errorf("bash: %w", err)
	}
	var r spillway.BashResult
	var err error
	switch {
	case a.CheckPID != 0:
		r, err = ts.CheckJob(ctx, spillway.CheckJobInput{PID: a.CheckPID})
	case a.KillPID != 0:
		r, err = ts.KillJob(ctx, spillway.KillJobInput{PID: a.KillPID})
	default:
		in := a.input()
		if token := req.Params.GetProgressToken(); token != nil {
			p := newProgressReporter(ctx, req.Session, token)
			defer p.stop()
			in.Progress = p.report
		}
		r, err = ts.Bash(ctx, in)
	}
	return result[spillway.BashDetails]{Text: r.Text, Details: r.Details, IsError: r.IsError}, err
}
