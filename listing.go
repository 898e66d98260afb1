package spillway

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/spillway-dev/spillway/internal/shell"
	"github.com/spillway-dev/spillway/output"
)

// The jobs and history listings: the text the model reads of the
// shell's jobs, records and sessions.

// historyRecords lists the records that pass f's Session, Status and
// Limit, oldest first; nil when none does.
func historyRecords(all []HistoryRecord, f HistoryInput) []HistoryRecord {
	var out []HistoryRecord
	for _, r := range all {
		if f.Session != "" && r.Session != f.Session {
			continue
		}
		switch f.Status {
		case "ok":
			if r.Running || *r.ExitCode != 0 {
				continue
			}
		case "failed":
			if r.Running || *r.ExitCode == 0 {
				continue
			}
		case "running":
			if !r.Running {
				continue
			}
		}
		out = append(out, r)
	}
	if f.Limit > 0 && len(out) > f.Limit {
		out = out[len(out)-f.Limit:]
	}
	return out
}

// jobsText renders a jobs listing for the model: a line per job (pid,
// state, time, input, command) and a line per stream with output.
func jobsText(jobs []JobInfo) string {
	if len(jobs) == 0 {
		return "(no background jobs: a command becomes one when it runs in the background, times out, waits for input or leaves children running)"
	}
	var b strings.Builder
	for _, j := range jobs {
		state := j.State
		if j.ExitCode != nil {
			state += fmt.Sprintf(" (exit code %d", *j.ExitCode)
			if j.Signal != "" {
				state += ", " + j.Signal
			}
			if j.State != "exited" {
				state += "; processes it started still run"
			}
			state += ")"
		}
		fmt.Fprintf(&b, "pid %d %s %s", j.PID, state, (time.Duration(j.DurationMS) * time.Millisecond).Round(100*time.Millisecond))
		if j.Input != "" {
			fmt.Fprintf(&b, " [%s]", j.Input)
		}
		fmt.Fprintf(&b, " %s\n", shell.QuoteCommand(j.Command, j.Args))
		if j.State == "waiting for secret" {
			b.WriteString("  the person answers its secret prompt on spillway's page, never you: ask them to run spillway console\n")
		}
		writeStreamSizes(&b, j.Stdout, j.Stderr)
	}
	b.WriteString("[Use check_pid=PID for a job's new output, write_stdin pid=PID to answer one that waits for input, kill_pid=PID to stop one.]")
	return b.String()
}

// historyText renders a history listing for the model: one line per
// call, oldest first, then the named sessions.
func historyText(records []HistoryRecord, sessions []SessionInfo) string {
	var b strings.Builder
	if len(records) == 0 {
		b.WriteString("(no calls recorded)\n")
	}
	for _, r := range records {
		status := "running"
		if !r.Running {
			status = fmt.Sprintf("exit %d", *r.ExitCode)
		}
		fmt.Fprintf(&b, "#%d %s %s", r.ID, status, (time.Duration(r.DurationMS) * time.Millisecond).String())
		if r.Session != "" {
			fmt.Fprintf(&b, " [%s]", r.Session)
		}
		if r.Cached {
			fmt.Fprintf(&b, " (cached from #%d)", r.CachedFrom)
		}
		fmt.Fprintf(&b, " %s\n", shell.QuoteCommand(r.Command, r.Args))
		writeStreamSizes(&b, r.Stdout, r.Stderr)
	}
	if len(sessions) > 0 {
		b.WriteString("\nsessions:\n")
		for _, s := range sessions {
			fmt.Fprintf(&b, "    %s: cwd %s, %d calls", s.Name, s.Cwd, s.Calls)
			if len(s.Env) > 0 {
				keys := make([]string, 0, len(s.Env))
				for k := range s.Env {
					keys = append(keys, k)
				}
				slices.Sort(keys)
				fmt.Fprintf(&b, ", exported: %s", strings.Join(keys, " "))
			}
			b.WriteByte('\n')
		}
	}
	b.WriteString("[Show a call's output again, without running it, with id=N and strategy (head, tail, head_tail), max_lines, max_bytes, offset (a line range) or pattern.]")
	return b.String()
}

// writeStreamSizes writes a line for each stream that has output: its
// lines and size, and the file that holds it whole.
func writeStreamSizes(b *strings.Builder, stdout, stderr StreamRecord) {
	for _, s := range []struct {
		label string
		s     StreamRecord
	}{{"stdout", stdout}, {"stderr", stderr}} {
		if s.s.TotalBytes == 0 {
			continue
		}
		fmt.Fprintf(b, "    %s: %d lines, %s", s.label, s.s.TotalLines, output.FormatSize(s.s.TotalBytes))
		switch {
		case s.s.SpillError != "":
			// Named as the result named it: the file holds only a start.
			fmt.Fprintf(b, ", full output could not be saved: %s", s.s.SpillError)
			if s.s.FullOutputPath != "" {
				fmt.Fprintf(b, " (what was saved is in %s)", s.s.FullOutputPath)
			}
		case s.s.FullOutputPath != "":
			fmt.Fprintf(b, ", full output: %s", s.s.FullOutputPath)
			if s.s.SpillCapped {
				b.WriteString(" (capped)")
			}
		}
		b.WriteByte('\n')
	}
}

// rerendered shows a recorded call's output again: a section per stream
// shown (nil: not asked for), then how it ended and what it was. Its
// error is a stream that could no longer be shown.
func rerendered(rec HistoryRecord, exit shell.Exit, stdout, stderr *shell.Shown) Result[HistoryDetails] {
	res := Result[HistoryDetails]{Details: HistoryDetails{Shown: &RerenderDetails{Record: rec}}}
	var b strings.Builder
	section := func(label string, s *shell.Shown) *ShownStream {
		switch {
		case s == nil:
			return nil
		case s.Empty:
			return &ShownStream{}
		}
		body := s.Body
		if s.Err != nil {
			res.IsError = true
			body = "[" + label + ": " + s.Err.Error() + "]\n"
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(label + ":\n" + body)
		shown := s.ShownStream
		return &shown
	}
	res.Details.Shown.Stdout = section("stdout", stdout)
	res.Details.Shown.Stderr = section("stderr", stderr)
	if b.Len() == 0 {
		b.WriteString("(no output)\n")
	}
	fmt.Fprintf(&b, "\n%s\n[history %d: %s, run %s ago; shown again without running it]", exit, rec.ID,
		shell.QuoteCommand(rec.Command, rec.Args), time.Since(rec.Start).Round(100*time.Millisecond))
	res.Text = b.String()
	return res
}
