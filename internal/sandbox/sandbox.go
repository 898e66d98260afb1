// Package sandbox runs the bash tool's commands under Landlock: they may
// read and execute anything, but write only under a few directories (the
// root, the spill directory, the temp directory) and, with NoNetwork,
// neither bind nor connect TCP sockets.
//
// The restriction applies to the commands, never to the server: Wrap
// rewrites an exec.Cmd to start the running binary again in a hidden helper
// mode (argv[1] == HelperArg), which restricts itself and then execs the
// real command. The program's main must call MaybeRunHelper first thing.
//
// Landlock is used in strict mode for the ABI the rules need (3 for the
// file rules, 4 with NoNetwork): on a kernel that lacks it the helper fails
// and the command does not run; it is never run unsandboxed.
package sandbox

import (
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// HelperArg is the argv[1] that starts the binary as the sandbox helper.
const HelperArg = "__sandbox-exec"

// The Landlock ABI versions the rules need.
const (
	// FilesABI restricts every write, truncation included (Linux 6.2).
	FilesABI = 3
	// NetworkABI adds TCP bind and connect (Linux 6.7).
	NetworkABI = 4
)

// ExitHelperFailed is the exit status of a helper that could not restrict
// itself or start the command (as a shell's "cannot execute").
const ExitHelperFailed = 126

// Rules say what a sandboxed command may do besides reading and executing
// anything.
type Rules struct {
	// Writable are the directories under which the command may create,
	// write, rename and remove files. One that does not exist when the
	// command starts is left out.
	Writable []string
	// NoNetwork denies TCP bind and connect.
	NoNetwork bool
}

// ABI returns the Landlock ABI version the rules need.
func (r Rules) ABI() int {
	if r.NoNetwork {
		return NetworkABI
	}
	return FilesABI
}

// devices may be written by every sandboxed command: `> /dev/null` is
// everywhere in shell scripts.
var devices = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty"}

// sharedMemory is the tmpfs of POSIX shared memory and semaphores
// (Python's multiprocessing needs it); it is a temp directory too.
const sharedMemory = "/dev/shm"

// abiVersion is the kernel's Landlock ABI; tests replace it.
var abiVersion = ll.LandlockGetABIVersion

// Status reports whether the kernel offers Landlock and at which ABI
// version; err says why it is not available.
func Status() (available bool, abi int, err error) {
	abi, err = abiVersion()
	if err != nil {
		return false, 0, fmt.Errorf("landlock is not supported by this kernel or not enabled at boot: %w", err)
	}
	if abi < 1 {
		return false, abi, errors.New("landlock is not enabled")
	}
	return true, abi, nil
}

// StatusLine describes the kernel's Landlock support in one line, for
// `spillway version`: "landlock: available (ABI 4)".
func StatusLine() string {
	ok, abi, err := Status()
	if !ok {
		return "landlock: not available (" + err.Error() + ")"
	}
	return fmt.Sprintf("landlock: available (ABI %d)", abi)
}

// Check verifies, when the sandbox is turned on, that commands can really
// run under the rules: the kernel offers the Landlock ABI they need, and a
// trial run of the helper (this binary again) restricts itself. It returns
// an error that says what is missing; the caller must then refuse to start.
// A successful trial run is remembered for the process (per ABI needed),
// so that a server making a toolset per session probes once.
func Check(rules Rules) error {
	checked.Lock()
	defer checked.Unlock()
	if checked.ok[rules.ABI()] {
		return nil
	}
	if err := check(rules); err != nil {
		return err
	}
	checked.ok[rules.ABI()] = true
	return nil
}

var checked = struct {
	sync.Mutex
	ok map[int]bool
}{ok: map[int]bool{}}

func check(rules Rules) error {
	ok, abi, err := Status()
	if !ok {
		return fmt.Errorf("the sandbox needs Landlock, which this kernel does not offer (%v); it needs Linux 6.2 or later with Landlock enabled (CONFIG_SECURITY_LANDLOCK=y, \"landlock\" in the lsm= boot list). Run without the sandbox only if unconfined commands are acceptable", err)
	}
	if need := rules.ABI(); abi < need {
		what := "the sandbox's file rules need Landlock ABI 3 (Linux 6.2)"
		if rules.NoNetwork {
			what = "denying the network needs Landlock ABI 4 (Linux 6.7)"
		}
		return fmt.Errorf("%s, and this kernel offers ABI %d; upgrade the kernel or run without it", what, abi)
	}
	cmd := exec.Command("/bin/true") // not run: the helper stops before exec
	if err := Wrap(cmd, rules); err != nil {
		return err
	}
	cmd.Args = append(cmd.Args[:2], append([]string{"-probe"}, cmd.Args[2:]...)...)
	out, err := cmd.CombinedOutput()
	if err != nil || string(out) != probeOK {
		return fmt.Errorf("the sandbox helper does not work (%v: %q); a program that embeds spillway must call sandbox.MaybeRunHelper first thing in main", err, strings.TrimSpace(string(out)))
	}
	return nil
}

// probeOK is what a probing helper prints once it has restricted itself.
const probeOK = "sandbox ok\n"

// Wrap rewrites cmd, which has not been started, so that it runs under the
// rules: cmd then starts this binary in helper mode, which restricts itself
// and execs the original command in the same process (same pid, process
// group, directory, environment and files).
func Wrap(cmd *exec.Cmd, rules Rules) error {
	if cmd.Process != nil {
		return errors.New("sandbox: the command has already started")
	}
	if cmd.Err != nil {
		return nil // Start reports it
	}
	if cmd.Path == "" || len(cmd.Args) == 0 {
		return errors.New("sandbox: the command has no path")
	}
	args := []string{"spillway", HelperArg}
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
	if rules.NoNetwork {
		args = append(args, "-no-network")
	}
	args = append(args, "--", cmd.Path)
	args = append(args, cmd.Args...)
	// In the forked child, before its exec, /proc/self/exe is still this
	// binary, even if the file was replaced or deleted since.
	cmd.Path = "/proc/self/exe"
	cmd.Args = args
	return nil
}
