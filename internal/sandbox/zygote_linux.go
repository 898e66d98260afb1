//go:build !spillway_portable

package sandbox

import (
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// A session sandbox pays for the namespaces, the mounts, Landlock and the
// seccomp filters once, then starts each command of the session with a
// plain fork and exec. It is one process, made by the server's hub:
//
//   - the hub (runHub), one per server, started by the server in a new
//     user namespace of which it is root: for each session, on a thread of
//     its own, it makes new mount (and network) namespaces, hides what the
//     commands must not see, mounts the file system read-only but for the
//     writable directories, brings up the loopback, and starts
//   - the session's zygote (runZygote), in a nested user namespace where
//     it has the caller's ids and a new PID namespace of which it is the
//     first process: it mounts a /proc of that namespace, confines itself
//     with Landlock and the seccomp filters, and then forks each command
//     the server asks for from inside all of that.
//
// The commands inherit the zygote's confinement whole. As the first
// process of their PID namespace, the zygote cannot be killed by them:
// the kernel delivers it only the signals it handles, and it handles
// every one by ignoring it. When it exits, the kernel kills every process
// of the namespace; it exits when the server closes the socket or when
// the hub's thread that started it ends, which ends with the server.

// failTo returns the failure of a session's helper: it tells the server
// on sock what failed, says it on stderr, and gives the exit status.
func failTo(sock socket) func(format string, a ...any) int {
	return func(format string, a ...any) int {
		msg := fmt.Sprintf(format, a...)
		send(sock, reply{Err: msg})
		return helperFailed("%s", msg)
	}
}

// runZygote confines itself as h says and starts the commands the server
// asks for on h.sockFD until it closes the socket.
func runZygote(h helperArgs) int {
	fail := failTo(rawSocket(h.sockFD))
	// The socket came as descriptor 3, inheritable, and the server may
	// have inherited others: no command may reach any of them.
	if err := unix.CloseRange(3, ^uint(0), unix.CLOSE_RANGE_CLOEXEC); err != nil {
		return fail("cannot keep the zygote's descriptors from the commands: %v", err)
	}
	// The zygote waits for the server in the kernel, on the thread that
	// forks the commands, so that a request wakes that thread alone:
	// through the runtime's poller, another thread woke first, handed the
	// goroutine locked to this one over to it and went back to sleep.
	// The wait costs the runtime nothing once it has begun: with one
	// processor (GOMAXPROCS=1, see residentEnv), its monitor (sysmon)
	// takes the processor from a thread in a system call at its second
	// look, 20-40 µs in, and sleeps until the thread returns; with more,
	// it left it there for 10 ms, polling every 20 µs to 10 ms meanwhile.
	sock := rawSocket(h.sockFD)
	// Commands are forked from this thread: their parent-death signal
	// fires only when the zygote ends.
	runtime.LockOSThread()
	// Every signal is handled, and none ends the zygote (as the first
	// process of its PID namespace, it gets only those it handles, but
	// the Go runtime handles them all). SIGCHLD reaps.
	ignored := make(chan os.Signal, 16)
	signal.Notify(ignored)
	go func() {
		for range ignored {
		}
	}()
	children := make(chan os.Signal, 1)
	signal.Notify(children, syscall.SIGCHLD)
	// A read-only /proc of this PID namespace: the commands see only the
	// session's processes. Where the kernel refuses (a container that
	// hides parts of /proc), the old one stays, made read-only again:
	// its pids are not signalable from here.
	if err := unix.Mount("proc", "/proc", "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC|unix.MS_RDONLY, ""); err != nil {
		ro := &unix.MountAttr{Attr_set: unix.MOUNT_ATTR_RDONLY}
		if err := unix.MountSetattr(unix.AT_FDCWD, "/proc", 0, ro); err != nil {
			return fail("cannot make /proc read-only, so the command was not run: %v", err)
		}
	}
	// Nothing of the session may read this process's memory or
	// descriptors (the pipes of every job pass through it).
	if err := unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0); err != nil {
		return fail("cannot make the zygote undumpable: %v", err)
	}
	if err := confineSelf(h); err != nil {
		return fail("%v", err)
	}
	if err := dropCapabilities(); err != nil {
		return fail("cannot drop the zygote's capabilities: %v", err)
	}
	z := &zygote{status: map[int]*os.File{}}
	go z.reap(children)
	if err := send(sock, reply{}); err != nil {
		return ExitHelperFailed
	}
	for {
		var req startRequest
		files, err := receive(sock, &req)
		if err == io.EOF {
			return 0
		}
		if err != nil {
			return helperFailed("reading a request: %v", err)
		}
		if req.EndIfIdle {
			closeAll(files)
			if z.idle() {
				send(sock, reply{})
				return 0
			}
			send(sock, reply{Busy: true})
			continue
		}
		z.start(sock, req, files)
	}
}

// idle reports whether nothing of the session runs: the zygote, the
// first process of the session's PID namespace, has no child left, its
// commands' orphans included (they are given to it). Only the zygote
// forks into the namespace, so none can appear once it has answered.
func (z *zygote) idle() bool {
	z.mu.Lock()
	defer z.mu.Unlock()
	if len(z.status) > 0 {
		return false
	}
	var info unix.Siginfo
	err := unix.Waitid(unix.P_ALL, 0, &info, unix.WEXITED|unix.WNOHANG|unix.WNOWAIT, nil)
	return err == unix.ECHILD
}

// The zygote's children, and the status pipe of each.
type zygote struct {
	mu     sync.Mutex
	status map[int]*os.File
}

// start forks the command req asks for, answers the server with its
// pidfd, and keeps its status pipe for its end.
//
// The command's files are closed before the answer: the server learns the
// command's pid from it, and from then on a holder of the command's pipes
// is one of its processes to the server, to be signalled with it and
// killed if it outlives the grace. The zygote must not be one.
func (z *zygote) start(sock socket, req startRequest, files []int) {
	if req.Files < 0 || len(files) != req.Files+1 {
		closeAll(files)
		send(sock, reply{Err: fmt.Sprintf("a request with %d descriptors for %d files and the status", len(files), req.Files)})
		return
	}
	fds := make([]uintptr, req.Files)
	for i, fd := range files[:req.Files] {
		fds[i] = uintptr(fd)
	}
	pidfd := -1
	attr := &syscall.ProcAttr{
		Dir:   req.Dir,
		Env:   req.Env,
		Files: fds,
		Sys: &syscall.SysProcAttr{
			Setsid:    req.Setsid,
			Setpgid:   req.Setpgid,
			Pgid:      req.Pgid,
			Setctty:   req.Setctty,
			Noctty:    req.Noctty,
			Ctty:      req.Ctty,
			Pdeathsig: syscall.Signal(req.Pdeathsig),
			PidFD:     &pidfd,
		},
	}
	// The reaper waits until the server has read the pid: a command that
	// exits at once stays a zombie, and so keeps its pid, until then.
	z.mu.Lock()
	defer z.mu.Unlock()
	pid, err := syscall.ForkExec(req.Path, req.Args, attr)
	// Close-on-exec, as every descriptor of the zygote: no command gets
	// another's status pipe.
	status := -1
	if err == nil {
		status, _ = unix.FcntlInt(uintptr(files[req.Files]), unix.F_DUPFD_CLOEXEC, 0)
	}
	closeAll(files)
	if err != nil {
		r := reply{Err: "cannot run " + req.Path}
		if errno, ok := err.(syscall.Errno); ok {
			r.Errno = int(errno)
		} else {
			r.Err += ": " + err.Error()
		}
		send(sock, r)
		return
	}
	if status >= 0 {
		f := os.NewFile(uintptr(status), "status")
		f.Write([]byte{StatusStarted})
		z.status[pid] = f
	}
	send(sock, reply{}, pidfd)
	unix.Close(pidfd)
	var ack [1]byte
	sock.recvmsg(ack[:], nil)
}

// reap reaps the commands and the orphans the namespace gives the
// zygote, and writes each command's wait status on its status pipe.
func (z *zygote) reap(children <-chan os.Signal) {
	for range children {
		z.mu.Lock()
		for {
			var ws syscall.WaitStatus
			pid, err := syscall.Wait4(-1, &ws, syscall.WNOHANG, nil)
			if err == syscall.EINTR {
				continue
			}
			if err != nil || pid <= 0 {
				break
			}
			if f := z.status[pid]; f != nil {
				var b [4]byte
				binary.NativeEndian.PutUint32(b[:], uint32(ws))
				f.Write(b[:])
				f.Close()
				delete(z.status, pid)
			}
		}
		z.mu.Unlock()
	}
}

// dropCapabilities drops, on this thread (the one that forks the
// commands), the capability the zygote mounted with: ambient and
// inheritable, which could survive a command's exec, and unless it is
// root of its user namespace (whose commands are root there, as root's
// are outside) every other one.
func dropCapabilities() error {
	if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil {
		return err
	}
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capget(&hdr, &data[0]); err != nil {
		return err
	}
	for i := range data {
		data[i].Inheritable = 0
		if os.Getuid() != 0 {
			data[i].Effective, data[i].Permitted = 0, 0
		}
	}
	return unix.Capset(&hdr, &data[0])
}
