package mcpserver

import (
	"context"
	"log/slog"
)

// sdkLogger returns the logger handed to the SDK: only its warnings and
// errors, since it logs every session's connection at info level, and
// session ids replaced with their tags (sessionTag, the audit log's name).
func sdkLogger(l *slog.Logger) *slog.Logger {
	return slog.New(tagSessions{minLevel{l.Handler(), slog.LevelWarn}})
}

// minLevel drops the records of a handler below a level.
type minLevel struct {
	slog.Handler
	min slog.Level
}

func (h minLevel) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= h.min && h.Handler.Enabled(ctx, l)
}

func (h minLevel) WithAttrs(as []slog.Attr) slog.Handler {
	return minLevel{h.Handler.WithAttrs(as), h.min}
}

func (h minLevel) WithGroup(name string) slog.Handler {
	return minLevel{h.Handler.WithGroup(name), h.min}
}
