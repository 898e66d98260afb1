package mcpserver

import (
	"log/slog"
	"strings"
	"testing"

	"github.com/spillway-dev/spillway/internal/console"
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

// A stdio session's id is empty, so its tag is the same in every server:
// the console names it by its transport, and an HTTP session by its tag.
func TestConsoleLabelsStdioSession(t *testing.T) {
	hub := console.NewHub(slog.New(slog.DiscardHandler), false)
	for _, s := range []*session{newSession("", Config{Console: hub}), newSession("abc", Config{Console: hub})} {
		defer s.cancel()
	}
	labels := map[string]bool{}
	for _, s := range hub.Snapshot(console.ServerInfo{}, "").Sessions {
		labels[s.Label] = true
	}
	if !labels["over stdio"] || !labels[sessionTag("abc")] || len(labels) != 2 {
		t.Errorf("the console's session labels: %v, want %q and %q", labels, "over stdio", sessionTag("abc"))
	}
}
