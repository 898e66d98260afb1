//go:build unix

package proc

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
)

// A server killed with SIGKILL must not leave its jobs running. Linux's
// parent-death signal reaches only the server's direct children (each
// job's shell, or the sandbox's init, whose PID namespace takes the rest
// with it); without the sandbox, what the shell started (`sleep 1 &`)
// lived on. Other systems have no parent-death signal at all. So a
// watcher process — this binary again, in the mode WatchArg names —
// holds the read end of a pipe whose write end only the server holds.
// The server writes "+PGID" when a job starts and "-PGID" once it is
// gone, and "mMARK" / "uMARK" when a session's mark (the environment
// entry every command of the session inherits) comes and goes. When the
// server ends, however it ends, the kernel closes its end: the watcher
// reads end of file, sends SIGKILL to every process group still listed
// and, where the process table shows environments (Linux), to every
// process that carries a mark still listed, then exits. No polling of
// getppid and no kqueue: end of file on the pipe is the server's death,
// on every Unix.
//
// What it does not reach: a process that left its job's group and
// cleared its environment; a group whose job ended between its last "-"
// and the crash is listed no longer. A watcher killed with the server
// (kill -9 of both) reaches nothing.

// WatchArg is the argv[1] that starts the binary as the watcher.
const WatchArg = "__spillway-watch"

var watcher struct {
	sync.Mutex
	enabled bool     // MaybeRunWatcher was called: the binary can be one
	started bool     // tried once
	w       *os.File // nil: no watcher
}

// MaybeRunWatcher runs the watcher and exits when the binary was started
// as one (argv[1] == WatchArg); otherwise it returns at once, and notes
// that this binary can serve as a watcher. Call it first thing in main.
func MaybeRunWatcher() {
	if len(os.Args) >= 2 && os.Args[1] == WatchArg {
		runWatcher(os.Stdin)
		os.Exit(0)
	}
	watcher.Lock()
	watcher.enabled = true
	watcher.Unlock()
}

// runWatcher reads the server's lines until end of file, then kills the
// groups and the marked processes still listed.
func runWatcher(in *os.File) {
	groups := map[int]bool{}
	marks := map[string]bool{}
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		line := sc.Text()
		if len(line) < 2 {
			continue
		}
		switch line[0] {
		case 'm':
			marks[line[1:]] = true
			continue
		case 'u':
			delete(marks, line[1:])
			continue
		}
		pgid, err := strconv.Atoi(line[1:])
		if err != nil || pgid <= 1 {
			continue
		}
		switch line[0] {
		case '+':
			groups[pgid] = true
		case '-':
			delete(groups, pgid)
		}
	}
	for pgid := range groups {
		syscall.Kill(-pgid, syscall.SIGKILL)
	}
	for mark := range marks {
		killMarked(mark)
	}
}

// watch lists the process group pgid with the watcher, starting the
// watcher on first need.
func watch(pgid int) { tell(fmt.Sprintf("+%d\n", pgid), true) }

// unwatch takes pgid off the watcher's list.
func unwatch(pgid int) { tell(fmt.Sprintf("-%d\n", pgid), false) }

// watchMark lists a session's mark with the watcher.
func watchMark(mark string) {
	if mark != "" {
		tell("m"+mark+"\n", true)
	}
}

// unwatchMark takes a session's mark off the watcher's list.
func unwatchMark(mark string) {
	if mark != "" {
		tell("u"+mark+"\n", false)
	}
}

// tell writes line to the watcher, starting it first when start is set
// and it has not been tried yet.
func tell(line string, start bool) {
	watcher.Lock()
	defer watcher.Unlock()
	if start && !watcher.started && watcher.enabled {
		watcher.started = true
		watcher.w, _ = startWatcher()
	}
	if watcher.w != nil {
		io.WriteString(watcher.w, line)
	}
}

// startWatcher starts this binary as the watcher, in a process group of
// its own (a Ctrl-C to the server's terminal group must not end it), and
// returns the write end of its pipe.
func startWatcher() (*os.File, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(self, WatchArg)
	cmd.Stdin = r
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	err = cmd.Start()
	r.Close()
	if err != nil {
		w.Close()
		return nil, err
	}
	go cmd.Wait() // reaped if it ever ends before the server
	return w, nil
}
