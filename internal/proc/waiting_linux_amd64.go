package proc

import "golang.org/x/sys/unix"

// The older forms of select, poll and epoll_wait that amd64 still has.
func selectCall(nr int) bool { return nr == unix.SYS_SELECT }
func pollCall(nr int) bool   { return nr == unix.SYS_POLL }
func epollCall(nr int) bool  { return nr == unix.SYS_EPOLL_WAIT }
