package spillway_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/spillway-dev/spillway"
)

// With FormatJSON every tool's text is the JSON envelope, the job and
// history tools too: they go through the same finish as the others.
func TestFormatJSONHoldsForEveryTool(t *testing.T) {
	ts := bashToolset(t, spillway.Options{Format: spillway.FormatJSON})
	ctx := context.Background()
	first := bashRun(t, ts, spillway.BashInput{Command: "echo hi"})
	for _, c := range []spillway.ToolCall{
		{Name: "bash", Args: json.RawMessage(`{"command":"echo hi"}`)},
		{Name: "jobs"},
		{Name: "history"},
		{Name: "history", Args: json.RawMessage(`{"id":` + itoa(first.Details.HistoryID) + `}`)},
		{Name: "ls", Args: json.RawMessage(`{"path":"."}`)},
	} {
		r, err := ts.Call(ctx, c)
		if err != nil {
			t.Fatalf("%s %s: %v", c.Name, c.Args, err)
		}
		var env struct {
			OK   *bool           `json:"ok"`
			Data json.RawMessage `json:"data"`
		}
		if err := json.Unmarshal([]byte(r.Text), &env); err != nil || env.OK == nil || !*env.OK || len(env.Data) == 0 {
			t.Errorf("%s %s: the text is not the JSON envelope (%v):\n%s", c.Name, c.Args, err, r.Text)
		}
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }
