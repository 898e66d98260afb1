package mcpserver

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"time"

	"github.com/spillway-dev/spillway"
	"github.com/spillway-dev/spillway/internal/ops"
)

// callArgs are the arguments of a call the audit log names: never env,
// input or keys, which may hold secrets.
type callArgs struct {
	Command  string   `json:"command"`
	Args     []string `json:"args"`
	Session  string   `json:"session"`
	Cwd      string   `json:"cwd"`
	Path     string   `json:"path"`
	Pattern  string   `json:"pattern"`
	PID      int      `json:"pid"`
	CheckPID int      `json:"check_pid"`
	KillPID  int      `json:"kill_pid"`
}

// streamFields are the fields of a stream's details (or of a search's or a
// listing's) that say what was spilled.
type streamFields struct {
	FullOutputPath string `json:"full_output_path"`
	Truncation     struct {
		TotalBytes int64 `json:"total_bytes"`
	} `json:"truncation"`
}

// resultFields are the fields of a result's details the audit log keeps.
type resultFields struct {
	ExitCode *int   `json:"exit_code"`
	Path     string `json:"path"`
	streamFields
	Stdout streamFields `json:"stdout"`
	Stderr streamFields `json:"stderr"`
}

// record tells the observer, if there is one, what a call did (see
// callRecord).
func (s *toolServer) record(sess *session, ts *spillway.Toolset, tool string, rawArgs json.RawMessage, start time.Time, shown int, details []byte, isError bool) {
	if s.observe != nil {
		s.observe(callRecord(sess, ts, tool, rawArgs, start, shown, details, isError))
	}
}

// recordVia is record for a call whose approval was answered via a
// form, the console or a terminal (the audit log's answered_via).
func (s *toolServer) recordVia(via string, sess *session, ts *spillway.Toolset, tool string, rawArgs json.RawMessage, start time.Time, shown int, details []byte, isError bool) {
	if s.observe != nil {
		c := callRecord(sess, ts, tool, rawArgs, start, shown, details, isError)
		c.AnsweredVia = via
		s.observe(c)
	}
}

// callRecord is what the metrics and the audit log learn of one call:
// ts is nil when the session has no toolset (its first call failed),
// details nil when the call could not be made.
func callRecord(sess *session, ts *spillway.Toolset, tool string, rawArgs json.RawMessage, start time.Time, shown int, details []byte, isError bool) ops.Call {
	c := ops.Call{
		Start:      start,
		Session:    sess.id,
		Tool:       tool,
		IsError:    isError,
		Duration:   time.Since(start),
		BytesShown: int64(shown),
	}
	var a callArgs
	json.Unmarshal(rawArgs, &a) // what does not decode is left out
	c.Command = a.Command
	if c.Command == "" && len(a.Args) > 0 {
		c.Command = strings.Join(a.Args, " ")
	}
	c.Path, c.Pattern = a.Path, a.Pattern
	c.PID = max(a.PID, a.CheckPID, a.KillPID)
	if ts != nil {
		c.Sandbox = ts.SandboxLayers()
		c.Cwd = callCwd(ts, a)
	}
	var d resultFields
	if details != nil && json.Unmarshal(details, &d) == nil {
		c.ExitCode = d.ExitCode
		if d.Path != "" {
			c.Path = d.Path
		}
		for _, s := range []streamFields{d.streamFields, d.Stdout, d.Stderr} {
			if s.FullOutputPath != "" {
				c.SpillPaths = append(c.SpillPaths, s.FullOutputPath)
				c.BytesSpilled += s.Truncation.TotalBytes
			}
		}
	}
	return c
}

// callCwd is the directory a call ran in: its cwd argument, else its
// named session's, else the toolset's.
func callCwd(ts *spillway.Toolset, a callArgs) string {
	base := ts.Cwd()
	if a.Session != "" {
		for _, s := range ts.Sessions() {
			if s.Name == a.Session && s.Cwd != "" {
				base = s.Cwd
			}
		}
	}
	switch {
	case a.Cwd == "":
		return base
	case filepath.IsAbs(a.Cwd):
		return filepath.Clean(a.Cwd)
	}
	return filepath.Join(base, a.Cwd)
}
