//lint:file-ignore SA1019 client roots set the cwd when no --root is given; the clients of protocol versions before 2026-07-28 still send them

package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// rootsLastVersion is the first protocol version in which a server may
// not send roots/list itself.
const rootsLastVersion = "2026-07-28"

// rootsTimeout bounds the wait for a client's answer to roots/list.
const rootsTimeout = 5 * time.Second

// errNoRoots is the error of a call under --root roots whose client
// offers no root: nothing would confine it.
var errNoRoots = errors.New("the server confines every session to the client's roots (--root roots), " +
	"but this client offers none: configure a workspace root in the client, or start the server with --root DIR")

// clientRoot returns the first root the client of ss offers, as a local
// directory, or "" when it offers none (no roots capability, an empty
// list, no answer in time, or no root that is a local directory).
func clientRoot(ctx context.Context, ss *mcp.ServerSession) (string, error) {
	if ss == nil {
		return "", nil
	}
	init := ss.InitializeParams()
	if init == nil || init.Capabilities == nil || init.Capabilities.RootsV2 == nil {
		return "", nil
	}
	if init.ProtocolVersion >= rootsLastVersion {
		// Roots are deprecated from 2026-07-28 on, and a server may no
		// longer ask for them with a request of its own (only through a
		// call's result, SEP-2322, which spillway does not do).
		return "", nil
	}
	ctx, cancel := context.WithTimeout(ctx, rootsTimeout)
	defer cancel()
	res, err := ss.ListRoots(ctx, nil)
	if err != nil {
		return "", fmt.Errorf("asking the client for its roots: %w", err)
	}
	for _, r := range res.Roots {
		if dir, ok := rootDir(r.URI); ok {
			return dir, nil
		}
	}
	return "", nil
}

// rootDir returns the local directory a root's file:// URI names.
func rootDir(uri string) (string, bool) {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" || (u.Host != "" && u.Host != "localhost") || u.Path == "" {
		return "", false
	}
	fi, err := os.Stat(u.Path)
	if err != nil || !fi.IsDir() {
		return "", false
	}
	return u.Path, true
}

// rootsFirstCallWait bounds how long a session's first call waits for the
// roots asked for when the session began, when the server does not
// confine sessions to them (--root roots waits rootsTimeout): a client
// that answers does so in milliseconds, and one that never answers
// (Claude Code over HTTP does not) then costs the first call this, not
// rootsTimeout.
const rootsFirstCallWait = time.Second

// A rootsAnswer is a client's roots, asked for when its session began.
type rootsAnswer struct {
	done chan struct{} // closed when dir and err are set
	dir  string
	err  error
}

// pendingRoots asks the client of ss for its roots in the background, outside
// any call. Over Streamable HTTP a request made inside a call goes on that
// call's response stream, where some clients never answer it (the Go
// SDK's client does not, nor Claude Code); one made outside goes on the
// session's own stream, and the first call then finds the answer waiting.
// (The Go SDK's client sends its answer only between its own requests: a
// first call that overtakes the question still waits rootsFirstCallWait.)
func pendingRoots(ss *mcp.ServerSession) *rootsAnswer {
	a := &rootsAnswer{done: make(chan struct{})}
	go func() {
		defer close(a.done)
		a.dir, a.err = clientRoot(context.Background(), ss)
	}()
	return a
}

// wait returns the answer, or an error once max has passed or ctx is done.
func (a *rootsAnswer) wait(ctx context.Context, max time.Duration) (string, error) {
	t := time.NewTimer(max)
	defer t.Stop()
	select {
	case <-a.done:
		return a.dir, a.err
	case <-t.C:
		return "", fmt.Errorf("asking the client for its roots: no answer in %v", max)
	case <-ctx.Done():
		return "", ctx.Err()
	}
}
