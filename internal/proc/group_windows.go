package proc

import (
	"os"
	"os/exec"
	"strconv"
	"syscall"
)

// Windows has no process groups and no signals. A job is its shell and
// the processes the shell started, as taskkill /T finds them from the
// shell's pid (the tree of parent ids Windows keeps); children whose
// parent has already exited are not in that tree.

// Attr starts a command as the root of a new process group (the
// Windows kind, for console control events).
func Attr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP}
}

// family is not tracked on Windows.
type family struct{}

func (g *Group) watchFamily() {}

// ShellExited has nothing to do on Windows.
func (g *Group) ShellExited() {}

// MarkEnv adds nothing: the holders of a pipe are found without a mark.
func (g *Group) MarkEnv(env []string) []string { return env }

// groupLive reports whether the process pid still runs.
func groupLive(pid int) bool {
	const stillActive = 259
	h, err := syscall.OpenProcess(syscall.PROCESS_QUERY_INFORMATION, false, uint32(pid))
	if err != nil {
		return false
	}
	defer syscall.CloseHandle(h)
	var code uint32
	return syscall.GetExitCodeProcess(h, &code) == nil && code == stillActive
}

// HoldersLeft reports whether the shell still runs or, once it has
// exited, a pipe is not at end of file: some process still holds it.
func (g *Group) HoldersLeft() bool {
	return groupLive(g.pid) || isClosed(g.exited) && !isClosed(g.drained)
}

// Signal ends the shell and its tree of processes: Windows has no
// SIGTERM, so both signals force the end (taskkill /F /T).
func (g *Group) Signal(syscall.Signal) {
	exec.Command("taskkill", "/F", "/T", "/PID", strconv.Itoa(g.pid)).Run()
}

// Survivors is empty on Windows: Signal forces the whole tree to end.
func (g *Group) Survivors() []int { return nil }

// SignalSurvivors has no one to signal on Windows.
func (g *Group) SignalSurvivors(syscall.Signal) {}

// Inode is not known for a Windows pipe.
func Inode(os.FileInfo) uint64 { return 0 }

// bytesUnread is not asked on Windows: a job is never said to wait for
// input there.
func bytesUnread(uintptr) int { return 0 }

// SignalGroup ends the job: Windows has no signals to send it.
func (g *Group) SignalGroup(sig syscall.Signal) { g.Signal(sig) }

// TTYAttr: a pseudo-terminal job is started like any other on Windows;
// the terminal is its standard streams only.
func TTYAttr() *syscall.SysProcAttr { return Attr() }

// MaybeRunWatcher returns at once: Windows has no watcher.
func MaybeRunWatcher() {}

func watch(int)          {}
func unwatch(int)        {}
func watchMark(string)   {}
func unwatchMark(string) {}

// Gone reports whether the shell has ended: Windows keeps no zombies.
func (g *Group) Gone() bool { return !groupLive(g.pid) }

// WatchDir does nothing: Windows has no watcher.
func WatchDir(string, os.FileInfo) {}

// UnwatchDir does nothing: Windows has no watcher.
func UnwatchDir(string) {}
