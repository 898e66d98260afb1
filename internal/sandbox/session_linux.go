//go:build !spillway_portable

package sandbox

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"
)

// Commands under the Namespaces layer run in a session sandbox (see
// runHub and runZygote): one per set of rules, started with the first command and
// shared by every later one with the same rules. It ends when a directory
// it was made for (the session's temp or spill directory, the root) is
// removed or replaced, as when the session closes, and with the server.

// sessionCheck is how often a session sandbox checks its directories.
const sessionCheck = time.Second

// idleEnd is how long a session sandbox waits, once nothing of it runs,
// before it ends: an idle session then costs no process (a server may hold
// thousands), and its next command starts a new one, paying the start
// (tens of milliseconds) once. What only lived in the sandbox's own
// mounts (its /dev/shm) ends with it. A variable for the tests.
var idleEnd = 30 * time.Second

// errIdleEnded is the error of a request sent to a session sandbox that
// has just ended idle: the command was not started, and may be started in
// a new one.
var errIdleEnded = errors.New("sandbox: the session sandbox ended idle; run the command again")

var sessions = struct {
	sync.Mutex
	m map[string]*session
}{m: map[string]*session{}}

// A session is the server's end of one session sandbox.
type session struct {
	key   string
	ready chan struct{} // closed once err or the zygote's answer is known
	err   error

	mu   sync.Mutex // one request at a time
	sock *conn
	hub  *hub
	id   uint64        // the hub's name for it
	dead chan struct{} // closed once its zygote has ended
	// ended is set, with mu held, once the zygote has agreed to end idle;
	// idle fires idleEnd after the last request.
	ended     atomic.Bool
	idle      *time.Timer
	idleAfter time.Duration // idleEnd when it started
}

// sessionFor returns the running session sandbox for rules, starting one
// when there is none.
func sessionFor(rules Rules) (*session, error) {
	key, dirs := sessionKey(rules)
	sessions.Lock()
	s := sessions.m[key]
	if s != nil {
		select {
		case <-s.dead:
			s = nil // ended: start another
		default:
			if s.ended.Load() {
				s = nil
			}
		}
	}
	if s == nil {
		s = &session{key: key, ready: make(chan struct{}), dead: make(chan struct{})}
		sessions.m[key] = s
		sessions.Unlock()
		s.err = s.start(rules)
		close(s.ready)
		if s.err != nil {
			s.forget()
			return nil, s.err
		}
		go s.watch(rules, dirs)
		s.mu.Lock()
		s.idleAfter = idleEnd
		s.idle = time.AfterFunc(s.idleAfter, s.endIfIdle)
		s.mu.Unlock()
		return s, nil
	}
	sessions.Unlock()
	<-s.ready
	if s.err != nil {
		return nil, s.err
	}
	return s, nil
}

// forget removes s from the table, unless another has taken its place.
func (s *session) forget() {
	sessions.Lock()
	if sessions.m[s.key] == s {
		delete(sessions.m, s.key)
	}
	sessions.Unlock()
}

// sessionKey names rules and the directories they are made of, as they
// are now: a directory removed and made again is another.
func sessionKey(rules Rules) (string, string) {
	var b strings.Builder
	fmt.Fprintf(&b, "%v %d %v %d %d|", rules.Layers, rules.MaxProcesses, rules.NoNetwork, os.Getuid(), os.Getgid())
	for _, l := range [][]string{rules.Writable, rules.Hidden, rules.Shown, rules.DenyExec} {
		fmt.Fprintf(&b, "%q|", l)
	}
	return b.String(), dirIdentities(rules)
}

// dirIdentities describes the directories of rules as they are now.
func dirIdentities(rules Rules) string {
	var b strings.Builder
	for _, l := range [][]string{rules.Writable, rules.Shown} {
		for _, d := range l {
			var st unix.Stat_t
			if unix.Stat(d, &st) != nil {
				b.WriteString("-;")
				continue
			}
			fmt.Fprintf(&b, "%d:%d;", st.Dev, st.Ino)
		}
	}
	return b.String()
}

// watch ends the session sandbox once a directory it was made for is
// gone or replaced.
func (s *session) watch(rules Rules, dirs string) {
	t := time.NewTicker(sessionCheck)
	defer t.Stop()
	for {
		select {
		case <-s.dead:
			return
		case <-t.C:
			if dirIdentities(rules) != dirs {
				s.forget()
				s.kill()
				return
			}
		}
	}
}

// start asks the server's hub for the session sandbox and waits for its
// zygote to be ready.
func (s *session) start(rules Rules) error {
	args := []string{"-session"}
	for _, d := range rules.Writable {
		if d == "" {
			continue
		}
		abs, err := filepath.Abs(d)
		if err != nil {
			return fmt.Errorf("sandbox: writable directory %s: %w", d, err)
		}
		args = append(args, "-w", abs)
	}
	for _, f := range rules.DenyExec {
		args = append(args, "-deny-exec", f)
	}
	if rules.Layers&Scopes != 0 {
		// Abstract Unix sockets are scoped with or without the network:
		// the person's console listens on one, and a command must not
		// reach it (nor another program's on this host, which no file
		// permission guards).
		args = append(args, "-scope-signals", "-scope-abstract")
	}
	if rules.NoNetwork {
		args = append(args, "-net")
	}
	if rules.MaxProcesses > 0 {
		args = append(args, "-nproc", strconv.FormatUint(rules.MaxProcesses, 10))
	}
	for _, d := range rules.Hidden {
		args = append(args, "-hide", d)
	}
	for _, d := range rules.Shown {
		args = append(args, "-show", d)
	}
	args = append(args, "-uid", strconv.Itoa(os.Getuid()), "-gid", strconv.Itoa(os.Getgid()), "--")

	pair, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("sandbox: %w", err)
	}
	var h *hub
	var id uint64
	var end <-chan struct{}
	// Twice at most: a hub that ended idle meanwhile is replaced.
	for range 2 {
		if h, err = hubFor(); err == nil {
			id, end, err = h.start(args, pair[1])
		}
		if !errors.Is(err, errHubEnded) {
			break
		}
	}
	unix.Close(pair[1])
	if err != nil {
		unix.Close(pair[0])
		return err
	}
	if s.sock, err = newConn(pair[0]); err != nil {
		h.kill(id)
		return fmt.Errorf("sandbox: %w", err)
	}
	s.hub, s.id = h, id
	go func() {
		<-end
		s.mu.Lock() // no request is using the socket
		s.sock.Close()
		close(s.dead)
		s.mu.Unlock()
		s.forget()
	}()
	var r reply
	files, err := receive(s.sock, &r)
	closeAll(files)
	if err == nil {
		err = r.error()
	}
	if err != nil {
		s.kill()
		return fmt.Errorf("sandbox: the session sandbox did not start, so the command was not run: %v", err)
	}
	return nil
}

// kill ends the session sandbox and everything in it.
func (s *session) kill() { s.hub.kill(s.id) }

// run asks the zygote to start cmd, its status pipe's write end status,
// and returns the command's pid.
func (s *session) run(cmd *exec.Cmd, status *os.File) (int, error) {
	req := startRequest{Path: cmd.Path, Args: cmd.Args, Env: cmd.Environ(), Dir: cmd.Dir}
	if req.Dir == "" {
		d, err := os.Getwd()
		if err != nil {
			return 0, err
		}
		req.Dir = d
	}
	if a := cmd.SysProcAttr; a != nil {
		req.Setsid, req.Setpgid, req.Pgid = a.Setsid, a.Setpgid, a.Pgid
		req.Setctty, req.Noctty, req.Ctty = a.Setctty, a.Noctty, a.Ctty
		req.Pdeathsig = int(a.Pdeathsig)
	}
	var files []*os.File
	for i, s := range []any{cmd.Stdin, cmd.Stdout, cmd.Stderr} {
		if s == nil {
			null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
			if err != nil {
				return 0, err
			}
			defer null.Close()
			files = append(files, null)
			continue
		}
		f, ok := s.(*os.File)
		if !ok {
			return 0, fmt.Errorf("sandbox: the command's descriptor %d must be a file, not a %T", i, s)
		}
		files = append(files, f)
	}
	files = append(files, cmd.ExtraFiles...)
	req.Files = len(files)
	files = append(files, status)

	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ended.Load() {
		return 0, errIdleEnded
	}
	select {
	case <-s.dead:
		return 0, errors.New("sandbox: the session sandbox has ended; run the command again")
	default:
	}
	if s.idle != nil {
		s.idle.Reset(s.idleAfter)
	}
	if err := send(s.sock, req, fileFDs(files)...); err != nil {
		return 0, fmt.Errorf("sandbox: cannot reach the session sandbox: %w", err)
	}
	var r reply
	got, err := receive(s.sock, &r)
	defer closeAll(got)
	if err != nil {
		s.kill()
		return 0, fmt.Errorf("sandbox: the session sandbox failed: %w", err)
	}
	if err := r.error(); err != nil {
		return 0, fmt.Errorf("sandbox: %w", err)
	}
	if len(got) != 1 {
		s.kill()
		return 0, errors.New("sandbox: the session sandbox answered without the command's pidfd")
	}
	pid, err := pidfdPid(got[0])
	// The zygote reaps the command only once this is read.
	s.sock.sendmsg([]byte{0}, nil)
	if err != nil {
		return 0, fmt.Errorf("sandbox: %w", err)
	}
	return pid, nil
}

// endIfIdle ends the session sandbox when nothing of it runs, and
// otherwise looks again idleEnd later. The zygote decides, under the lock
// that orders every request, so that no command is started in a sandbox
// that is ending.
func (s *session) endIfIdle() {
	s.mu.Lock()
	defer s.mu.Unlock()
	select {
	case <-s.dead:
		return
	default:
	}
	if s.ended.Load() {
		return
	}
	if err := send(s.sock, startRequest{EndIfIdle: true}); err != nil {
		return // ending anyway: the hub says so, and it is forgotten
	}
	var r reply
	files, err := receive(s.sock, &r)
	closeAll(files)
	if err != nil {
		return
	}
	if r.Busy {
		s.idle.Reset(s.idleAfter)
		return
	}
	s.ended.Store(true)
	s.forget()
}

// pidfdPid reads the pid, as this process sees it, of the process that
// pidfd refers to.
func pidfdPid(pidfd int) (int, error) {
	f, err := os.Open("/proc/self/fdinfo/" + strconv.Itoa(pidfd))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "Pid:"); ok {
			pid, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil || pid <= 0 {
				return 0, fmt.Errorf("the command's pid is not known here (%q)", v)
			}
			return pid, nil
		}
	}
	return 0, errors.New("the kernel does not say the pid of a pidfd (Linux 5.13 or later does)")
}
