package mcpserver

import (
	"context"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spillway-dev/spillway"
	"github.com/spillway-dev/spillway/internal/policy"
)

func init() {
	register(toolAdapter("history", historyTool, callHistory))
}

// historyInput is the input of the history tool: a listing without id,
// a recorded call shown again with one.
type historyInput struct {
	ID int `json:"id"`
	spillway.HistoryFilter
	Stream   string `json:"stream"`
	Strategy string `json:"strategy"`
	MaxLines int    `json:"max_lines"`
	MaxBytes int    `json:"max_bytes"`
	Offset   int    `json:"offset"`
	Pattern  string `json:"pattern"`
}

// HistoryDetails are the details of the history tool.
type HistoryDetails struct {
	// Records and Sessions answer a listing.
	Records  []spillway.HistoryRecord `json:"records,omitempty"`
	Sessions []spillway.SessionInfo   `json:"sessions,omitempty"`
	// Shown answers a call shown again.
	Shown *spillway.RerenderDetails `json:"shown,omitempty"`
}

func callHistory(_ context.Context, ts *spillway.Toolset, _ *mcp.CallToolRequest, in historyInput) (result[HistoryDetails], error) {
	if in.ID == 0 {
		if err := in.HistoryFilter.Validate(); err != nil {
			return result[HistoryDetails]{}, fmt.Errorf("history: %w", err)
		}
		if in.Stream != "" || in.Strategy != "" || in.MaxLines != 0 || in.MaxBytes != 0 || in.Offset != 0 || in.Pattern != "" {
			return result[HistoryDetails]{}, errors.New("history: stream, strategy, max_lines, max_bytes, offset and pattern show one call again: give its id")
		}
		text, records := ts.HistoryText(in.HistoryFilter)
		return result[HistoryDetails]{Text: text, Details: HistoryDetails{Records: records, Sessions: ts.Sessions()}}, nil
	}
	if in.Session != "" || in.Status != "" || in.Limit != 0 {
		return result[HistoryDetails]{}, errors.New("history: session, status and limit filter the listing: leave out id to list")
	}
	r, err := ts.Rerender(spillway.RerenderInput{ID: in.ID, Stream: in.Stream, Strategy: in.Strategy,
		MaxLines: in.MaxLines, MaxBytes: in.MaxBytes, Offset: in.Offset, Pattern: in.Pattern})
	return result[HistoryDetails]{Text: r.Text, Details: HistoryDetails{Shown: &r.Details}, IsError: r.IsError}, err
}

func historyTool(p policy.Policy) Tool {
	out := p.Bash.Stdout
	return Tool{
		Name:  "history",
		Title: "Look back at earlier bash calls",
		Description: "Every bash call of this session is recorded with its full output (the spill files, and small outputs kept whole). " +
			"Without `id`: list the calls, oldest first, with their exit codes, sizes and spill files, and the named bash sessions " +
			"(filter with `session`, `status` ok/failed/running, `limit` for the newest N). " +
			"With `id` (the `history_id` of a bash result): show that call's output again WITHOUT running it, with other limits: " +
			"`strategy` head, tail or head_tail, `max_lines`/`max_bytes`, `offset` for the lines from that one on, or `pattern` " +
			"(RE2) for the matching lines with their numbers; `stream` stdout or stderr for one of them. " +
			fmt.Sprintf("Defaults are bash's: %d lines, %s per stream. ", out.MaxLines, size(out.MaxBytes)) +
			"The oldest calls are forgotten first, their spill files with them. Output past the spill file's cap was not saved, except its end.",
		ReadOnly: true,
		InputSchema: object{Closed: true, Props: []property{
			{"id", integer("History id of a call to show again (history_id in a bash result). Leave it out to list the calls.", 1)},
			{"session", str("List only the calls of this bash session.")},
			{"status", enum("List only calls that exited 0 (`ok`), exited otherwise (`failed`), or still run (`running`).", "ok", "failed", "running")},
			{"limit", integer("List only the newest N calls.", 1)},
			{"stream", enum("Show only `stdout` or `stderr` (default both).", "stdout", "stderr")},
			{"strategy", enum("Which lines to keep when the output does not fit: `head`, `tail` or `head_tail`.", "head", "tail", "head_tail")},
			{"max_lines", integer(fmt.Sprintf("Most lines shown per stream (default %d).", out.MaxLines), 1)},
			{"max_bytes", integer(fmt.Sprintf("Most bytes shown per stream (default %d).", out.MaxBytes), 1)},
			{"offset", integer("Show the lines from this line on (1-based): a line range with max_lines.", 1)},
			{"pattern", str("Show only the lines matching this RE2 regular expression, with their line numbers.")},
		}},
	}
}
