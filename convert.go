package spillway

import (
	"errors"
	"fmt"

	"github.com/spillway-dev/spillway/internal/shell"
)

// The API's types are the packages' that implement the tools, field for
// field, so that the API documents itself while the implementation keeps
// types of its own. A type whose fields are all of the same types converts
// with a Go conversion (shell.CheckInput(in)), which stops compiling when
// the two drift apart. The ones below hold a type that differs (a nested
// struct, a callback) and are written out field by field;
// TestAPITypesMatchTheirImplementation checks that they carry every field.

// impl is the input the shell runs.
func (in BashInput) impl() shell.Input {
	out := shell.Input{
		Command:         in.Command,
		Args:            in.Args,
		Session:         in.Session,
		Timeout:         in.Timeout,
		RunInBackground: in.RunInBackground,
		Cwd:             in.Cwd,
		Env:             in.Env,
		MaxLines:        in.MaxLines,
		MaxBytes:        in.MaxBytes,
		MaxTokens:       in.MaxTokens,
		FullOutput:      in.FullOutput,
		StdoutMaxLines:  in.StdoutMaxLines,
		StderrMaxLines:  in.StderrMaxLines,
		TTY:             in.TTY,
		Cols:            in.Cols,
		Rows:            in.Rows,
		Stdin:           in.Stdin,
		DiffWith:        in.DiffWith,
	}
	if progress := in.Progress; progress != nil {
		out.Progress = func(p shell.Progress) { progress(BashProgress(p)) }
	}
	return out
}

func newBashResult(r shell.Result) bashResult {
	d := r.Details
	return bashResult{
		Text: r.Text,
		Details: BashDetails{
			ExitCode:         d.ExitCode,
			Signal:           d.Signal,
			TimedOut:         d.TimedOut,
			Backgrounded:     d.Backgrounded,
			Running:          d.Running,
			Waiting:          d.Waiting,
			WaitsSecret:      d.WaitsSecret,
			Secret:           (*SecretDetails)(d.Secret),
			PID:              d.PID,
			DurationMS:       d.DurationMS,
			HistoryID:        d.HistoryID,
			Cached:           d.Cached,
			CacheAgeMS:       d.CacheAgeMS,
			Stdout:           StreamDetails(d.Stdout),
			Stderr:           StreamDetails(d.Stderr),
			Failures:         convertFailures(d.Failures),
			DiffWith:         d.DiffWith,
			DiffWithExitCode: d.DiffWithExitCode,
			Tokens:           d.Tokens,
			Next:             d.Next,
		},
		IsError: r.IsError,
		Stdout:  r.Stdout,
		Stderr:  r.Stderr,
	}
}

func newHistoryRecord(r shell.Record) HistoryRecord {
	return HistoryRecord{
		ID:         r.ID,
		Command:    r.Command,
		Args:       r.Args,
		Session:    r.Session,
		Cwd:        r.Cwd,
		Start:      r.Start,
		DurationMS: r.DurationMS,
		ExitCode:   r.ExitCode,
		Running:    r.Running,
		Cached:     r.Cached,
		CachedFrom: r.CachedFrom,
		Stdout:     StreamRecord(r.Stdout),
		Stderr:     StreamRecord(r.Stderr),
		Merged:     r.Merged,
	}
}

func newHistoryRecords(records []shell.Record) []HistoryRecord {
	return convertAll(records, newHistoryRecord)
}

func newRerenderResult(r shell.RenderResult) rerenderResult {
	return rerenderResult{
		Text: r.Text,
		Details: RerenderDetails{
			Record: newHistoryRecord(r.Details.Record),
			Stdout: (*ShownStream)(r.Details.Stdout),
			Stderr: (*ShownStream)(r.Details.Stderr),
		},
		IsError: r.IsError,
	}
}

func newJobInfos(jobs []shell.JobInfo) []JobInfo {
	return convertAll(jobs, func(j shell.JobInfo) JobInfo {
		return JobInfo{
			PID:        j.PID,
			Command:    j.Command,
			Args:       j.Args,
			State:      j.State,
			ExitCode:   j.ExitCode,
			Signal:     j.Signal,
			Input:      j.Input,
			SecretURL:  j.SecretURL,
			DurationMS: j.DurationMS,
			Stdout:     StreamRecord(j.Stdout),
			Stderr:     StreamRecord(j.Stderr),
		}
	})
}

func newSessionInfos(sessions []shell.SessionInfo) []SessionInfo {
	return convertAll(sessions, func(s shell.SessionInfo) SessionInfo { return SessionInfo(s) })
}

// convertAll converts a list; nil stays nil.
func convertAll[From, To any](list []From, convert func(From) To) []To {
	if list == nil {
		return nil
	}
	out := make([]To, len(list))
	for i, x := range list {
		out[i] = convert(x)
	}
	return out
}

// toolError names the tool in an error, as every tool's errors do, and
// gives the toolset's ErrClosed for the shell's.
func toolError(tool string, err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, shell.ErrClosed) {
		err = ErrClosed
	}
	return fmt.Errorf("%s: %w", tool, err)
}

func convertFailures(fs []shell.Failure) []Failure {
	if fs == nil {
		return nil
	}
	out := make([]Failure, len(fs))
	for i, f := range fs {
		out[i] = Failure(f)
	}
	return out
}
