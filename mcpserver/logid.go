package mcpserver

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"log/slog"
	"sync"
)

// logKey keys the session tags of this process. It is made when the
// first session is tagged: a CLI call that serves none spares the read
// from the system's random source.
var logKey = sync.OnceValue(func() []byte {
	k := make([]byte, 32)
	rand.Read(k)
	return k
})

// sessionTag names a session in the logs: the first 8 hex digits of an
// HMAC-SHA256 of its id under a key made at start. A session id is a
// credential — whoever has it can drive the session (its jobs, its
// history) — and logs are read by more than the server's user (a log
// file, a command that finds it), so the id itself is never logged. The
// tag still follows one session through the log, and cannot be turned
// back into its id, nor matched with another process's logs.
func sessionTag(id string) string {
	m := hmac.New(sha256.New, logKey())
	m.Write([]byte(id))
	return hex.EncodeToString(m.Sum(nil)[:4])
}

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
