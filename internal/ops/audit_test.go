package ops

import (
	"bytes"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"
)

// Lines written at once from many calls stay whole lines; a long command
// is cut; the session is its hash.
func TestAuditLines(t *testing.T) {
	var buf bytes.Buffer
	a := NewAudit(&buf)
	var wg sync.WaitGroup
	for range 50 {
		wg.Go(func() {
			a.Write(Call{Start: time.Now(), Session: "the-session-id", Tool: "bash", Command: strings.Repeat("x", 10000)})
		})
	}
	wg.Wait()
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != 50 {
		t.Fatalf("%d lines, want 50", len(lines))
	}
	for _, l := range lines {
		var v map[string]any
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		if v["session"] != SessionHash("the-session-id") || len(v["command"].(string)) > maxCommandBytes+len("…") {
			t.Errorf("line %.200s", l)
		}
		if strings.Contains(l, "the-session-id") {
			t.Errorf("the line holds the session id: %.200s", l)
		}
	}
}
