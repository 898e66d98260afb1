//go:build !spillway_portable

package sandbox

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"strconv"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/spillway-dev/spillway/internal/proc"
)

// The hub makes every session sandbox of a server. Without it, each
// session started a process of its own to make its namespaces and mounts
// (a second start of the Go runtime, and a fork of the whole server: the
// user namespace it is made in rules out vfork, and every page the server
// wrote afterwards was copied or at least faulted again). The hub is
// forked once, while it is small, and makes each session's namespaces on
// a thread of its own: a thread may enter new mount and network
// namespaces (unshare(2)) where only a process with one thread may enter
// a new user namespace, which the hub has from its start.
//
// The server and the hub speak over a Unix stream socket, as the server
// and a zygote do (send, receive): the server sends hubRequests, each
// start with the session's socket as its descriptor; the hub sends a
// hubEvent when a session's zygote has ended, or could not start (then
// the session's socket has the error already).

// A hubRequest asks the hub to start the zygote of a session sandbox with
// Args (the flags of a session, as parseHelperArgs reads them), or to
// kill one.
type hubRequest struct {
	ID   uint64
	Args []string `json:",omitempty"`
	Kill bool     `json:",omitempty"`
}

// A hubEvent says that the zygote of session sandbox ID has ended.
type hubEvent struct {
	ID    uint64
	Ended bool
}

// runHub is the hub: it starts and kills session sandboxes as the server
// on h.sockFD asks, until the server closes the socket. It is root of its
// user namespace and confines nothing itself; each zygote it starts
// confines itself before it answers the session.
func runHub(h helperArgs) int {
	// The socket came as descriptor 3, inheritable: no zygote may get it.
	if err := unix.CloseRange(3, ^uint(0), unix.CLOSE_RANGE_CLOEXEC); err != nil {
		return helperFailed("cannot keep the hub's descriptors from the sandboxes: %v", err)
	}
	// Signals for the server's process group are not for the hub, whose
	// end kills every sandbox (it is in a session of its own anyway).
	signal.Ignore(syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP, syscall.SIGQUIT)
	sock, err := newConn(h.sockFD)
	if err != nil {
		return helperFailed("the hub's socket: %v", err)
	}
	hb := &hubSide{sock: sock, zygotes: map[uint64]*os.Process{}, pending: map[uint64]bool{}, killed: map[uint64]bool{}}
	for {
		var req hubRequest
		files, err := receive(hb.sock, &req)
		if err == io.EOF {
			// The server is gone: so are the sandboxes, each with the
			// thread that started it.
			return 0
		}
		if err != nil {
			return helperFailed("the hub reading a request: %v", err)
		}
		if req.Kill {
			closeAll(files)
			hb.kill(req.ID)
			continue
		}
		if len(files) != 1 {
			closeAll(files)
			hb.ended(req.ID)
			continue
		}
		hb.mu.Lock()
		hb.pending[req.ID] = true
		hb.mu.Unlock()
		go hb.startSession(req, files[0])
	}
}

// hubSide is the hub's state: the zygotes it started, by the server's id.
type hubSide struct {
	sock   *conn
	sendMu sync.Mutex // one message at a time on sock

	mu      sync.Mutex
	zygotes map[uint64]*os.Process
	pending map[uint64]bool // being started
	killed  map[uint64]bool // killed while being started
}

// kill kills the zygote of session sandbox id, and with it everything of
// the sandbox; one being started is killed once it is.
func (hb *hubSide) kill(id uint64) {
	hb.mu.Lock()
	defer hb.mu.Unlock()
	if z := hb.zygotes[id]; z != nil {
		z.Kill()
	} else if hb.pending[id] {
		hb.killed[id] = true
	}
}

// ended tells the server that session sandbox id has ended.
func (hb *hubSide) ended(id uint64) {
	hb.sendMu.Lock()
	defer hb.sendMu.Unlock()
	send(hb.sock, hubEvent{ID: id, Ended: true})
}

// startSession makes, on this thread, the namespaces and mounts of the
// session sandbox req asks for, starts its zygote there (which answers
// the server on sock, the session's socket) and waits for it to end. The
// thread stays locked to it: its namespaces are the session's, and the
// zygote's parent-death signal fires when the thread that forked it ends.
// The thread ends with the goroutine.
func (hb *hubSide) startSession(req hubRequest, sock int) {
	runtime.LockOSThread()
	defer hb.ended(req.ID)
	defer func() {
		hb.mu.Lock()
		delete(hb.pending, req.ID)
		delete(hb.killed, req.ID)
		delete(hb.zygotes, req.ID)
		hb.mu.Unlock()
	}()
	sockFile := os.NewFile(uintptr(sock), "sock")
	defer sockFile.Close()
	fail := failTo(rawSocket(sock))
	h, err := parseHelperArgs(req.Args)
	if err != nil || !h.session {
		fail("the hub got a session it cannot read (%v)", err)
		return
	}
	// New mount and network namespaces for this thread alone, owned by the
	// hub's user namespace.
	flags := unix.CLONE_NEWNS | unix.CLONE_FS
	if h.net {
		flags |= unix.CLONE_NEWNET
	}
	if err := unix.Unshare(flags); err != nil {
		fail("cannot make the session's namespaces, so the command was not run: %v", err)
		return
	}
	if _, err := mountView(h); err != nil {
		fail("%v", err)
		return
	}
	// The hub writes the id maps of the zygote's user namespace in /proc;
	// the zygote covers it with a read-only /proc of its own.
	rw := &unix.MountAttr{Attr_clr: unix.MOUNT_ATTR_RDONLY}
	if err := unix.MountSetattr(unix.AT_FDCWD, "/proc", 0, rw); err != nil {
		fail("cannot set up /proc, so the command was not run: %v", err)
		return
	}
	if h.net {
		if err := loopbackUp(); err != nil {
			fail("cannot bring up the loopback, so the command was not run: %v", err)
			return
		}
	}
	args := h.landlockFlags([]string{"spillway", HelperArg, "-zygote"})
	if h.seccomp {
		args = append(args, "-seccomp")
	}
	if h.nproc > 0 {
		// The zygote sets it before anything else, and every command
		// inherits it.
		args = append(args, "-nproc", strconv.FormatUint(h.nproc, 10))
	}
	args = append(args, "-sock-fd", "3", "--")
	uids, gids, setgroups := idMaps(0, 0, h.uid, h.gid)
	null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		fail("%v", err)
		return
	}
	defer null.Close()
	hb.mu.Lock()
	killed := hb.killed[req.ID]
	hb.mu.Unlock()
	if killed {
		fail("the session sandbox was ended while it started")
		return
	}
	zygote, err := os.StartProcess("/proc/self/exe", args, &os.ProcAttr{
		Dir:   "/",
		Env:   residentEnv(),
		Files: []*os.File{null, null, os.Stderr, sockFile},
		Sys: &syscall.SysProcAttr{
			Cloneflags:                 syscall.CLONE_NEWUSER | syscall.CLONE_NEWPID | syscall.CLONE_NEWNS,
			UidMappings:                uids,
			GidMappings:                gids,
			GidMappingsEnableSetgroups: setgroups,
			// To mount the /proc of its PID namespace, which it owns,
			// as the caller's uid; it drops it before any command.
			AmbientCaps: []uintptr{unix.CAP_SYS_ADMIN},
			Pdeathsig:   syscall.SIGKILL,
		},
	})
	if err != nil {
		fail("cannot start the sandbox's zygote: %v", err)
		return
	}
	sockFile.Close() // the zygote answers from now on
	hb.mu.Lock()
	delete(hb.pending, req.ID)
	hb.zygotes[req.ID] = zygote
	if hb.killed[req.ID] {
		zygote.Kill()
	}
	hb.mu.Unlock()
	zygote.Wait()
}

// The server's end of its hub: started with the first session sandbox,
// and again after it ended (idle, or killed).
var theHub struct {
	sync.Mutex
	h *hub
}

// A hub is the server's end of the hub process.
type hub struct {
	pid    int
	sock   *conn      // nil once the hub has ended
	sendMu sync.Mutex // one request at a time on sock

	mu     sync.Mutex
	next   uint64
	ends   map[uint64]chan struct{} // closed once that sandbox has ended
	closed bool                     // the hub has ended: so has every sandbox
	idle   *time.Timer              // ends it hubIdleEnd after its last sandbox
}

// hubIdleEnd is how long the hub lives on once its last session sandbox
// has ended: a server with no sandbox then holds no process for them
// (besides its watcher), and a next one, after a pause as long, pays a
// new hub's start. A variable for the tests.
var hubIdleEnd = 5 * time.Second

// errHubEnded is the error of a sandbox asked of a hub that has just
// ended idle: a new hub may be asked.
var errHubEnded = errors.New("sandbox: the sandbox hub has ended")

// hubFor returns the server's running hub, starting one when there is
// none.
func hubFor() (*hub, error) {
	theHub.Lock()
	defer theHub.Unlock()
	if h := theHub.h; h != nil {
		h.mu.Lock()
		closed := h.closed
		h.mu.Unlock()
		if !closed {
			return h, nil
		}
	}
	h, err := startHub()
	if err != nil {
		return nil, err
	}
	theHub.h = h
	return h, nil
}

// startHub starts the hub process, root of a new user namespace (the
// caller's ids mapped to 0, as for the single command's init).
func startHub() (*hub, error) {
	pair, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	theirs := os.NewFile(uintptr(pair[1]), "sandbox-hub")
	cmd := exec.Command("/proc/self/exe")
	cmd.Args = []string{"spillway", HelperArg, "-hub", "-sock-fd", "3", "--"}
	cmd.Env = residentEnv()
	cmd.Dir = "/"
	cmd.ExtraFiles = []*os.File{theirs}
	cmd.Stderr = os.Stderr
	uids, gids, setgroups := idMaps(os.Getuid(), os.Getgid(), 0, 0)
	cmd.SysProcAttr = &syscall.SysProcAttr{
		Setsid:                     true,
		Pdeathsig:                  syscall.SIGKILL,
		Cloneflags:                 syscall.CLONE_NEWUSER,
		UidMappings:                uids,
		GidMappings:                gids,
		GidMappingsEnableSetgroups: setgroups,
	}
	err = proc.StartLocked(cmd) // its parent-death signal: see StartLocked
	theirs.Close()
	if err != nil {
		unix.Close(pair[0])
		return nil, fmt.Errorf("sandbox: cannot start the sandbox hub: %w", err)
	}
	sock, err := newConn(pair[0])
	if err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	h := &hub{pid: cmd.Process.Pid, sock: sock, ends: map[uint64]chan struct{}{}}
	go h.listen(cmd)
	return h, nil
}

// listen reads the hub's events until it ends, then ends every sandbox
// it had started (they die with it) and reaps it.
func (h *hub) listen(cmd *exec.Cmd) {
	for {
		var ev hubEvent
		files, err := receive(h.sock, &ev)
		closeAll(files)
		if err != nil {
			break
		}
		if ev.Ended {
			h.mu.Lock()
			if end := h.ends[ev.ID]; end != nil {
				close(end)
				delete(h.ends, ev.ID)
			}
			if len(h.ends) == 0 {
				if h.idle == nil {
					h.idle = time.AfterFunc(hubIdleEnd, h.endIfIdle)
				} else {
					h.idle.Reset(hubIdleEnd)
				}
			}
			h.mu.Unlock()
		}
	}
	h.mu.Lock()
	h.closed = true
	for id, end := range h.ends {
		close(end)
		delete(h.ends, id)
	}
	h.mu.Unlock()
	cmd.Process.Kill()
	cmd.Wait()
	h.sendMu.Lock()
	h.sock.Close()
	h.sock = nil
	h.sendMu.Unlock()
}

// endIfIdle ends the hub when no session sandbox is left. Under the lock
// that hubFor takes, so that no sandbox is asked of a hub that is ending:
// the next one starts a new hub. The hub sees its socket's end and exits,
// and listen reaps it.
func (h *hub) endIfIdle() {
	theHub.Lock()
	defer theHub.Unlock()
	h.mu.Lock()
	if h.closed || len(h.ends) > 0 {
		h.mu.Unlock()
		return
	}
	h.closed = true
	h.mu.Unlock()
	if theHub.h == h {
		theHub.h = nil
	}
	h.sendMu.Lock()
	defer h.sendMu.Unlock()
	if h.sock != nil {
		h.sock.rc.Control(func(fd uintptr) { unix.Shutdown(int(fd), unix.SHUT_WR) })
	}
}

// start asks the hub for a session sandbox made as args say, whose zygote
// answers on sock. It returns the sandbox's id and a channel closed once
// it has ended.
func (h *hub) start(args []string, sock int) (uint64, <-chan struct{}, error) {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return 0, nil, errHubEnded
	}
	h.next++
	id := h.next
	end := make(chan struct{})
	h.ends[id] = end
	h.mu.Unlock()
	if err := h.send(hubRequest{ID: id, Args: args}, sock); err != nil {
		h.mu.Lock()
		if h.ends[id] == end {
			close(end)
			delete(h.ends, id)
		}
		h.mu.Unlock()
		return 0, nil, fmt.Errorf("sandbox: cannot reach the sandbox hub: %w", err)
	}
	return id, end, nil
}

// kill asks the hub to kill session sandbox id.
func (h *hub) kill(id uint64) { h.send(hubRequest{ID: id, Kill: true}) }

func (h *hub) send(req hubRequest, files ...int) error {
	h.sendMu.Lock()
	defer h.sendMu.Unlock()
	if h.sock == nil {
		return errors.New("the sandbox hub has ended")
	}
	return send(h.sock, req, files...)
}
