package mcpserver

import (
	"context"
	"log/slog"

	"github.com/spillway-dev/spillway/internal/ops"
)

// sessionTag names a session in the logs, as the audit log names it
// (ops.SessionHash): a session id is a credential, so the id itself is
// never logged, and one name in both lets an operator follow a session
// from the log to the audit log, and across restarts and nodes.
func sessionTag(id string) string { return ops.SessionHash(id) }

// sdkSessionKey is the attribute under which the SDK logs a session id.
const sdkSessionKey = "session_id"

// tagSessions is a log handler that replaces the session ids the SDK logs
// with their tags.
type tagSessions struct{ slog.Handler }

func (h tagSessions) Handle(ctx context.Context, r slog.Record) error {
	found := false
	r.Attrs(func(a slog.Attr) bool {
		found = a.Key == sdkSessionKey
		return !found
	})
	if !found {
		return h.Handler.Handle(ctx, r)
	}
	out := slog.NewRecord(r.Time, r.Level, r.Message, r.PC)
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == sdkSessionKey {
			a = slog.String("session", sessionTag(a.Value.String()))
		}
		out.AddAttrs(a)
		return true
	})
	return h.Handler.Handle(ctx, out)
}

func (h tagSessions) WithAttrs(as []slog.Attr) slog.Handler {
	out := make([]slog.Attr, len(as))
	for i, a := range as {
		if a.Key == sdkSessionKey {
			a = slog.String("session", sessionTag(a.Value.String()))
		}
		out[i] = a
	}
	return tagSessions{h.Handler.WithAttrs(out)}
}

func (h tagSessions) WithGroup(name string) slog.Handler {
	return tagSessions{h.Handler.WithGroup(name)}
}
