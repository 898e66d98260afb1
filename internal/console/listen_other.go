//go:build !linux

package console

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
)

// maxSocketPath is the longest path a Unix socket can be bound at
// (sun_path is 108 bytes on Linux, 104 on macOS).
const maxSocketPath = 103

// listenIn listens on a socket in dir: only Linux has abstract sockets.
func listenIn(dir string) (net.Listener, string, string, error) {
	return listenPath(dir)
}

// socketPath is where the server of pid listens.
func socketPath(dir string, pid int) string {
	return filepath.Join(dir, strconv.Itoa(pid)+sockSuffix)
}

// listenPath listens on a socket at PID.sock in dir, private to this
// user.
func listenPath(dir string) (net.Listener, string, string, error) {
	path := socketPath(dir, os.Getpid())
	if len(path) > maxSocketPath {
		return nil, "", "", fmt.Errorf("the console's socket path %s is longer than a socket's %d bytes: set XDG_RUNTIME_DIR to a shorter directory", path, maxSocketPath)
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, "", "", fmt.Errorf("cannot replace the stale console socket %s: %w", path, err)
	}
	ln, err := net.Listen("unix", path)
	if err != nil {
		return nil, "", "", fmt.Errorf("cannot listen for the console: %w", err)
	}
	// The directory is the access check; the socket is private too.
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return nil, "", "", err
	}
	return ln, path, path, nil
}
