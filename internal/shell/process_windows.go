package shell

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"syscall"
)

// Windows has no process groups and no signals. A job is its shell and
// the processes the shell started, as taskkill /T finds them from the
// shell's pid (the tree of parent ids Windows keeps); children whose
// parent has already exited are not in that tree.

// procAttr starts a command as the root of a new process group (the
// Windows kind, for console control events).
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP}
}

// family is not tracked on Windows.
type family struct{}

func (j *job) watchFamily() {}

func (j *job) shellExited() {}

// markEnv adds nothing: the holders of a pipe are found without a mark.
func (j *job) markEnv(env []string) []string { return env }

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

// holdersLeft reports whether the shell still runs or, once it has
// exited, a pipe is not at end of file: some process still holds it.
func (j *job) holdersLeft() bool {
	return groupLive(j.pid) || j.hasExited() && !isClosed(j.readersDone)
}

// signal ends the shell and its tree of processes: Windows has no
// SIGTERM, so both signals force the end (taskkill /F /T).
func (j *job) signal(syscall.Signal) {
	exec.Command("taskkill", "/F", "/T", "/PID", strconv.Itoa(j.pid)).Run()
}

// inode is not known for a Windows pipe.
func inode(os.FileInfo) uint64 { return 0 }

// bytesUnread is not asked on Windows: a job is never said to wait for
// input there.
func bytesUnread(uintptr) int { return 0 }

// signalGroup ends the job: Windows has no signals to send it.
func (j *job) signalGroup(sig syscall.Signal) { j.signal(sig) }

// ttyAttr: a pseudo-terminal job is started like any other on Windows;
// the terminal is its standard streams only.
func ttyAttr() *syscall.SysProcAttr { return procAttr() }

// decodeStatus reads an exit code sent as a number.
func decodeStatus(u uint32) exitStatus { return exitStatus{code: int(u)} }

// waitStatus reads a Windows exit status.
func waitStatus(ws syscall.WaitStatus) exitStatus { return exitStatus{code: ws.ExitStatus()} }

// pollable: Windows has no terminals to open here.
func pollable(f *os.File) (*os.File, error) { return f, nil }

// gitBash are where Git for Windows puts its bash when it is not on PATH.
var gitBash = []string{
	`C:\Program Files\Git\bin\bash.exe`,
	`C:\Program Files (x86)\Git\bin\bash.exe`,
}

// lookShell finds the shell on PATH, or Git for Windows' bash where it
// installs it; Windows has no bash of its own.
func lookShell(name string) (string, error) {
	path, err := exec.LookPath(name)
	if err == nil {
		return path, nil
	}
	if name == "bash" {
		for _, p := range gitBash {
			if _, serr := os.Stat(p); serr == nil {
				return p, nil
			}
		}
		return "", fmt.Errorf("the bash tool needs bash.exe, and none is on PATH or in Git for Windows' folder: install Git for Windows (https://gitforwindows.org) or set shell in the config to a bash.exe")
	}
	return "", fmt.Errorf("cannot run the shell %q: %w (set shell in the config)", name, err)
}

// MaybeRunWatcher returns at once: Windows has no watcher.
func MaybeRunWatcher() {}

func watch(int)          {}
func unwatch(int)        {}
func watchMark(string)   {}
func unwatchMark(string) {}
