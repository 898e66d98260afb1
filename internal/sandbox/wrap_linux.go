//go:build !spillway_portable

package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/spillway-dev/spillway/internal/race"
)

// helperEnv is the whole environment of the helper: nothing a command
// can set (LD_PRELOAD, LD_LIBRARY_PATH, GCONV_PATH, GODEBUG, …) reaches
// the dynamic loader or the Go runtime before the confinement holds. Only
// a binary built with the race detector adds its own race options. Never
// nil: a nil environment is the parent's.
func helperEnv() []string { return append([]string{}, raceEnv()...) }

// residentEnv is the environment of the helpers that stay, the hub and
// the zygotes: fixed like helperEnv, and one processor for the Go
// scheduler. They are idle between requests, and each request is a few
// system calls and a fork: a second processor only made the scheduler
// wake a second thread to look for work at each one, and kept its monitor
// polling while a thread waited in a system call (see runZygote).
func residentEnv() []string { return append([]string{"GOMAXPROCS=1"}, raceEnv()...) }

// raceEnv: a binary built with the race detector hands its race options
// (GORACE) to the helpers it starts from itself, so that they report
// where it reports and wait at exit as long as it does. With the
// detector's default each helper slept a second before it exited, and the
// probes of one start of a race-built server waited ten seconds for
// nothing. Release binaries are not built with the race detector.
func raceEnv() []string {
	if !race.Enabled {
		return nil
	}
	if v, ok := os.LookupEnv("GORACE"); ok {
		return []string{"GORACE=" + v}
	}
	return nil
}

func wrap(cmd *exec.Cmd, rules Rules) (*Launch, error) {
	if rules.Layers&Namespaces == 0 {
		return wrapHelper(cmd, rules)
	}
	s, err := sessionFor(rules)
	if err != nil {
		return nil, err
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	l := &Launch{Status: r, closeAfterStart: []*os.File{w}}
	l.Start = func() (int, error) {
		pid, err := s.run(cmd, w)
		if errors.Is(err, errIdleEnded) {
			// It ended between this command's wrap and its start.
			if s, err = sessionFor(rules); err != nil {
				return 0, err
			}
			return s.run(cmd, w)
		}
		return pid, err
	}
	// A caller that starts cmd itself would run it unconfined: it fails.
	cmd.Err = errors.New("sandbox: this command starts with Launch.Start, not cmd.Start")
	return l, nil
}

// wrapHelper makes cmd start this binary in helper mode, which confines
// itself and execs the command: every layer is paid for by every command.
// Check's probe goes this way, and commands without the Namespaces layer.
func wrapHelper(cmd *exec.Cmd, rules Rules) (*Launch, error) {
	l := &Launch{}
	args := []string{"spillway", HelperArg}
	for _, d := range rules.Writable {
		if d == "" {
			continue
		}
		abs, err := filepath.Abs(d)
		if err != nil {
			return nil, fmt.Errorf("sandbox: writable directory %s: %w", d, err)
		}
		args = append(args, "-w", abs)
	}
	ns := rules.Layers&Namespaces != 0
	denied, read := rules.DenyExec, []string(nil)
	if !ns {
		// No mount namespace to hide in: Landlock grants no read there.
		var hidden []string
		hidden, read = hiddenReads(rules)
		denied = append(slices.Clip(denied), hidden...)
	}
	for _, f := range denied {
		args = append(args, "-deny-exec", f)
	}
	for _, d := range read {
		args = append(args, "-read", d)
	}
	if rules.NoNetwork && !ns {
		args = append(args, "-deny-tcp")
	}
	if rules.Layers&Scopes != 0 {
		// Abstract Unix sockets are scoped with or without the network:
		// the person's console listens on one, and a command must not
		// reach it (nor another program's on this host, which no file
		// permission guards).
		args = append(args, "-scope-signals", "-scope-abstract")
	}
	if rules.Layers&Seccomp != 0 {
		args = append(args, "-seccomp")
	}
	if rules.MaxProcesses > 0 {
		args = append(args, "-nproc", strconv.FormatUint(rules.MaxProcesses, 10))
	}

	env, err := envFile(cmd.Environ())
	if err != nil {
		return nil, fmt.Errorf("sandbox: cannot pass the environment: %w", err)
	}
	l.closeAfterStart = append(l.closeAfterStart, env)
	// The command's own extra descriptors (3 and up) stay where they are.
	args = append(args, "-keep-fds", strconv.Itoa(len(cmd.ExtraFiles)))
	args = append(args, "-env-fd", strconv.Itoa(3+len(cmd.ExtraFiles)))
	cmd.ExtraFiles = append(cmd.ExtraFiles, env)

	if ns {
		r, w, err := os.Pipe()
		if err != nil {
			l.Close()
			return nil, fmt.Errorf("sandbox: %w", err)
		}
		l.Status = r
		l.closeAfterStart = append(l.closeAfterStart, w)
		args = append(args, "-ns", "-status-fd", strconv.Itoa(3+len(cmd.ExtraFiles)))
		cmd.ExtraFiles = append(cmd.ExtraFiles, w)
		if rules.NoNetwork {
			args = append(args, "-net")
		}
		for _, d := range rules.Hidden {
			args = append(args, "-hide", d)
		}
		for _, d := range rules.Shown {
			args = append(args, "-show", d)
		}
		args = append(args, "-uid", strconv.Itoa(os.Getuid()), "-gid", strconv.Itoa(os.Getgid()))
		cmd.SysProcAttr = namespaceAttr(cmd.SysProcAttr, rules.NoNetwork)
	}
	args = append(args, "--", cmd.Path)
	args = append(args, cmd.Args...)
	// In the forked child, before its exec, /proc/self/exe is still this
	// binary, even if the file was replaced or deleted since.
	cmd.Path = "/proc/self/exe"
	cmd.Args = args
	cmd.Env = helperEnv()
	return l, nil
}

// envFile returns a memory file holding env, NUL-separated, for the
// helper to read: the environment never shows in the helper's own (nor in
// its arguments, which every user may read).
func envFile(env []string) (*os.File, error) {
	fd, err := unix.MemfdCreate("spillway-env", unix.MFD_CLOEXEC)
	if err != nil {
		return nil, err
	}
	f := os.NewFile(uintptr(fd), "spillway-env")
	if _, err := f.WriteString(strings.Join(env, "\x00")); err != nil {
		f.Close()
		return nil, err
	}
	if _, err := f.Seek(0, 0); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// namespaceAttr adds to attr (which it copies) the new user, mount and PID
// namespaces, and the network one with noNetwork. The user namespace maps
// the caller's uid and gid to 0 so that the helper, as root there, keeps
// the capabilities it needs to mount across its exec; the command itself
// gets the caller's ids back in a nested namespace (see runInit). Root
// maps every id, so that root's commands keep their rights inside the
// root over files of any owner.
func namespaceAttr(attr *syscall.SysProcAttr, noNetwork bool) *syscall.SysProcAttr {
	a := syscall.SysProcAttr{}
	if attr != nil {
		a = *attr
	}
	a.Cloneflags |= syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS | syscall.CLONE_NEWPID
	if noNetwork {
		a.Cloneflags |= syscall.CLONE_NEWNET
	}
	a.UidMappings, a.GidMappings, a.GidMappingsEnableSetgroups = idMaps(os.Getuid(), os.Getgid(), 0, 0)
	return &a
}

// allIDs is the size of a map of every id.
const allIDs = 1<<32 - 1

// idMaps maps inside ids to outside ones: one each, or every id for root
// (outside == 0), which alone may map more than its own.
func idMaps(outUID, outGID, inUID, inGID int) (uids, gids []syscall.SysProcIDMap, setgroups bool) {
	if outUID == 0 && inUID == 0 {
		all := []syscall.SysProcIDMap{{ContainerID: 0, HostID: 0, Size: allIDs}}
		return all, all, true
	}
	return []syscall.SysProcIDMap{{ContainerID: inUID, HostID: outUID, Size: 1}},
		[]syscall.SysProcIDMap{{ContainerID: inGID, HostID: outGID, Size: 1}}, false
}

// hiddenReads are what hide would cover, for Landlock to grant no access
// to when there are no namespaces to hide in: the real paths of the
// hidden directories and files (one that does not exist yet is denied by
// name, so that it gets nothing when it is made), and the shown
// directories beneath them, to be granted reading again. A hidden
// directory that is itself writable or shown is left readable, and a
// hidden file under a writable directory stays granted there (Landlock
// only adds access; the namespaces cover it with /dev/null).
func hiddenReads(rules Rules) (denied, read []string) {
	var seen []string
	for _, d := range append(slices.Clip(rules.Writable), rules.Shown...) {
		if d, ok := realDir(d); ok {
			seen = append(seen, d)
		}
	}
	var writable []string
	for _, d := range rules.Writable {
		if d, ok := realDir(d); ok {
			writable = append(writable, d)
		}
	}
	for _, h := range rules.Hidden {
		if f, ok := realFile(h); ok {
			if !slices.ContainsFunc(writable, func(w string) bool { return within(f, w) }) {
				denied = append(denied, f)
			}
			continue
		}
		d, ok := realDir(h)
		if !ok {
			// Not made yet: deny its name in its parent's real path.
			parent, ok := realDir(filepath.Dir(filepath.Clean(h)))
			if !ok || !filepath.IsAbs(h) {
				continue
			}
			denied = append(denied, filepath.Join(parent, filepath.Base(h)))
			continue
		}
		if d == "/" || slices.Contains(seen, d) {
			continue
		}
		denied = append(denied, d)
		for _, s := range rules.Shown {
			if s, ok := realDir(s); ok && within(s, d) {
				read = append(read, s)
			}
		}
	}
	return denied, read
}
