//go:build !spillway_portable

package sandbox

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"
)

// runInit is the helper as the first process of the command's new user,
// mount, PID (and network) namespaces, as root of the user namespace. It
//
//   - hides the directories it must not see (other sessions' spill
//     files, the server's token) under an empty tmpfs;
//   - mounts the whole file system read-only but for the writable
//     directories, and a /proc of the new PID namespace;
//   - brings up the loopback of the new network namespace;
//   - starts the helper again, in a nested user namespace where it has the
//     caller's own ids and no capability over these namespaces (so the
//     command can neither remount nor reconfigure them), which confines
//     itself with Landlock and execs the shell;
//   - writes StatusStarted to the status descriptor once the shell is
//     started (a signal sent earlier could be lost: an init ignores the
//     signals it has no handler for), then the shell's wait status as
//     soon as it exits, and reaps every process of the namespace until none is
//     left. When it exits (or is killed, say by the parent-death signal
//     of a server that died), the kernel kills whatever is left in the
//     namespace: nothing of the command outlives it.
//
// Termination signals it gets are passed to every process of the
// namespace: one that left the shell's process group (setsid, a daemon)
// still gets the chance to end cleanly.
func runInit(h helperArgs) int {
	cwd, err := mountView(h)
	if err != nil {
		return helperFailed("%v", err)
	}
	// A /proc of this PID namespace: the command sees only its own
	// processes. It stays writable for this init, which writes the id
	// maps of the nested user namespace there; Landlock keeps the command
	// from writing in it. Where the kernel refuses (a container that
	// hides parts of /proc), the old one stays, read-only: its pids are
	// not signalable from here.
	unix.Mount("proc", "/proc", "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, "")
	// The working directory still refers to the mount under the new
	// binds: enter it again.
	if err := os.Chdir(cwd); err != nil {
		return helperFailed("cannot enter %s: %v", cwd, err)
	}
	if h.net {
		if err := loopbackUp(); err != nil {
			return helperFailed("cannot bring up the loopback, so the command was not run: %v", err)
		}
	}
	var status *os.File
	if h.statusFD >= 0 {
		status = os.NewFile(uintptr(h.statusFD), "status")
	}
	env := os.NewFile(uintptr(h.envFD), "env")

	args := []string{"spillway", HelperArg}
	if h.probe {
		args = append(args, "-probe")
	}
	args = h.landlockFlags(args)
	// The command's own descriptors keep their numbers; the environment
	// follows them.
	files := []*os.File{os.Stdin, os.Stdout, os.Stderr}
	for fd := 3; fd < 3+h.keepFDs; fd++ {
		files = append(files, os.NewFile(uintptr(fd), "fd"))
	}
	files = append(files, env)
	args = append(args, "-keep-fds", strconv.Itoa(h.keepFDs), "-env-fd", strconv.Itoa(len(files)-1), "--")
	args = append(args, h.argv...)
	// Termination signals that come before the shell has started wait in
	// the channel and are passed on once it has (a Ctrl-C sent at once).
	sigs := make(chan os.Signal, 8)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP, syscall.SIGQUIT)
	uids, gids, setgroups := idMaps(0, 0, h.uid, h.gid)
	shell, err := os.StartProcess("/proc/self/exe", args, &os.ProcAttr{
		Env:   helperEnv(),
		Files: files,
		Sys: &syscall.SysProcAttr{
			Cloneflags:                 syscall.CLONE_NEWUSER,
			UidMappings:                uids,
			GidMappings:                gids,
			GidMappingsEnableSetgroups: setgroups,
		},
	})
	if err != nil {
		return helperFailed("cannot start the command in its namespaces: %v", err)
	}
	for _, f := range files[3:] {
		f.Close()
	}
	// The shell is started and termination signals are passed on: the
	// server may send them now.
	if status != nil {
		status.Write([]byte{StatusStarted})
	}
	// Only the command holds the job's output pipes from now on.
	if null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0); err == nil {
		for fd := 0; fd <= 2; fd++ {
			unix.Dup3(int(null.Fd()), fd, 0)
		}
		null.Close()
	}
	go forward(sigs)
	return reapAll(shell.Pid, status)
}

// landlockFlags appends to args the flags that hand the next stage (the
// command's helper, or the session's zygote) what it restricts itself
// with: the writable directories, the denied programs and the Landlock
// scopes.
func (h helperArgs) landlockFlags(args []string) []string {
	for _, d := range h.writable {
		args = append(args, "-w", d)
	}
	for _, f := range h.denyExec {
		args = append(args, "-deny-exec", f)
	}
	if h.scopeSignals {
		args = append(args, "-scope-signals")
	}
	if h.scopeAbstract {
		args = append(args, "-scope-abstract")
	}
	return args
}

// forward passes the termination signals this init gets (as the
// namespace's init it gets only those it handles) to every other process
// of the namespace.
func forward(sigs <-chan os.Signal) {
	for s := range sigs {
		syscall.Kill(-1, s.(syscall.Signal))
	}
}

// reapAll reaps every child (the shell and the orphans the namespace
// gives this init) until none is left, writes the shell's wait status to
// status when it exits, and returns the shell's exit code (128+signal
// when a signal killed it).
func reapAll(shell int, status *os.File) int {
	code := ExitHelperFailed
	for {
		var ws syscall.WaitStatus
		pid, err := syscall.Wait4(-1, &ws, 0, nil)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			return code
		}
		if pid != shell {
			continue
		}
		if ws.Signaled() {
			code = 128 + int(ws.Signal())
		} else {
			code = ws.ExitStatus()
		}
		if status != nil {
			var b [4]byte
			binary.NativeEndian.PutUint32(b[:], uint32(ws))
			status.Write(b[:])
			status.Close()
			status = nil
		}
	}
}

// mountView makes the command's view of the file system in this mount
// namespace: the mounts private, what it must not see hidden, and all but
// the writable directories read-only. It returns the working directory,
// to be entered again under the new mounts.
func mountView(h helperArgs) (string, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("cannot read the working directory: %v", err)
	}
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return "", fmt.Errorf("cannot make the mounts private, so the command was not run: %v", err)
	}
	if err := hide(h.hide, append(h.writable, h.show...)); err != nil {
		return "", fmt.Errorf("cannot hide what the command must not see, so it was not run: %v", err)
	}
	if err := privateSharedMemory(); err != nil {
		return "", fmt.Errorf("cannot give the command a /dev/shm of its own, so it was not run: %v", err)
	}
	if err := mountReadOnly(h.writable); err != nil {
		return "", fmt.Errorf("cannot set up the mount namespace, so the command was not run: %v", err)
	}
	return cwd, nil
}

// sharedMemoryBytes caps the tmpfs of a sandbox's /dev/shm, as Docker's
// default /dev/shm: ample for the semaphores and queues of Python's
// multiprocessing, and no way to fill the host's memory.
const sharedMemoryBytes = 64 << 20

// privateSharedMemory covers /dev/shm with a tmpfs of this mount namespace
// alone, capped at sharedMemoryBytes: the session's commands share it,
// no other session sees it, and it is freed with the namespace, when the
// last process of the session ends. Without a /dev/shm there is nothing
// to cover.
func privateSharedMemory() error {
	if fi, err := os.Stat(sharedMemory); err != nil || !fi.IsDir() {
		return nil
	}
	opts := fmt.Sprintf("mode=1777,size=%d,nr_inodes=%d", sharedMemoryBytes, sharedMemoryBytes/4096)
	return unix.Mount("tmpfs", sharedMemory, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, opts)
}

// mountReadOnly makes every mount of the namespace read-only, but for
// binds of the writable directories (and /dev/shm). The mounts are
// private already: nothing propagates back out.
func mountReadOnly(writable []string) error {
	var binds []string
	for _, d := range append(writable, sharedMemory) {
		if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
			continue // left out, as Landlock leaves it out
		}
		if err := unix.Mount(d, d, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
			return fmt.Errorf("binding %s: %w", d, err)
		}
		binds = append(binds, d)
	}
	ro := &unix.MountAttr{Attr_set: unix.MOUNT_ATTR_RDONLY}
	if err := unix.MountSetattr(unix.AT_FDCWD, "/", unix.AT_RECURSIVE, ro); err != nil {
		return fmt.Errorf("making / read-only: %w", err)
	}
	rw := &unix.MountAttr{Attr_clr: unix.MOUNT_ATTR_RDONLY}
	for _, d := range binds {
		// Mounts under d that were read-only before stay so (the kernel
		// locks them): then d alone becomes writable.
		if err := unix.MountSetattr(unix.AT_FDCWD, d, unix.AT_RECURSIVE, rw); err != nil {
			if err := unix.MountSetattr(unix.AT_FDCWD, d, 0, rw); err != nil {
				return fmt.Errorf("making %s writable: %w", d, err)
			}
		}
	}
	return nil
}

// loopbackUp brings up "lo", the only interface of a new network
// namespace.
func loopbackUp() error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		return err
	}
	if err := unix.IoctlIfreq(fd, unix.SIOCGIFFLAGS, ifr); err != nil {
		return err
	}
	ifr.SetUint16(ifr.Uint16() | unix.IFF_UP)
	return unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr)
}
