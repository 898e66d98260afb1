//go:build unix

package shell

import (
	"context"
	"strings"
	"testing"

	"github.com/spillway-dev/spillway/tool"
)

// A history id or pattern past its limit is refused before it is parsed
// or compiled, with an error that names the limit and does not quote
// the input back whole.
func TestHistoryInputLimits(t *testing.T) {
	sh := testRunner(t, defaultConfig(t), defaultStore())
	id := runOK(t, sh, tool.BashInput{Command: "echo hi"}).Details.HistoryID
	ctx := context.Background()

	for _, diffWith := range []string{strings.Repeat("9", 16<<20), strings.Repeat("1", MaxHistoryIDBytes+1)} {
		_, err := sh.Run(ctx, tool.BashInput{Command: "echo hi", DiffWith: tool.RunRef(diffWith)})
		if err == nil || !strings.Contains(err.Error(), "MaxHistoryIDBytes") || len(err.Error()) > 1000 {
			t.Errorf("diff_with of %d bytes: %.300v", len(diffWith), err)
		}
	}
	// The longest id that fits is parsed: an unknown call, not the limit.
	_, err := sh.Run(ctx, tool.BashInput{Command: "echo hi", DiffWith: tool.RunRef(strings.Repeat("9", 18))})
	if err == nil || strings.Contains(err.Error(), "MaxHistoryIDBytes") {
		t.Errorf("an 18-digit diff_with: %v", err)
	}

	for _, pattern := range []string{strings.Repeat("(", 16<<20), strings.Repeat("a", MaxHistoryPatternBytes+1)} {
		_, err := render(sh, tool.HistoryInput{ID: id, Pattern: pattern})
		if err == nil || !strings.Contains(err.Error(), "MaxHistoryPatternBytes") || len(err.Error()) > 1000 {
			t.Errorf("a history pattern of %d bytes: %.300v", len(pattern), err)
		}
	}
	if r, err := render(sh, tool.HistoryInput{ID: id, Pattern: strings.Repeat("h?", 1000) + "hi"}); err != nil || failed(r) {
		t.Errorf("a pattern within the limit: %v %+v", err, r)
	}
}
