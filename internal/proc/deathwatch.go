//go:build unix

package proc

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
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
// The server also writes "d<dev> <ino> <path>" when a session's spill
// directory is made and "r<path>" once it is removed: after the kills,
// the watcher removes each directory still listed that is still the one
// made (same device and inode), so that a server that dies, or exits
// before its session has ended, leaves no spill directory behind.
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
	// dirs are the "d" lines of the spill directories listed, by path:
	// told to a watcher started later.
	dirs map[string]string
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
	dirs := map[string]dirID{}
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
		case 'd':
			if path, id, ok := parseDirLine(line[1:]); ok {
				dirs[path] = id
			}
			continue
		case 'r':
			if path, err := strconv.Unquote(line[1:]); err == nil {
				delete(dirs, path)
			}
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
	for path, id := range dirs {
		removeDir(path, id)
	}
}

// A dirID is a directory's identity: a path that leads elsewhere now is
// not the directory that was listed.
type dirID struct{ dev, ino uint64 }

func idOf(fi os.FileInfo) (dirID, bool) {
	// Dev and Ino are of other types on other systems.
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return dirID{}, false
	}
	return dirID{uint64(st.Dev), uint64(st.Ino)}, true
}

func dirLine(path string, id dirID) string {
	return fmt.Sprintf("d%d %d %s\n", id.dev, id.ino, strconv.Quote(path))
}

func parseDirLine(s string) (string, dirID, bool) {
	var id dirID
	f := strings.SplitN(s, " ", 3) // the quoted path may hold spaces
	if len(f) != 3 {
		return "", id, false
	}
	dev, err1 := strconv.ParseUint(f[0], 10, 64)
	ino, err2 := strconv.ParseUint(f[1], 10, 64)
	path, err3 := strconv.Unquote(f[2])
	if err1 != nil || err2 != nil || err3 != nil || !filepath.IsAbs(path) {
		return "", id, false
	}
	return path, dirID{dev, ino}, true
}

// removeDir removes path if it is still the directory listed: never
// through a symlink put in its place, never another directory.
func removeDir(path string, id dirID) {
	fi, err := os.Lstat(path)
	if err != nil || !fi.IsDir() {
		return
	}
	if now, ok := idOf(fi); ok && now == id {
		os.RemoveAll(path)
	}
}

// WatchDir lists a session's spill directory (its path and what Lstat
// found there when it was made) with the watcher, which removes it
// should the server end before the session does. It does not start the
// watcher: one started later is told.
func WatchDir(path string, fi os.FileInfo) {
	id, ok := idOf(fi)
	if !ok || !filepath.IsAbs(path) {
		return
	}
	line := dirLine(path, id)
	watcher.Lock()
	defer watcher.Unlock()
	if watcher.dirs == nil {
		watcher.dirs = map[string]string{}
	}
	watcher.dirs[path] = line
	if watcher.w != nil {
		io.WriteString(watcher.w, line)
	}
}

// UnwatchDir takes a spill directory off the watcher's list, once it is
// removed (or kept on purpose).
func UnwatchDir(path string) {
	watcher.Lock()
	defer watcher.Unlock()
	if _, ok := watcher.dirs[path]; !ok {
		return
	}
	delete(watcher.dirs, path)
	if watcher.w != nil {
		io.WriteString(watcher.w, "r"+strconv.Quote(path)+"\n")
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
		if watcher.w != nil {
			for _, l := range watcher.dirs {
				io.WriteString(watcher.w, l)
			}
		}
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
