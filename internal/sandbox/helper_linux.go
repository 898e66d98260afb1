//go:build !spillway_portable

package sandbox

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/landlock-lsm/go-landlock/landlock"
	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// MaybeRunHelper runs the sandbox helper and never returns when the binary
// was started as one (argv[1] == HelperArg); otherwise it returns at once.
// Call it first thing in main (and in TestMain of tests that use Wrap).
func MaybeRunHelper() {
	if len(os.Args) < 2 || os.Args[1] != HelperArg {
		return
	}
	os.Exit(runHelper(os.Args[2:]))
}

// helperArgs are the helper's arguments, as wrap writes them.
type helperArgs struct {
	writable      []string
	denyTCP       bool
	scopeSignals  bool
	scopeAbstract bool
	seccomp       bool
	envFD         int
	keepFDs       int // the command's own descriptors 3 … 3+keepFDs-1

	// The namespaces' init (see runInit).
	ns       bool
	net      bool
	hide     []string // covered by an empty tmpfs
	denyExec []string // neither executed nor read (Rules.DenyExec)
	show     []string // shown again beneath a hidden directory
	read     []string // read-only beneath a denied one, without namespaces
	statusFD int
	uid, gid int

	nproc uint64 // RLIMIT_NPROC, 0 for none

	// The session sandboxes (see runHub): the server's hub, which makes
	// each session's namespaces, a session's arguments as the server
	// sends them to the hub, a session's zygote, and the socket each
	// listens on.
	hub     bool
	session bool
	zygote  bool
	sockFD  int

	probe bool
	argv  []string // PATH ARGV0 ARGS...
}

// runHelper confines the process as args say and execs the command after
// "--"; with -ns it is the namespaces' init instead. It returns only on
// failure, with the exit status.
func runHelper(args []string) int {
	h, err := parseHelperArgs(args)
	if err != nil {
		return helperFailed("%v", err)
	}
	// Before anything else: the namespaces' init passes it on to the
	// user namespace it makes (its limit there) and to the command.
	if h.nproc > 0 {
		if err := unix.Setrlimit(unix.RLIMIT_NPROC, &unix.Rlimit{Cur: h.nproc, Max: h.nproc}); err != nil {
			return helperFailed("cannot limit the command's processes, so it was not run: %v", err)
		}
	}
	switch {
	case h.hub:
		return runHub(h)
	case h.session:
		return helperFailed("a session's arguments are for the hub, not a process")
	case h.zygote:
		return runZygote(h)
	case h.ns:
		return runInit(h)
	}
	env, err := readEnv(h.envFD)
	if err != nil {
		return helperFailed("cannot read the command's environment, so it was not run: %v", err)
	}
	if err := confineSelf(h); err != nil {
		return helperFailed("%v", err)
	}
	if h.probe {
		fmt.Print(probeOK)
		return 0
	}
	err = syscall.Exec(h.argv[0], h.argv[1:], env)
	fmt.Fprintf(os.Stderr, "spillway sandbox: cannot run %s: %v\n", h.argv[0], err)
	if errors.Is(err, syscall.ENOENT) {
		return 127
	}
	return ExitHelperFailed
}

func helperFailed(format string, a ...any) int {
	fmt.Fprintf(os.Stderr, "spillway sandbox: "+format+"\n", a...)
	return ExitHelperFailed
}

// The helper's flags by what follows them: nothing, a path (each given
// adds one), or a number.
var (
	helperSwitches = map[string]func(*helperArgs) *bool{
		"-probe":          func(h *helperArgs) *bool { return &h.probe },
		"-deny-tcp":       func(h *helperArgs) *bool { return &h.denyTCP },
		"-scope-signals":  func(h *helperArgs) *bool { return &h.scopeSignals },
		"-scope-abstract": func(h *helperArgs) *bool { return &h.scopeAbstract },
		"-seccomp":        func(h *helperArgs) *bool { return &h.seccomp },
		"-ns":             func(h *helperArgs) *bool { return &h.ns },
		"-hub":            func(h *helperArgs) *bool { return &h.hub },
		"-session":        func(h *helperArgs) *bool { return &h.session },
		"-zygote":         func(h *helperArgs) *bool { return &h.zygote },
		"-net":            func(h *helperArgs) *bool { return &h.net },
	}
	helperPaths = map[string]func(*helperArgs) *[]string{
		"-w":         func(h *helperArgs) *[]string { return &h.writable },
		"-hide":      func(h *helperArgs) *[]string { return &h.hide },
		"-show":      func(h *helperArgs) *[]string { return &h.show },
		"-deny-exec": func(h *helperArgs) *[]string { return &h.denyExec },
		"-read":      func(h *helperArgs) *[]string { return &h.read },
	}
	helperNumbers = map[string]func(*helperArgs) *int{
		"-env-fd":    func(h *helperArgs) *int { return &h.envFD },
		"-status-fd": func(h *helperArgs) *int { return &h.statusFD },
		"-sock-fd":   func(h *helperArgs) *int { return &h.sockFD },
		"-uid":       func(h *helperArgs) *int { return &h.uid },
		"-gid":       func(h *helperArgs) *int { return &h.gid },
		"-keep-fds":  func(h *helperArgs) *int { return &h.keepFDs },
	}
)

// parseHelperArgs reads "[-probe] [-w DIR]... [flags] -- PATH ARGV0
// ARGS...".
func parseHelperArgs(args []string) (h helperArgs, err error) {
	h.envFD, h.statusFD, h.sockFD = -1, -1, -1
	for i := 0; i < len(args); i++ {
		a := args[i]
		if sw, ok := helperSwitches[a]; ok {
			*sw(&h) = true
			continue
		}
		if a == "--" {
			h.argv = args[i+1:]
			return h, h.checkArgv()
		}
		i++
		if i >= len(args) {
			return h, missingValue(a)
		}
		if err := h.set(a, args[i]); err != nil {
			return h, err
		}
	}
	return h, errors.New("no -- before the command")
}

// set gives flag, one that takes a value, the value v.
func (h *helperArgs) set(flag, v string) error {
	if field, ok := helperPaths[flag]; ok {
		p := field(h)
		*p = append(*p, v)
		return nil
	}
	if field, ok := helperNumbers[flag]; ok {
		n, err := strconv.Atoi(v)
		if err != nil {
			return fmt.Errorf("%s: %w", flag, err)
		}
		*field(h) = n
		return nil
	}
	if flag == "-nproc" {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			return fmt.Errorf("-nproc: %w", err)
		}
		h.nproc = n
		return nil
	}
	return fmt.Errorf("unknown helper argument %q", flag)
}

// missingValue is the error of flag a given last, without its value (an
// unknown one is named as such).
func missingValue(a string) error {
	switch {
	case helperPaths[a] != nil:
		return fmt.Errorf("%s needs a path", a)
	case helperNumbers[a] != nil || a == "-nproc":
		return fmt.Errorf("%s needs a value", a)
	}
	return fmt.Errorf("unknown helper argument %q", a)
}

// checkArgv checks that the arguments after -- name a command, unless
// the helper runs none itself, and that a session sandbox has its socket.
func (h *helperArgs) checkArgv() error {
	if len(h.argv) < 2 && !h.probe && !h.hub && !h.session && !h.zygote {
		return errors.New("no command after --")
	}
	if (h.hub || h.zygote) && h.sockFD < 0 {
		return errors.New("the session sandbox needs -sock-fd")
	}
	return nil
}

// readEnv reads the command's environment from fd (NUL-separated) and
// closes it; without one (-1) the command gets an empty environment.
func readEnv(fd int) ([]string, error) {
	if fd < 0 {
		return []string{}, nil
	}
	f := os.NewFile(uintptr(fd), "env")
	if f == nil {
		return nil, fmt.Errorf("descriptor %d is not open", fd)
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		return nil, err
	}
	if len(b) == 0 {
		return []string{}, nil
	}
	return strings.Split(string(bytes.TrimSuffix(b, []byte{0})), "\x00"), nil
}

// devices may be written by every sandboxed command: `> /dev/null` is
// everywhere in shell scripts.
var devices = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty"}

// terminal is the one device on which a sandboxed command may call
// ioctls where Landlock rules them (ABI 5): its own terminal, which a
// tty job's programs set up (a password prompt turns echo off through
// /dev/tty) and which a command without one cannot open. On every other
// device (disks, consoles, /dev/kvm, /dev/net/tun, …) ioctls are denied.
// TIOCSTI and TIOCLINUX are denied everywhere by the terminal filter.
const terminal = "/dev/tty"

// ioctlDevABI is the Landlock ABI that rules ioctls on devices.
const ioctlDevABI = 5

// sharedMemory is the tmpfs of POSIX shared memory and semaphores
// (Python's multiprocessing needs it); it is a temp directory too.
const sharedMemory = "/dev/shm"

// confineSelf confines this process, and everything it will exec, as h
// says: Landlock, then the seccomp filters (the terminal's wherever
// seccomp works, the sockets' when asked). The error says the command was
// not run.
func confineSelf(h helperArgs) error {
	if err := restrict(h); err != nil {
		return fmt.Errorf("cannot restrict the command, so it was not run: %v", err)
	}
	if seccompSupported {
		if err := denyTerminalInjection(); err != nil {
			return fmt.Errorf("cannot install the terminal filter, so the command was not run: %v", err)
		}
	}
	if h.seccomp {
		if err := denySockets(); err != nil {
			return fmt.Errorf("cannot install the seccomp filter, so the command was not run: %v", err)
		}
	}
	return nil
}

// restrict applies the rules to this process (all its threads) and to
// everything it will exec, in Landlock's strict mode.
func restrict(h helperArgs) error {
	cfg := landlock.Config{HandledAccessFS: landlock.V3.HandledAccessFS}
	if h.denyTCP {
		// Handled with no rule that allows a port: every TCP bind and
		// connect is denied.
		cfg.HandledAccessNet = landlock.V4.HandledAccessNet
	}
	if h.scopeSignals {
		cfg.Scoped |= landlock.ScopedSet(ll.ScopeSignal)
	}
	if h.scopeAbstract {
		cfg.Scoped |= landlock.ScopedSet(ll.ScopeAbstractUnixSocket)
	}
	var writable []string
	for _, d := range h.writable {
		if _, err := os.Stat(d); err == nil {
			writable = append(writable, d)
		} else if !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("writable directory %s: %w", d, err)
		}
	}
	rules, err := readRules(h.denyExec)
	if err != nil {
		return err
	}
	rules = append(rules,
		landlock.RODirs(h.read...).IgnoreIfMissing(),
		landlock.RWDirs(writable...).WithRefer(),
		landlock.RWDirs(sharedMemory).WithRefer().IgnoreIfMissing(),
		landlock.RWFiles(devices...).IgnoreIfMissing(),
	)
	if abi, err := ll.LandlockGetABIVersion(); err == nil && abi >= ioctlDevABI {
		cfg.HandledAccessFS |= ll.AccessFSIoctlDev
		rules = append(rules, landlock.PathAccess(ll.AccessFSIoctlDev, terminal).IgnoreIfMissing())
	}
	return cfg.Restrict(rules...)
}
