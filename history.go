package spillway

import (
	"fmt"

	"github.com/spillway-dev/spillway/internal/shell"
)

// The history of a toolset's bash calls.
type (
	// HistoryRecord is one recorded bash call.
	HistoryRecord = shell.Record
	// HistoryFilter selects records for a listing.
	HistoryFilter = shell.HistoryFilter
	// RerenderInput asks for a recorded call's output again.
	RerenderInput = shell.RenderInput
	// RerenderResult is a recorded call's output shown again.
	RerenderResult = shell.RenderResult
	// RerenderDetails are the details of a call shown again.
	RerenderDetails = shell.RenderDetails
)

// History lists the recorded bash calls that pass f, oldest first. Every
// command a bash call starts is recorded, with the paths of its spill
// files; the oldest records are forgotten first (200 are kept), their
// spill files with them.
func (t *Toolset) History(f HistoryFilter) []HistoryRecord { return t.shell.History(f) }

// Rerender shows the output of a recorded bash call again, with other
// limits, another strategy, a line range or a pattern, without running
// anything.
func (t *Toolset) Rerender(in RerenderInput) (RerenderResult, error) {
	res, err := t.shell.Render(in)
	if err != nil {
		return RerenderResult{}, fmt.Errorf("history: %w", err)
	}
	return res, nil
}

// HistoryDetails are the details of the history tool: a listing's Records
// and Sessions, or the call Shown again.
type HistoryDetails struct {
	Records  []HistoryRecord  `json:"records,omitempty"`
	Sessions []SessionInfo    `json:"sessions,omitempty"`
	Shown    *RerenderDetails `json:"shown,omitempty"`
	// Tokens is the estimate of the tokens of the result's text, as the
	// model reads it (output.EstimateTokens; it errs high).
	Tokens int `json:"tokens"`
}

// HistoryText renders a listing of the history that passes f, and the
// named sessions, as the history tool shows it.
func (t *Toolset) HistoryText(f HistoryFilter) (string, []HistoryRecord) {
	records := t.History(f)
	return shell.ListText(records, t.Sessions()), records
}
