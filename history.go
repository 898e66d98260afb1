package spillway

import (
	"context"
	"fmt"

	"github.com/spillway-dev/spillway/internal/registry"
	"github.com/spillway-dev/spillway/tool"
)

// HistoryInput is a call of the history tool (tool.HistoryInput).
type HistoryInput = tool.HistoryInput

// historyEntry declares the history tool: its parameters are the fields
// of HistoryInput, by their json tags.
var historyEntry = entry{Tool: registry.Tool{
	Name:     "history",
	Title:    "Look back at earlier bash calls",
	ReadOnly: true,
	MCPOnly:  true,
	Describe: describe(describeHistory),
	CLI:      registry.CLI{Instead: "the spill file a notice names keeps a command's whole output: spillway read FILE pages through it"},
	Notes: "`id` calls `Toolset.History` and takes `stream`, `strategy`, `max_lines`, `max_bytes`, `max_tokens`, `offset`, `pattern`.\n" +
		"Without it, the call takes the other parameters.\n",
}, run: handle((*Toolset).History)}

// A HistoryRecord is one recorded bash call (tool.HistoryRecord).
type HistoryRecord = tool.HistoryRecord

// A StreamRecord describes one stream of a recorded call or of a
// background job (tool.StreamRecord).
type StreamRecord = tool.StreamRecord

// RerenderDetails describe a recorded call shown again.
type RerenderDetails struct {
	Record HistoryRecord `json:"record"`
	// Stdout and Stderr say what part of each stream was shown; nil for
	// a stream not shown.
	Stdout *ShownStream `json:"stdout,omitempty" doc:"Details of standard output."`
	Stderr *ShownStream `json:"stderr,omitempty" doc:"Details of standard error."`
}

// ShownStream says what part of a recorded stream was shown again
// (tool.ShownStream).
type ShownStream = tool.ShownStream

// History lists the recorded bash calls that pass in's filter, oldest
// first, with the named sessions; or, with in.ID, shows that call's output
// again without running anything. Every command a bash call starts is
// recorded, with the paths of its spill files; the oldest records are
// forgotten first (200 are kept), their spill files once no result has
// named them for Policy.Spill.KeepNamed.
func (t *Toolset) History(ctx context.Context, in HistoryInput) (Result[HistoryDetails], error) {
	if err := check("history", &in); err != nil {
		return Result[HistoryDetails]{}, err
	}
	if err := t.open(); err != nil {
		return Result[HistoryDetails]{}, err
	}
	if in.Change != 0 || in.Undo != 0 {
		return t.historyChange(ctx, in)
	}
	if in.ID != 0 {
		rec, exit, stdout, stderr, err := t.shell.Render(in)
		if err != nil {
			return Result[HistoryDetails]{}, toolError("history", err)
		}
		r := rerendered(rec, exit, stdout, stderr)
		r.Text = t.finish(r.Text, &r.Details.Tokens, func() any { return r.Details })
		return r, nil
	}
	d := HistoryDetails{Records: historyRecords(t.shell.History(), in), Sessions: t.Sessions(), Changes: t.fileChanges()}
	text := historyText(d.Records, d.Sessions) + changesText(d.Changes)
	return Result[HistoryDetails]{Text: t.finish(text, &d.Tokens, func() any { return d }), Details: d}, nil
}

// HistoryDetails are the details of the history tool: a listing's Records
// and Sessions, or the call Shown again.
type HistoryDetails struct {
	// Records are the recorded calls a listing shows, oldest first.
	Records []HistoryRecord `json:"records,omitempty" doc:"The recorded bash calls, oldest first."`
	// Sessions are the named sessions, listed beside the records.
	Sessions []SessionInfo `json:"sessions,omitempty" doc:"The named bash sessions: cwd and the variables their commands exported."`
	// Changes are the session's file changes (edit, write, apply_patch)
	// its journal still holds, oldest first.
	Changes []tool.FileChangeRecord `json:"changes,omitempty" doc:"The session's file changes (edit, write, apply_patch), oldest first: change (the number change and undo take), tool and the files."`
	// Shown describes the call a Rerender showed again.
	Shown *RerenderDetails `json:"shown,omitempty" doc:"The recorded call shown again, and which lines of each stream were shown."`
	tool.TokenCount
}

// describeHistory is history's description for the model under p: what it
// keeps, how to show a call again, and bash's limits as its defaults.
func describeHistory(p Policy) string {
	out := p.Bash.Stdout
	return "Every bash call of this session is recorded with its full output (the spill files, and small outputs kept whole). " +
		"Without `id`: list the calls, oldest first, with their exit codes, sizes and spill files, and the named bash sessions " +
		"(filter with `session`, `status` ok/failed/running, `limit` for the newest N). " +
		"With `id` (the `history_id` of a bash result): show that call's output again WITHOUT running it, with other limits: " +
		"`strategy` head, tail or head_tail, `max_lines`/`max_bytes`, `offset` for the lines from that one on, or `pattern` " +
		"(RE2) for the matching lines with their numbers; `stream` stdout or stderr for one of them. " +
		fmt.Sprintf("Defaults are bash's: %d lines, %s per stream. ", out.MaxLines, size(out.MaxBytes)) +
		fmt.Sprintf("The oldest calls are forgotten first; their spill files go once no result has named them for %s. ", p.Spill.KeepNamed) +
		"Output past the spill file's cap was not saved, except its end."
}
