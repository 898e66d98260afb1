//go:build linux

package mcpserver_test

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/creack/pty"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/sys/unix"
)

// Terminal injection: spillway started from a terminal (a person's shell,
// or a terminal client such as an agent's CLI that starts `spillway mcp`)
// gave its commands that terminal as their controlling terminal. A command
// opened /dev/tty and pushed `touch OUTSIDE` into the terminal's input
// with TIOCSTI; the terminal's shell ran it when spillway exited, outside
// every sandbox. Each test below runs spillway on a pseudo-terminal, as a
// terminal would.

// stiScript is the attack: open /dev/tty, push a command into its input.
const stiScript = `import fcntl, os, sys, termios
try:
    fd = os.open("/dev/tty", os.O_RDWR)
except OSError as e:
    print("TTY-OPEN-REFUSED", e.errno)
    sys.exit(0)
print("TTY-OPENED")
n = 0
for c in sys.argv[1]:
    try:
        fcntl.ioctl(fd, termios.TIOCSTI, c.encode())
        n += 1
    except OSError as e:
        print("TIOCSTI-REFUSED", e.errno)
        break
print("INJECTED", n)
`

// tiocstiProvable makes sure the kernel lets a process push characters
// into its own controlling terminal (dev.tty.legacy_tiocsti=1, as on many
// distributions), switching it on for the test when it can; it reports
// whether the test can prove that nothing is injected, and otherwise only
// that /dev/tty cannot be opened.
func tiocstiProvable(t *testing.T) bool {
	t.Helper()
	const knob = "/proc/sys/dev/tty/legacy_tiocsti"
	b, err := os.ReadFile(knob)
	if err != nil {
		return true // older kernels: TIOCSTI is always there
	}
	if strings.TrimSpace(string(b)) == "1" {
		return true
	}
	if err := os.WriteFile(knob, []byte("1"), 0); err != nil {
		t.Logf("dev.tty.legacy_tiocsti=0 and cannot be set (%v): the test shows only that /dev/tty cannot be opened", err)
		return false
	}
	t.Cleanup(func() { os.WriteFile(knob, b, 0) })
	return true
}

// needPython skips without python3, which runs the attack.
func needPython(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3")
	}
}

// terminal is a pseudo-terminal whose output the test collects.
type terminal struct {
	master, slave *os.File
	mu            sync.Mutex
	out           strings.Builder
	done          chan struct{}
}

func openTerminal(t *testing.T) *terminal {
	t.Helper()
	master, slave, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	term := &terminal{master: master, slave: slave, done: make(chan struct{})}
	go func() {
		defer close(term.done)
		buf := make([]byte, 4096)
		for {
			n, err := master.Read(buf)
			term.mu.Lock()
			term.out.Write(buf[:n])
			term.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		slave.Close()
		master.Close()
		<-term.done
	})
	return term
}

func (term *terminal) output() string {
	term.mu.Lock()
	defer term.mu.Unlock()
	return term.out.String()
}

// waitOutput waits until the terminal has shown s count times.
func (term *terminal) waitOutput(t *testing.T, s string, count int) {
	t.Helper()
	waitFor(t, fmt.Sprintf("%q on the terminal", s), func() bool { return strings.Count(term.output(), s) >= count })
}

// pendingInput returns what waits in the terminal's input queue: what
// the program reading the terminal (its shell, or the terminal client)
// would read next.
func (term *terminal) pendingInput(t *testing.T) string {
	t.Helper()
	fd := int(term.slave.Fd())
	n, err := unix.IoctlGetInt(fd, unix.TIOCINQ)
	if err != nil {
		t.Fatalf("TIOCINQ: %v", err)
	}
	if n == 0 {
		return ""
	}
	if err := unix.SetNonblock(fd, true); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, n+256)
	m, err := unix.Read(fd, buf)
	if err != nil && !errors.Is(err, unix.EAGAIN) {
		t.Fatal(err)
	}
	return string(buf[:max(m, 0)])
}

// controlledBy makes term the controlling terminal of cmd's new session
// (the child's descriptor fd is the terminal), as a terminal emulator or
// a terminal client's own session does.
func controlledBy(cmd *exec.Cmd, fd int) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: fd}
}

// TestAttackTerminalInjectionFromCLI: a person's interactive shell on a
// terminal runs `spillway --root W [--sandbox --no-network] bash 'python3
// sti.py'`; the command pushes `touch OUTSIDE` into that terminal, and the
// shell runs it once spillway exits.
func TestAttackTerminalInjectionFromCLI(t *testing.T) {
	needPython(t)
	provable := tiocstiProvable(t)
	for _, sandboxed := range []bool{false, true} {
		t.Run(map[bool]string{false: "plain", true: "sandbox"}[sandboxed], func(t *testing.T) {
			flags := ""
			if sandboxed {
				sandboxLayers(t)
				flags = " --sandbox --no-network"
			}
			base := t.TempDir()
			root, tmp := filepath.Join(base, "root"), filepath.Join(base, "tmp")
			os.Mkdir(root, 0o755)
			os.Mkdir(tmp, 0o755)
			outside := filepath.Join(base, "OUTSIDE")
			os.WriteFile(filepath.Join(root, "sti.py"), []byte(stiScript), 0o644)

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
			io.WriteString(term.master, fmt.Sprintf("%s --root %s%s bash 'python3 sti.py \"touch %s\n\"'\n", bin, root, flags, outside))
			term.waitOutput(t, "READY$ ", 2) // spillway has exited
			io.WriteString(term.master, "echo END-$((6*7))\n")
			term.waitOutput(t, "END-42", 1) // what was injected before it has run
			out := term.output()
			if _, err := os.Stat(outside); err == nil {
				t.Errorf("the command's keystrokes ran in the terminal's shell: %s exists\n%s", outside, out)
			}
			if !strings.Contains(out, "TTY-OPEN-REFUSED") {
				t.Errorf("the command opened the terminal that started spillway:\n%s", out)
			}
			if !provable {
				t.Log("legacy TIOCSTI is off here: only the refused /dev/tty is shown")
			}
		})
	}
}

// TestAttackTerminalInjectionFromMCP: a terminal client starts `spillway
// mcp --sandbox --no-network` from its own session, whose controlling
// terminal is the person's; a command pushes a line into that terminal,
// which the client would read as typed.
func TestAttackTerminalInjectionFromMCP(t *testing.T) {
	needPython(t)
	sandboxLayers(t)
	provable := tiocstiProvable(t)
	base := t.TempDir()
	root, tmp := filepath.Join(base, "root"), filepath.Join(base, "tmp")
	os.Mkdir(root, 0o755)
	os.Mkdir(tmp, 0o755)
	os.WriteFile(filepath.Join(root, "sti.py"), []byte(stiScript), 0o644)

	term := openTerminal(t)
	cmd := exec.Command(bin, "mcp", "--root", root, "--sandbox", "--no-network")
	cmd.Env = serverEnv(tmp)
	cmd.Stderr = term.slave
	controlledBy(cmd, 2)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "terminal-client", Version: "1"}, nil).
		Connect(testContext(t), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connecting to spillway mcp: %v\nterminal:\n%s", err, term.output())
	}
	t.Cleanup(func() { cs.Close() })
	for _, tty := range []bool{false, true} {
		res := call(t, cs, "bash", map[string]any{"command": `python3 sti.py "touch OUTSIDE` + "\n" + `"`, "tty": tty})
		out := text(res)
		if !tty && !strings.Contains(out, "TTY-OPEN-REFUSED") {
			t.Errorf("the command opened the terminal that started spillway: %s", out)
		}
		if tty && !strings.Contains(out, "TIOCSTI-REFUSED") && !strings.Contains(out, "TTY-OPEN-REFUSED") {
			// Its own terminal: no harm outside, but the filter holds there too.
			t.Errorf("a tty job pushed input into its terminal: %s", out)
		}
		if in := term.pendingInput(t); in != "" {
			t.Errorf("the command's keystrokes wait in the client's terminal: %q", in)
		}
	}
	if strings.Contains(term.output(), "touch OUTSIDE") {
		t.Errorf("the injected line was echoed by the client's terminal:\n%s", term.output())
	}
	if !provable {
		t.Log("legacy TIOCSTI is off here: only the refused /dev/tty is shown")
	}
}
