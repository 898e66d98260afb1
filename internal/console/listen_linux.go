package console

import (
	"crypto/rand"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
)

// listenIn listens on an abstract address and names it in PID.addr.
//
// A socket in the file system can be reached by any process of this
// user that can walk to it: without the sandbox's namespaces, a command
// started by a server could connect, and the peer check is a speed bump
// (a daemon that left its ancestry and cleared its environment passes
// it). An abstract socket is one Landlock can close: a sandboxed command
// is scoped (LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET) and cannot connect to
// an abstract socket made outside its sandbox, while the person's
// console, outside any sandbox, can. Abstract sockets have no
// permissions, so the peer check's uid test is what keeps other users
// out; the random part keeps another server from taking the name first.
func listenIn(dir string) (net.Listener, string, string, error) {
	addr := fmt.Sprintf("%s%d-%d-%s", abstractPrefix, os.Geteuid(), os.Getpid(), rand.Text()[:16])
	ln, err := net.Listen("unix", addr)
	if err != nil {
		return nil, "", "", fmt.Errorf("cannot listen for the console: %w", err)
	}
	file := filepath.Join(dir, strconv.Itoa(os.Getpid())+addrSuffix)
	tmp := file + ".tmp"
	if err := os.WriteFile(tmp, []byte(addr), 0o600); err != nil {
		ln.Close()
		return nil, "", "", fmt.Errorf("cannot name the console's address in %s: %w", dir, err)
	}
	// Renamed into place: a console never reads half an address.
	if err := os.Rename(tmp, file); err != nil {
		os.Remove(tmp)
		ln.Close()
		return nil, "", "", fmt.Errorf("cannot name the console's address in %s: %w", dir, err)
	}
	return ln, addr, file, nil
}
