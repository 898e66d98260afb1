package mcpserver

import (
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spillway-dev/spillway"
	"github.com/spillway-dev/spillway/internal/ops"
	"github.com/spillway-dev/spillway/output"
)

// record tells the observer, if there is one, what a call did (see
// callRecord).
func (s *toolServer) record(sess *session, ts *spillway.Toolset, tool string, r spillway.Result[any], start time.Time, shown int, isError bool) {
	if s.observe != nil {
		s.observe(callRecord(sess, ts, tool, r, start, shown, isError))
	}
}

// recordVia is record for a call whose approval was answered via a
// form, the console or a terminal (the audit log's answered_via).
func (s *toolServer) recordVia(via string, sess *session, ts *spillway.Toolset, tool string, r spillway.Result[any], start time.Time, shown int, isError bool) {
	if s.observe != nil {
		c := callRecord(sess, ts, tool, r, start, shown, isError)
		c.AnsweredVia = via
		s.observe(c)
	}
}

// callRecord is what the metrics and the audit log learn of one call,
// from the typed input it ran with and the details it returned (r.Input
// and r.Details; nil when the call could not be made): ts is nil when
// the session has no toolset (its first call failed). The values of the
// input's env, its input and keys, which may hold secrets, are never
// named; env's names are.
func callRecord(sess *session, ts *spillway.Toolset, tool string, r spillway.Result[any], start time.Time, shown int, isError bool) ops.Call {
	c := ops.Call{
		Start:      start,
		Session:    sess.id,
		Tool:       tool,
		IsError:    isError,
		Duration:   time.Since(start),
		BytesShown: int64(shown),
	}
	var cwd, session string
	switch in := r.Input.(type) {
	case spillway.BashInput:
		c.Command, cwd, session = in.Command, in.Cwd, in.Session
		if c.Command == "" && len(in.Args) > 0 {
			c.Command = strings.Join(in.Args, " ")
		}
		c.PID = max(in.CheckPID, in.KillPID)
		for k := range in.Env {
			c.EnvNames = append(c.EnvNames, k)
		}
		slices.Sort(c.EnvNames)
		if in.Command != "" || len(in.Args) > 0 {
			if ts != nil {
				c.ExecCheck = ts.ExecCheck()
			}
		}
	case spillway.WriteStdinInput:
		c.PID = in.PID
	case spillway.ReadInput:
		c.Path = in.Path
	case spillway.GrepInput:
		c.Path, c.Pattern = in.Path, in.Pattern
	case spillway.FindInput:
		c.Path, c.Pattern = in.Path, in.Pattern
	case spillway.LsInput:
		c.Path = in.Path
	case spillway.EditInput:
		c.Path = in.Path
	case spillway.WriteInput:
		c.Path = in.Path
	case spillway.HistoryInput:
		session = in.Session
	}
	if ts != nil {
		c.Sandbox = ts.SandboxLayers()
		c.Cwd = callCwd(ts, cwd, session)
	}
	spilled := func(path string, t output.Truncation) {
		if path != "" {
			c.SpillPaths = append(c.SpillPaths, path)
			c.BytesSpilled += t.TotalBytes
		}
	}
	switch d := r.Details.(type) {
	case spillway.BashDetails:
		c.ExitCode = d.ExitCode
		c.Rules = d.Rules
		spilled(d.Stdout.FullOutputPath, d.Stdout.Truncation)
		spilled(d.Stderr.FullOutputPath, d.Stderr.Truncation)
	case spillway.ReadDetails:
		c.Path = d.Path
	case spillway.GrepDetails:
		spilled(d.FullOutputPath, d.Truncation)
	case spillway.FindDetails:
		spilled(d.FullOutputPath, d.Truncation)
	case spillway.LsDetails:
		spilled(d.FullOutputPath, d.Truncation)
	case spillway.FileChangeDetails:
		// Every change is in the log with its path and hashes.
		spilled(d.FullOutputPath, d.Truncation)
		if d.Path != "" {
			c.Files = append(c.Files, ops.FileHashes{Path: d.Path, Before: d.SHA256Before, After: d.SHA256After})
		}
		for _, f := range d.Files {
			p := f.Path
			if f.MovedTo != "" {
				p += " -> " + f.MovedTo
			}
			c.Files = append(c.Files, ops.FileHashes{Path: p, Before: f.SHA256Before, After: f.SHA256After})
		}
	}
	return c
}

// callCwd is the directory a call ran in: its cwd argument, else its
// named session's, else the toolset's.
func callCwd(ts *spillway.Toolset, cwd, session string) string {
	base := ts.Cwd()
	if session != "" {
		for _, s := range ts.Sessions() {
			if s.Name == session && s.Cwd != "" {
				base = s.Cwd
			}
		}
	}
	switch {
	case cwd == "":
		return base
	case filepath.IsAbs(cwd):
		return filepath.Clean(cwd)
	}
	return filepath.Join(base, cwd)
}
