package mcpserver

import (
	"log/slog"
	"strings"
	"testing"

	"github.com/spillway-dev/spillway/internal/ops"
)

// The SDK's session_id attributes reach the log as tags.
func TestSDKLoggerTagsSessionIDs(t *testing.T) {
	var b strings.Builder
	l := sdkLogger(slog.New(slog.NewTextHandler(&b, nil)))
	const id = "RAWSESSIONID0123456789"
	l.Warn("one", "session_id", id)
	l.With("session_id", id).Error("two")
	l.Info("three", "session_id", id) // below the SDK's level: dropped
	out := b.String()
	if strings.Contains(out, id) || strings.Count(out, "session="+sessionTag(id)) != 2 {
		t.Errorf("log:\n%s", out)
	}
	// The log names a session as the audit log does.
	if sessionTag(id) != ops.SessionHash(id) || len(sessionTag(id)) != 12 {
		t.Errorf("the log's tag %q, the audit log's %q", sessionTag(id), ops.SessionHash(id))
	}
}
