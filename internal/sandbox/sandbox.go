// Package sandbox confines the bash tool's commands. They may read and
// execute anything, but write only under a few directories (the root and
// a temp directory); they cannot change the metadata of anything else,
// signal processes that are not their own, and, with NoNetwork, reach no
// network.
//
// The confinement applies to the commands, never to the server: the
// running binary is started again in a hidden helper mode (argv[1] ==
// HelperArg), which confines itself. The program's main must call
// MaybeRunHelper first thing. With the Namespaces layer, the helper is a
// session sandbox, started once per set of rules and kept: its zygote,
// confined inside the namespaces, forks every command of the session (see
// runZygote), so a command pays for a fork and an exec, not for the
// namespaces, the mounts and a start of the Go runtime. One hub per
// server makes every session's namespaces and starts its zygote (see
// runHub). Without it,
// Wrap rewrites each exec.Cmd to start the helper, which confines itself
// and then execs the real command.
//
// The helper runs with a fixed, empty environment, so that nothing a
// command controls (LD_PRELOAD, GCONV_PATH, …) can steer the dynamic
// loader or the Go runtime before the confinement holds; the command's own
// environment reaches it through a descriptor and is applied only at the
// final exec of the shell.
//
// The confinement is made of layers (see Layer); Check probes which of
// them this kernel offers, refuses when one that is required is missing,
// and the command is never run with fewer layers than Check reported.
package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
)

// HelperArg is the argv[1] that starts the binary as the sandbox helper.
const HelperArg = "__sandbox-exec"

// The Landlock ABI versions the rules need.
const (
	// FilesABI restricts every write, truncation included (Linux 6.2).
	FilesABI = 3
	// NetworkABI adds TCP bind and connect (Linux 6.7).
	NetworkABI = 4
	// ScopesABI scopes signals and abstract Unix sockets (Linux 6.12).
	ScopesABI = 6
)

// ExitHelperFailed is the exit status of a helper that could not restrict
// itself or start the command (as a shell's "cannot execute").
const ExitHelperFailed = 126

// A Layer is one mechanism of the confinement.
type Layer uint

const (
	// Landlock confines writes to the writable directories, and with
	// NoNetwork (when there is no network namespace) denies TCP bind and
	// connect. It is always required.
	Landlock Layer = 1 << iota
	// Scopes (Landlock ABI 6) deny signals to any process outside the
	// command's own sandbox (the server, other sessions' jobs), and with
	// NoNetwork connecting to abstract Unix sockets outside it.
	Scopes
	// Namespaces run the command in new user, mount, PID and (with
	// NoNetwork) network namespaces: the whole file system is mounted
	// read-only except the writable directories, so no metadata (mode,
	// owner, times, xattrs) can change outside them either; the command
	// sees and can signal only its own processes, all of which die with
	// it; and with NoNetwork only a private loopback exists.
	Namespaces
	// Seccomp, with NoNetwork when there are no namespaces, denies
	// creating sockets of any family but AF_UNIX (UDP, raw, netlink, …)
	// and io_uring, which could make them behind the filter's back.
	Seccomp
	// Seatbelt is macOS's confinement (sandbox-exec with a profile that
	// SeatbeltProfile writes): writes only under the writable directories,
	// signals only within the command's own sandbox, and with NoNetwork no
	// network at all. On macOS it stands for the landlock a sandbox needs
	// at least.
	Seatbelt
)

var layerNames = []struct {
	l    Layer
	name string
}{{Landlock, "landlock"}, {Scopes, "scopes"}, {Namespaces, "namespaces"}, {Seccomp, "seccomp"}, {Seatbelt, "seatbelt"}}

// String lists the layers: "landlock+scopes+namespaces".
func (ls Layer) String() string {
	var names []string
	for _, n := range layerNames {
		if ls&n.l != 0 {
			names = append(names, n.name)
		}
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, "+")
}

// ParseLayers reads a list of layer names separated by commas or '+'
// ("landlock,namespaces"); "" is Landlock alone, the least a sandbox is.
func ParseLayers(s string) (Layer, error) {
	ls := Landlock
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == '+' || r == ' ' }) {
		found := false
		for _, n := range layerNames {
			if strings.EqualFold(f, n.name) {
				ls |= n.l
				found = true
			}
		}
		if !found {
			return 0, fmt.Errorf("unknown sandbox layer %q: the layers are landlock, scopes, namespaces and seccomp (Linux) and seatbelt (macOS)", f)
		}
	}
	return ls, nil
}

// Rules say what a sandboxed command may do besides reading and executing
// anything.
type Rules struct {
	// Writable are the directories under which the command may create,
	// write, rename and remove files. One that does not exist when the
	// command starts is left out.
	Writable []string
	// Hidden are directories whose contents the command does not see
	// (the spill directories' parent, the server's token directory), but
	// for the writable directories and those of Shown beneath them, and
	// files it reads as empty wherever they are (the audit log, the
	// token). The Namespaces layer covers them with a tmpfs (a file with
	// /dev/null); without it Landlock grants no access to them (their
	// names can still be listed, and a hidden file under a writable
	// directory stays granted there).
	Hidden []string
	// Shown are directories beneath a hidden one that the command still
	// sees, read-only unless writable (its own session's spill
	// directory).
	Shown []string
	// DenyExec are files (real paths, as ResolvePrograms finds them)
	// the command may neither execute nor read, by any route: a path, a
	// descriptor, a #! line, ld.so, a copy. Landlock only; a file under
	// a writable directory is granted there all the same.
	DenyExec []string
	// MaxProcesses, when above zero, is the RLIMIT_NPROC of the command
	// (soft and hard), set by the helper before anything of the command
	// runs. In the user namespaces of the Namespaces layer it counts the
	// command's own tasks.
	MaxProcesses uint64
	// NoNetwork denies every network access but a private loopback (with
	// namespaces) or every TCP bind and connect and every socket but a
	// Unix one (without).
	NoNetwork bool
	// Layers are the layers to apply, as Check reported them; 0 means
	// Landlock alone.
	Layers Layer
}

// ABI returns the Landlock ABI version the rules need.
func (r Rules) ABI() int {
	switch {
	case r.Layers&Scopes != 0:
		return ScopesABI
	case r.NoNetwork && r.Layers&Namespaces == 0:
		return NetworkABI
	}
	return FilesABI
}

// StatusStarted is the byte the sandbox's init writes on the status pipe
// once the shell has started.
const StatusStarted = 'S'

// A Launch is what Wrap made of a command.
type Launch struct {
	// Status, when not nil, is the read end of a pipe on which the byte
	// StatusStarted arrives once the shell has started (wait for it
	// before signalling the command), then the shell's wait status (4
	// bytes, native order) when it exits. Without Start, the started
	// process is then the sandbox's init, which lives on while anything
	// the shell started does; reaping it says that everything of the
	// command has ended. Closed by the caller.
	Status *os.File
	// Start, when not nil, starts the command in place of cmd.Start: a
	// session sandbox, already confined, forks it, so it is not a child
	// of this process. It returns the command's pid (its process group
	// too, as cmd's attributes say). Status then carries the command's
	// own wait status, and no process of the command outlives it there.
	Start func() (pid int, err error)
	// closeAfterStart are the parent's copies of what the child inherits.
	closeAfterStart []*os.File
}

// Started closes the parent's copies of the descriptors the helper
// inherited. Call it once cmd.Start has returned, whatever it returned.
func (l *Launch) Started() {
	for _, f := range l.closeAfterStart {
		f.Close()
	}
	l.closeAfterStart = nil
}

// Close releases everything of a Launch whose command will not start.
func (l *Launch) Close() {
	l.Started()
	if l.Status != nil {
		l.Status.Close()
	}
}

// Wrap prepares cmd, which has not been started, to run under the rules.
// When the Launch has a Start, call it instead of cmd.Start: the session
// sandbox of the rules starts the command (same path, arguments,
// directory, environment, files and process attributes; cmd's standard
// streams must then be files or nil). Otherwise cmd itself now starts
// this binary in helper mode, which confines itself and execs the
// original command (the environment applied only at that exec).
func Wrap(cmd *exec.Cmd, rules Rules) (*Launch, error) {
	if cmd.Process != nil {
		return nil, errors.New("sandbox: the command has already started")
	}
	if cmd.Err != nil {
		return &Launch{}, nil // Start reports it
	}
	if cmd.Path == "" || len(cmd.Args) == 0 {
		return nil, errors.New("sandbox: the command has no path")
	}
	if rules.Layers == 0 {
		rules.Layers = Landlock
	}
	return wrap(cmd, rules)
}
