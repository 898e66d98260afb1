//go:build linux

package mcpserver_test

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// stiParentScript pushes argv[2] into the terminal open as descriptor 0
// of the process argv[1], reopened through /proc.
const stiParentScript = `import fcntl, os, sys, termios
try:
    fd = os.open("/proc/%s/fd/0" % sys.argv[1], os.O_RDWR)
except OSError as e:
    print("TTY-OPEN-REFUSED", e.errno)
    sys.exit(0)
n = 0
for c in sys.argv[2]:
    try:
        fcntl.ioctl(fd, termios.TIOCSTI, c.encode())
        n += 1
    except OSError as e:
        print("TIOCSTI-REFUSED", e.errno)
        break
print("INJECTED", n)
`

// TestAttackRootTerminalInjectionThroughParentFD: as root, without
// --sandbox, a command reopened the terminal that started spillway
// through /proc/$PPID/fd/0 (its own session has no terminal, but its
// parent's descriptors are root's to open) and pushed `touch OUTSIDE⏎`
// into it with TIOCSTI, which root may do on any terminal; the
// terminal's shell ran it.
func TestAttackRootTerminalInjectionThroughParentFD(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("only root may push input into a terminal that is not its own")
	}
	needPython(t)
	base := t.TempDir()
	root, tmp := filepath.Join(base, "root"), filepath.Join(base, "tmp")
	os.Mkdir(root, 0o755)
	os.Mkdir(tmp, 0o755)
	outside := filepath.Join(base, "OUTSIDE")
	os.WriteFile(filepath.Join(root, "sti.py"), []byte(stiParentScript), 0o644)

	term := openTerminal(t)
	sh := exec.Command("bash", "--norc", "--noprofile", "-i")
	sh.Env = serverEnv(tmp, "PS1=READY$ ", "TERM=dumb", "INPUTRC=/dev/null", "HISTFILE=/dev/null")
	sh.Stdin, sh.Stdout, sh.Stderr = term.slave, term.slave, term.slave
	controlledBy(sh, 0)
	if err := sh.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sh.Process.Kill(); sh.Wait() })
	term.waitOutput(t, "READY$ ", 1)
	io.WriteString(term.master, fmt.Sprintf("cd %s && %s --root %s bash 'python3 sti.py $PPID \"touch %s\n\"'\n", root, bin, root, outside))
	term.waitOutput(t, "READY$ ", 2) // spillway has exited
	io.WriteString(term.master, "echo END-$((6*7))\n")
	term.waitOutput(t, "END-42", 1) // what was injected before it has run
	out := term.output()
	if _, err := os.Stat(outside); err == nil {
		t.Errorf("the command's keystrokes ran in the terminal's shell: %s exists\n%s", outside, out)
	}
	if !strings.Contains(out, "TIOCSTI-REFUSED") && !strings.Contains(out, "TTY-OPEN-REFUSED") {
		t.Errorf("the command pushed input into the terminal that started spillway:\n%s", out)
	}
}
