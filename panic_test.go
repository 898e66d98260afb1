//go:build unix

package spillway_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/spillway-dev/spillway"
)

// TestCallPanicIsTheCallsError: a panic inside a call — here in the
// caller's own Asker, which Call runs — is that call's error; the
// toolset answers the next call. Before, it ended the process.
func TestCallPanicIsTheCallsError(t *testing.T) {
	ts := rulesToolset(t, nil, spillway.RulesPolicy{Default: "allow", Ask: []string{"echo *"}})
	ctx := spillway.WithCallInfo(context.Background(), spillway.CallInfo{
		Asker: func(context.Context, string, string, []spillway.RulePart) (string, error) {
			panic("the asker broke")
		},
	})
	_, err := ts.Call(ctx, spillway.ToolCall{Name: "bash", Args: json.RawMessage(`{"command":"echo hi"}`)})
	if err == nil || !strings.Contains(err.Error(), "internal error") || !strings.Contains(err.Error(), "the asker broke") {
		t.Fatalf("a call that panicked: %v", err)
	}
	res, err := ts.Call(context.Background(), spillway.ToolCall{Name: "bash", Args: json.RawMessage(`{"command":"true; echo after"}`)})
	if err != nil || !strings.Contains(res.Text, "after") {
		t.Fatalf("the next call: %v %q", err, res.Text)
	}
}
