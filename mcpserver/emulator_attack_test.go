//go:build linux

package mcpserver_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The terminal emulator obeyed a control sequence's count in full, in
// the server: 3 KB of CSI 65535 b (repeat the last character 65,535
// times) on a tty job cost 6.9 s of the server's processor time, and a
// call with timeout 5000 returned after 8.9 s; 30 KB cost 69 s. Every
// count is now held to the screen, and a screen whose work passes a
// ceiling per byte is given up for the text of the output.

// serverCPU is the processor time the process pid has used.
func serverCPU(t *testing.T, pid int) time.Duration {
	t.Helper()
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(string(data[bytes.LastIndexByte(data, ')')+1:]))
	// utime and stime, fields 14 and 15, in clock ticks (100 a second).
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(ut+st) * 10 * time.Millisecond
}

// startServerPid starts spillway mcp and returns its client and pid.
func startServerPid(t *testing.T, tmp string) (*mcp.ClientSession, int) {
	t.Helper()
	cmd := exec.Command(bin, "mcp")
	cmd.Env = serverEnv(tmp)
	stderr := &lockedBuffer{}
	cmd.Stderr = stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "emulator-attack", Version: "1"}, nil).
		Connect(testContext(t), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connecting: %v\n%s", err, stderr)
	}
	t.Cleanup(func() { cs.Close() })
	return cs, cmd.Process.Pid
}

// The race detector slows the server some tenfold.
func raceScale(d time.Duration) time.Duration {
	if len(buildFlags) > 0 {
		return 10 * d
	}
	return d
}

func TestAttackEmulatorCounts(t *testing.T) {
	t.Parallel()
	tmp, dir := t.TempDir(), t.TempDir()
	cs, pid := startServerPid(t, tmp)
	seqs := []struct{ name, seq string }{
		{"repeat", "x\x1b[65535b"}, {"insert-chars", "\x1b[65535@"}, {"delete-chars", "\x1b[65535P"}, {"erase-chars", "\x1b[65535X"},
		{"insert-lines", "\x1b[65535L"}, {"delete-lines", "\x1b[65535M"}, {"scroll-up", "\x1b[65535S"}, {"scroll-down", "\x1b[65535T"},
		{"tab", "\x1b[65535I"}, {"back-tab", "\x1b[65535Z"}, {"cursor-up", "\x1b[65535A"}, {"cursor-forward", "\x1b[65535C"},
	}
	// A call's wall time on a loaded machine is mostly waiting for a
	// turn on the processor: the bound below adds twice what a call of
	// nothing on a terminal takes here, now.
	start := time.Now()
	call(t, cs, "bash", map[string]any{"command": "true", "tty": true})
	baseline := time.Since(start)
	t.Logf("a call of true on a terminal: %v", baseline.Round(time.Millisecond))
	for _, sq := range seqs {
		t.Run(sq.name, func(t *testing.T) {
			for _, c := range []struct {
				size    int
				timeout time.Duration
				cpu     time.Duration
			}{{3_000, 5 * time.Second, time.Second}, {30_000, 3 * time.Second, 3 * time.Second}} {
				payload := filepath.Join(dir, fmt.Sprintf("%s-%d", sq.name, c.size))
				if err := os.WriteFile(payload, bytes.Repeat([]byte(sq.seq), c.size/len(sq.seq)+1)[:c.size], 0o644); err != nil {
					t.Fatal(err)
				}
				before, start := serverCPU(t, pid), time.Now()
				res := call(t, cs, "bash", map[string]any{"command": "cat " + payload + "; echo; echo done", "tty": true, "timeout": c.timeout.Milliseconds()})
				took, cpu := time.Since(start), serverCPU(t, pid)-before
				t.Logf("%d bytes of %q: the call returned after %v (timeout %v), the server used %v of processor time", c.size, sq.seq, took.Round(time.Millisecond), c.timeout, cpu)
				if bound := c.timeout + raceScale(time.Second) + 2*baseline; took > bound {
					t.Errorf("%d bytes: the call returned after %v, past its timeout of %v (bound %v)", c.size, took, c.timeout, bound)
				}
				if cpu > raceScale(c.cpu) {
					t.Errorf("%d bytes: the server used %v of processor time, over %v", c.size, cpu, raceScale(c.cpu))
				}
				// On a loaded machine the job may outlive the timeout: the
				// call then returns at its timeout with the job running.
				// Or the shell exits before the terminal's output is all
				// read: the rest goes on as a background job. Either
				// way the command's end shows in a check.
				out, d := text(res), details(t, res)
				for d["timed_out"] == true || d["backgrounded"] == true {
					if strings.Contains(out, "done") || d["running"] != true {
						break
					}
					res = call(t, cs, "bash", map[string]any{"check_pid": d["pid"], "timeout": 3000})
					out, d = out+text(res), details(t, res)
				}
				if !strings.Contains(out, "done") && d["timed_out"] != true {
					t.Errorf("%d bytes: the command's end is not shown, and it did not time out:\n%s", c.size, out)
				}
			}
		})
	}
}

// A background job that floods its terminal with sequences that each
// move the whole screen is given up as a screen once its work passes the
// ceiling: the server's processor time stays bounded, and the result
// says so.
func TestAttackEmulatorCeiling(t *testing.T) {
	t.Parallel()
	tmp, dir := t.TempDir(), t.TempDir()
	cs, pid := startServerPid(t, tmp)
	payload := filepath.Join(dir, "deletions")
	if err := os.WriteFile(payload, bytes.Repeat([]byte("\x1b[M"), 1<<20/3), 0o644); err != nil {
		t.Fatal(err)
	}
	before, start := serverCPU(t, pid), time.Now()
	_, d := func() (string, map[string]any) {
		res := call(t, cs, "bash", map[string]any{"command": "cat " + payload + "; echo; echo flood-done; sleep 30", "tty": true, "run_in_background": true})
		return text(res), details(t, res)
	}()
	var all strings.Builder
	for deadline := time.Now().Add(hangGuard); time.Now().Before(deadline); {
		res := call(t, cs, "bash", map[string]any{"check_pid": d["pid"], "timeout": 3000})
		all.WriteString(text(res))
		if strings.Contains(all.String(), "flood-done") {
			break
		}
	}
	took, cpu := time.Since(start), serverCPU(t, pid)-before
	t.Logf("1 MiB of CSI M: the server used %v of processor time; the output was read in %v", cpu, took.Round(time.Millisecond))
	if !strings.Contains(all.String(), "[its terminal's screen is no longer kept") || !strings.Contains(all.String(), "flood-done") {
		t.Errorf("the results do not say the screen was given up, or miss the output after it:\n%.3000s", all.String())
	}
	if cpu > raceScale(5*time.Second) {
		t.Errorf("the server used %v of processor time for 1 MiB", cpu)
	}
	call(t, cs, "bash", map[string]any{"kill_pid": d["pid"]})
}
