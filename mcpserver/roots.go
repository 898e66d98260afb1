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
