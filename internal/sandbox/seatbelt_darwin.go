//go:build !spillway_portable

package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
)

// sandboxExec is macOS's front end to Seatbelt. Apple marks it deprecated
// but ships it and uses it; Codex and Anthropic's sandbox-runtime run
// commands through it too.
const sandboxExec = "/usr/bin/sandbox-exec"

// MaybeRunHelper returns at once: on macOS sandbox-exec is the helper.
func MaybeRunHelper() {}

// Status reports whether sandbox-exec is there. abi is 0: Seatbelt has
// no versions to tell apart.
func Status() (available bool, abi int, err error) {
	if _, err := os.Stat(sandboxExec); err != nil {
		return false, 0, fmt.Errorf("seatbelt: %s is missing: %w", sandboxExec, err)
	}
	return true, 0, nil
}

// StatusLine describes the sandbox in one line, for `spillway version`.
func StatusLine() string {
	if ok, _, err := Status(); !ok {
		return "sandbox layers: none (" + err.Error() + ")"
	}
	return "sandbox layers: seatbelt (sandbox-exec)"
}

// Check verifies that commands can run under Seatbelt: sandbox-exec is
// there and a trial run under the profile works. On macOS the sandbox is
// Seatbelt alone: asking for a Linux layer beyond landlock, which Seatbelt
// stands for, is refused. The result is remembered for the process.
func Check(rules Rules, min Layer) (Layer, error) {
	if extra := min &^ (Landlock | Seatbelt); extra != 0 {
		return 0, fmt.Errorf("the sandbox layers %s are Linux's; on macOS the sandbox is Seatbelt (writes, signals and, with --no-network, the network)", extra)
	}
	seatbeltChecked.Lock()
	defer seatbeltChecked.Unlock()
	if err, ok := seatbeltChecked.done[rules.NoNetwork]; ok {
		return Seatbelt, err
	}
	err := probeSeatbelt(rules.NoNetwork)
	seatbeltChecked.done[rules.NoNetwork] = err
	if err != nil {
		return 0, err
	}
	return Seatbelt, nil
}

var seatbeltChecked = struct {
	sync.Mutex
	done map[bool]error
}{done: map[bool]error{}}

func probeSeatbelt(noNetwork bool) error {
	if ok, _, err := Status(); !ok {
		return fmt.Errorf("the sandbox needs Seatbelt: %w", err)
	}
	cmd := exec.Command("/usr/bin/true")
	if _, err := wrap(cmd, Rules{Writable: []string{os.TempDir()}, NoNetwork: noNetwork}); err != nil {
		return err
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("a trial command under sandbox-exec failed (%v: %q); commands would not run, so the sandbox is refused", err, strings.TrimSpace(string(out)))
	}
	return nil
}

// wrap rewrites cmd to run through sandbox-exec with the profile of the
// rules. The writable directories are resolved to their real paths first,
// as Seatbelt matches them.
func wrap(cmd *exec.Cmd, rules Rules) (*Launch, error) {
	real := rules
	real.Writable = nil
	for _, d := range rules.Writable {
		if d == "" {
			continue
		}
		abs, err := filepath.Abs(d)
		if err != nil {
			return nil, fmt.Errorf("sandbox: writable directory %s: %w", d, err)
		}
		r, err := filepath.EvalSymlinks(abs)
		if errors.Is(err, os.ErrNotExist) {
			continue // made later, if ever: nothing to allow yet
		}
		if err != nil {
			return nil, fmt.Errorf("sandbox: writable directory %s: %w", d, err)
		}
		real.Writable = append(real.Writable, r)
	}
	profile, params := SeatbeltProfile(real)
	args := append([]string{"sandbox-exec", "-p", profile}, params...)
	args = append(args, cmd.Path)
	args = append(args, cmd.Args[1:]...)
	cmd.Path = sandboxExec
	cmd.Args = args
	return &Launch{}, nil
}
