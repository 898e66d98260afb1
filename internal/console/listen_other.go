//go:build !linux

package console

import "net"

// listenIn listens on a socket in dir: only Linux has abstract sockets.
func listenIn(dir string) (net.Listener, string, string, error) {
	return listenPath(dir)
}
