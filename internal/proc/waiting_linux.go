package proc

import (
	"bytes"
	"encoding/binary"
	"os"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// On Linux, /proc tells what a sleeping process waits for:
// /proc/PID/syscall names the system call it is blocked in and its
// arguments. read(2) names the descriptor; select(2) and poll(2) point to
// the descriptor sets in its memory, read through /proc/PID/mem; an epoll
// instance lists the descriptors it watches in /proc/PID/fdinfo. So a
// process is known to wait for the job's input only when the descriptor
// it reads, or watches for reading, is that input. Where /proc/PID/syscall
// cannot be read (ptrace restrictions), the wait channel (/proc/PID/wchan)
// is the fallback: a pipe or terminal read, or a poll, by a process that
// holds the input.

// Blocking system calls that read one descriptor, their first argument.
var readCalls = map[int]bool{
	unix.SYS_READ: true, unix.SYS_READV: true, unix.SYS_PREAD64: true,
	unix.SYS_PREADV: true, unix.SYS_PREADV2: true,
}

// blockedOnInput reports whether a process of group pgid is asleep
// waiting to read the input that its descriptors name link.
func blockedOnInput(pgid int, link string) bool {
	if link == "" {
		return false
	}
	for _, pid := range freshSnapshot(0).members(pgid) {
		st, ok := readStat(pid)
		if ok && st.pgrp == pgid && st.state == 'S' && readsInput(pid, link) {
			return true
		}
	}
	return false
}

// readsInput reports whether pid is blocked in a system call that waits
// to read link.
func readsInput(pid int, link string) bool {
	p := procDir{"/proc/" + strconv.Itoa(pid)}
	b, err := os.ReadFile(p.dir + "/syscall")
	if err != nil {
		return p.waitsByWchan(link)
	}
	// "NR ARG1 … ARG6 SP PC" while blocked; "running", or "-1 SP PC".
	f := strings.Fields(string(b))
	if len(f) < 7 {
		return false
	}
	nr, err := strconv.Atoi(f[0])
	if err != nil {
		return false
	}
	var arg [6]uint64
	for i := range arg {
		arg[i], _ = strconv.ParseUint(strings.TrimPrefix(f[i+1], "0x"), 16, 64)
	}
	switch {
	case readCalls[nr]:
		return p.fdIs(int(arg[0]), link)
	case nr == unix.SYS_PSELECT6 || selectCall(nr):
		return p.selectReads(int(arg[0]), arg[1], link)
	case nr == unix.SYS_PPOLL || pollCall(nr):
		return p.pollReads(arg[0], int(arg[1]), link)
	case nr == unix.SYS_EPOLL_PWAIT || nr == unix.SYS_EPOLL_PWAIT2 || epollCall(nr):
		return p.epollReads(int(arg[0]), link)
	}
	return false
}

// procDir is /proc/PID of one process.
type procDir struct{ dir string }

// fdIs reports whether descriptor fd of the process is link. A
// descriptor opened as /dev/tty is the process's controlling terminal,
// which for a process of a terminal job's group is the job's terminal:
// sudo, ssh and getpass read their password from it.
func (p procDir) fdIs(fd int, link string) bool {
	l, err := os.Readlink(p.dir + "/fd/" + strconv.Itoa(fd))
	return err == nil && (l == link || l == "/dev/tty" && strings.HasPrefix(link, "/dev/pts/"))
}

// inputFDs returns the descriptors of the process that are link.
func (p procDir) inputFDs(link string) []int {
	d, err := os.Open(p.dir + "/fd")
	if err != nil {
		return nil
	}
	names, _ := d.Readdirnames(-1)
	d.Close()
	var fds []int
	for _, n := range names {
		fd, err := strconv.Atoi(n)
		if err == nil && p.fdIs(fd, link) {
			fds = append(fds, fd)
		}
	}
	return fds
}

// mem reads n bytes of the process's memory at addr.
func (p procDir) mem(addr uint64, n int) ([]byte, bool) {
	if addr == 0 || n <= 0 || n > 1<<16 {
		return nil, false
	}
	f, err := os.Open(p.dir + "/mem")
	if err != nil {
		return nil, false
	}
	defer f.Close()
	b := make([]byte, n)
	if _, err := f.ReadAt(b, int64(addr)); err != nil {
		return nil, false
	}
	return b, true
}

// selectReads: select(nfds, readfds, …) watches link for reading.
func (p procDir) selectReads(nfds int, readfds uint64, link string) bool {
	fds := p.inputFDs(link)
	set, ok := p.mem(readfds, (nfds+63)/64*8)
	for _, fd := range fds {
		if fd >= nfds {
			continue
		}
		if !ok { // the set cannot be read: the descriptor is in range
			return true
		}
		if set[fd/8]&(1<<(fd%8)) != 0 { // fd_set is a little-endian bit array
			return true
		}
	}
	return false
}

// pollReads: poll(fds, nfds, …) waits for link to be readable.
func (p procDir) pollReads(addr uint64, nfds int, link string) bool {
	fds := p.inputFDs(link)
	if len(fds) == 0 {
		return false
	}
	b, ok := p.mem(addr, nfds*8) // struct pollfd { int fd; short events, revents; }
	if !ok {
		return true
	}
	for i := 0; i+8 <= len(b); i += 8 {
		fd := int(int32(binary.NativeEndian.Uint32(b[i:])))
		events := binary.NativeEndian.Uint16(b[i+4:])
		if events&unix.POLLIN != 0 && slices.Contains(fds, fd) {
			return true
		}
	}
	return false
}

// epollReads: the epoll instance epfd watches link for reading. Its
// fdinfo lists "tfd: FD events: HEX …" for each watched descriptor.
func (p procDir) epollReads(epfd int, link string) bool {
	fds := p.inputFDs(link)
	if len(fds) == 0 {
		return false
	}
	b, err := os.ReadFile(p.dir + "/fdinfo/" + strconv.Itoa(epfd))
	if err != nil {
		return true
	}
	for _, line := range bytes.Split(b, []byte("\n")) {
		f := strings.Fields(string(line))
		if len(f) < 4 || f[0] != "tfd:" || f[2] != "events:" {
			continue
		}
		fd, err1 := strconv.Atoi(f[1])
		ev, err2 := strconv.ParseUint(f[3], 16, 32)
		if err1 == nil && err2 == nil && ev&unix.EPOLLIN != 0 && slices.Contains(fds, fd) {
			return true
		}
	}
	return false
}

// waitsByWchan is the fallback when the system call cannot be read: the
// process sleeps in a pipe or terminal read, or a poll, and holds link.
func (p procDir) waitsByWchan(link string) bool {
	b, err := os.ReadFile(p.dir + "/wchan")
	if err != nil {
		return false
	}
	w := string(b)
	for _, s := range []string{"pipe_read", "pipe_wait", "n_tty_read", "wait_woken", "poll_schedule_timeout", "do_select", "do_sys_poll", "ep_poll", "do_epoll_wait"} {
		if strings.Contains(w, s) {
			return len(p.inputFDs(link)) > 0
		}
	}
	return false
}

// fionread is the ioctl that counts the bytes waiting to be read.
const fionread = unix.TIOCINQ
