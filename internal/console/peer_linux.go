//go:build linux

package console

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"syscall"

	"github.com/spillway-dev/spillway/internal/proc"
	"golang.org/x/sys/unix"
)

// sessionMark is the variable every command's environment carries
// (internal/proc): a peer that has it was started by a session.
const sessionMark = "SPILLWAY_SESSION_MARK="

// peerPID returns the pid and uid of the process at the other end of c.
func peerPID(c net.Conn) (pid, uid int, err error) {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return 0, 0, errors.New("not a Unix socket")
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return 0, 0, err
	}
	var cred *unix.Ucred
	var cerr error
	if err := raw.Control(func(fd uintptr) {
		cred, cerr = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED)
	}); err != nil {
		return 0, 0, err
	}
	if cerr != nil {
		return 0, 0, cerr
	}
	return int(cred.Pid), int(cred.Uid), nil
}

// checkPeer refuses a peer that is not this user's, or that a spillway
// server started: one of its ancestors is a server with a socket in dir
// (or this process), or its environment carries a session's mark. The
// peer itself may be this process (a console in the same process).
// This is a speed bump: a command running as the user can leave its
// ancestry (a daemon is reparented to init) and clear its environment.
func checkPeer(c net.Conn, dir string) error {
	pid, uid, err := peerPID(c)
	if err != nil {
		return fmt.Errorf("cannot tell who connected: %w", err)
	}
	if uid != os.Geteuid() {
		return fmt.Errorf("peer %d runs as uid %d, not this server's user", pid, uid)
	}
	if pid == os.Getpid() {
		return nil
	}
	if env, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid)); err == nil {
		// Only this server's own sessions' marks count: a mark no
		// session of it made (another server's, or one a test harness
		// sets) says nothing of this server's commands.
		for _, kv := range bytes.Split(env, []byte{0}) {
			if bytes.HasPrefix(kv, []byte(sessionMark)) && proc.IsLiveMark(string(kv)) {
				return fmt.Errorf("peer %d was started by a session of this server (its environment carries the session's mark)", pid)
			}
		}
	}
	seen := map[int]bool{}
	for p := parent(pid); p > 1 && !seen[p]; p = parent(p) {
		seen[p] = true
		if p == os.Getpid() {
			return fmt.Errorf("peer %d descends from this spillway server", pid)
		}
		if isServer(dir, p) {
			return fmt.Errorf("peer %d descends from the spillway server %d", pid, p)
		}
	}
	return nil
}

// parent is the parent pid of pid, 0 when it cannot be read.
func parent(pid int) int {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// pid (comm) state ppid …: comm may hold spaces and parentheses.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 2 {
		return 0
	}
	p, _ := strconv.Atoi(f[1])
	return p
}

// alive reports whether a process pid exists.
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// ownedPrivate checks that fi is this user's with no access for others.
func ownedPrivate(fi os.FileInfo) error {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	if int(st.Uid) != os.Geteuid() {
		return fmt.Errorf("owned by uid %d, not this user", st.Uid)
	}
	if fi.Mode().Perm()&0o077 != 0 {
		return fmt.Errorf("others may enter it (mode %v): chmod 700 it", fi.Mode().Perm())
	}
	return nil
}
