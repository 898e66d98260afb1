//go:build linux && !spillway_portable

package sandbox

import (
	"os/exec"
	"strings"
	"testing"
)

// Where Landlock rules device ioctls (ABI 5), a sandboxed command may call
// them only on its terminal: a terminal request on /dev/null is refused
// by Landlock (EACCES) instead of by the device (ENOTTY).
func TestDeviceIoctlsOnlyOnTheTerminal(t *testing.T) {
	requireLandlock(t, ioctlDevABI)
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3")
	}
	const script = `python3 -c '
import errno, fcntl, os, termios
def tcgets(fd):
    try:
        fcntl.ioctl(fd, termios.TCGETS, bytes(64))
        return "ok"
    except OSError as e:
        return errno.errorcode[e.errno]
print("null", tcgets(os.open("/dev/null", os.O_RDONLY)))
'`
	d := makeDirs(t)
	if r := bash(t, nil, d.root, script); strings.TrimSpace(r.stdout) != "null ENOTTY" {
		t.Fatalf("unsandboxed: %q %q", r.stdout, r.stderr)
	}
	for _, noNet := range []bool{false, true} {
		for _, rules := range []*Rules{d.rules(noNet), {Writable: d.rules(noNet).Writable, NoNetwork: noNet, Layers: floor(noNet)}} {
			r := bash(t, rules, d.root, script)
			if got := strings.TrimSpace(r.stdout); got != "null EACCES" {
				t.Errorf("%v: %q %q", rules.Layers, got, r.stderr)
			}
		}
	}
}
