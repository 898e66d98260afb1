package mcpserver_test

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spillway-dev/spillway/internal/sandbox"
)

// Attacks on a session of `spillway mcp` as an agent would make them,
// through tool calls. Each got through before its fix.

func needSandbox(t *testing.T) {
	t.Helper()
	if ok, abi, err := sandbox.Status(); !ok || abi < sandbox.FilesABI {
		t.Skipf("Landlock ABI %d here (%v); the sandbox needs %d", abi, err, sandbox.FilesABI)
	}
}

// The spill directory of a session under --root --sandbox cannot be
// swapped for a symlink by a command (it may not write there, nor in the
// shared temp directory); and when it is swapped all the same (here by the
// test, as another process of the same user could), the session neither
// writes through it nor lets the file tools through it.
func TestAttackSwapSpillDirectory(t *testing.T) {
	needSandbox(t)
	tmp, root, outside := t.TempDir(), t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret"), []byte("the secret\n"), 0o600)
	cs := connectStdioArgs(t, tmp, nil, "--root", root, "--sandbox")

	res := call(t, cs, "bash", map[string]any{"command": "seq 1 100000"})
	spilled, _ := field(details(t, res), "stdout.full_output_path").(string)
	if spilled == "" {
		t.Fatalf("no spill file: %s", text(res))
	}
	dir := filepath.Dir(spilled)

	// The command's own try: rm -rf the spill directory, put a symlink.
	res = call(t, cs, "bash", map[string]any{"command": "echo > " + spilled + "; rm -rf " + dir + " ; ln -s " + outside + " " + dir})
	fi, err := os.Lstat(dir)
	if err != nil || !fi.IsDir() || !exists(spilled) {
		t.Errorf("a sandboxed command removed or replaced the spill directory: %v\n%s", err, text(res))
	} else if b, _ := os.ReadFile(spilled); !strings.HasSuffix(string(b), "\n100000\n") {
		t.Errorf("a sandboxed command overwrote a spill file: %q", b)
	}
	res = call(t, cs, "bash", map[string]any{"command": "touch " + outside + "/x"})
	// Refused by Landlock (EACCES) or the namespaces' read-only mount.
	if exists(filepath.Join(outside, "x")) || !strings.Contains(text(res), "Permission denied") && !strings.Contains(text(res), "Read-only file system") {
		t.Fatalf("a sandboxed command wrote outside the root:\n%s", text(res))
	}

	// Swapped all the same (unless the command managed it).
	if err == nil && fi.IsDir() {
		if err := os.Rename(dir, dir+".old"); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(outside, dir); err != nil {
			t.Fatal(err)
		}
	}
	// A flood still returns, and its spill does not land in the target.
	if res = call(t, cs, "bash", map[string]any{"command": "seq 1 100000"}); res.IsError {
		t.Errorf("flood after the swap: %q", text(res))
	}
	for _, tool := range []struct {
		name string
		args map[string]any
	}{
		{"read", map[string]any{"path": filepath.Join(dir, "secret")}},
		{"grep", map[string]any{"pattern": "secret", "path": dir}},
		{"ls", map[string]any{"path": dir}},
		{"find", map[string]any{"pattern": "*", "path": dir}},
	} {
		r := call(t, cs, tool.name, tool.args)
		if !r.IsError || strings.Contains(text(r), "the secret") || strings.Contains(text(r), "secret\n") {
			t.Errorf("%s through the swapped spill directory: %q", tool.name, text(r))
		}
	}
	ents, _ := os.ReadDir(outside)
	if len(ents) != 1 {
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		t.Errorf("the server wrote into the symlink's target: %v", names)
	}
}

// A stdio server told to stop — its stdin closed, or SIGTERM — while a
// call runs a command that ignores SIGTERM, a background job runs and a
// grep walks a tree whose ignore files are FIFOs: it exits promptly (the
// target is 2 s; the guard here is a generous 10 s), with every job
// killed and its spill directory removed.
func TestAttackExitWhileBusy(t *testing.T) {
	for _, how := range []string{"stdin closed", "SIGTERM"} {
		t.Run(how, func(t *testing.T) {
			tmp, tree := t.TempDir(), t.TempDir()
			os.MkdirAll(filepath.Join(tree, "sub/.git/info"), 0o755)
			os.WriteFile(filepath.Join(tree, "sub/a.txt"), []byte("hello\n"), 0o644)
			for _, f := range []string{".gitignore", "sub/.ignore", "sub/.git/info/exclude"} {
				if err := mkfifo(filepath.Join(tree, f)); err != nil {
					t.Fatal(err)
				}
			}
			mark := marker("exit")
			cmd := exec.Command(bin, "mcp")
			cmd.Env = serverEnv(tmp, "SPILLWAY_TEST_MARK="+mark)
			stdin, _ := cmd.StdinPipe()
			stdout, _ := cmd.StdoutPipe()
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Process.Kill()
			lines := bufio.NewScanner(stdout)
			lines.Buffer(nil, 1<<20)
			send := func(m string) {
				if _, err := io.WriteString(stdin, m+"\n"); err != nil {
					t.Fatal(err)
				}
			}
			reply := func() string {
				if !lines.Scan() {
					t.Fatalf("no reply: %v", lines.Err())
				}
				return lines.Text()
			}
			send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
			reply()
			send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
			send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"bash","arguments":{"command":"seq 1 100000; sleep 1000 &"}}}`)
			if r := reply(); !strings.Contains(r, "full_output_path") {
				t.Fatalf("no spill: %.300s", r)
			}
			send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"bash","arguments":{"command":"trap '' TERM; echo started; sleep 1001"}}}`)
			send(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"grep","arguments":{"pattern":"hello","path":"` + tree + `/sub"}}}`)
			// Wait until the command runs.
			for deadline := time.Now().Add(hangGuard); len(marked(mark)) < 3; {
				if time.Now().After(deadline) {
					t.Fatalf("the commands did not start: %v", marked(mark))
				}
				time.Sleep(20 * time.Millisecond)
			}
			start := time.Now()
			if how == "SIGTERM" {
				cmd.Process.Signal(syscall.SIGTERM)
			} else {
				stdin.Close()
			}
			go io.Copy(io.Discard, stdout)
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			select {
			case <-exited:
			case <-time.After(10 * time.Second):
				t.Fatalf("still running 10 s after %s", how)
			}
			took := time.Since(start)
			t.Logf("exited %v after %s", took.Round(time.Millisecond), how)
			for deadline := time.Now().Add(hangGuard); len(marked(mark)) > 0 && time.Now().Before(deadline); {
				time.Sleep(20 * time.Millisecond)
			}
			if left := marked(mark); len(left) > 0 {
				t.Errorf("processes left after exit: %v", left)
			}
			if ents, _ := os.ReadDir(tmp); len(ents) > 0 {
				t.Errorf("spill directory left after exit: %v", ents[0].Name())
			}
		})
	}
}

// A server killed outright (SIGKILL: no grace, no cleanup of its own)
// with a job running leaves neither the job nor its spill directory: the
// watcher process kills the one and removes the other. The same holds for
// a stdio server that exits before a job ignoring SIGTERM has ended.
func TestAttackKilledServerLeavesNoSpillDir(t *testing.T) {
	mark := marker("killed")
	srv := startRawStdio(t, "SPILLWAY_TEST_MARK="+mark)
	tmp, cmd := srv.tmp, srv.cmd
	send := func(line string) { srv.send(t, line) }
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"bash","arguments":{"command":"seq 1 100000"}}}`)
	srv.recv(t) // a spill file: the wait below finds its directory
	send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"bash","arguments":{"command":"trap '' TERM; seq 1 100000; sleep 1000"}}}`)
	for deadline := time.Now().Add(hangGuard); len(marked(mark)) == 0 || spillDirs(tmp) == 0; {
		if time.Now().After(deadline) {
			t.Fatalf("no job or no spill directory: %v, %d", marked(mark), spillDirs(tmp))
		}
		time.Sleep(20 * time.Millisecond)
	}
	cmd.Process.Kill()
	cmd.Wait()
	for deadline := time.Now().Add(hangGuard); (len(marked(mark)) > 0 || spillDirs(tmp) > 0) && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}
	if left := marked(mark); len(left) > 0 {
		t.Errorf("processes left after the server was killed: %v", left)
	}
	if n := spillDirs(tmp); n > 0 {
		t.Errorf("%d spill directories left after the server was killed", n)
	}
}

// spillDirs counts the session spill directories under dir, at any depth
// of two.
func spillDirs(dir string) int {
	a, _ := filepath.Glob(filepath.Join(dir, "spillway-*-*"))
	b, _ := filepath.Glob(filepath.Join(dir, "*", "spillway-*-*"))
	return len(a) + len(b)
}

// marked lists the processes whose environment holds SPILLWAY_TEST_MARK=mark.
func marked(mark string) []int {
	var pids []int
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err == nil && bytes.Contains(env, []byte("SPILLWAY_TEST_MARK="+mark+"\x00")) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// A 5 MB input comes back in an error as at most a couple of hundred of
// its bytes, and a 5 MB bad regex is refused at once.
func TestAttackHugeInputsInErrors(t *testing.T) {
	cs := connectStdio(t, t.TempDir(), nil)
	big := strings.Repeat("a", 5<<20)
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"bash", map[string]any{"command": "true", "cwd": "/" + big}},
		{"bash", map[string]any{"command": "true", "env": map[string]any{big: "x"}}},
		{"read", map[string]any{"path": big}},
		{"ls", map[string]any{"path": big}},
		{"grep", map[string]any{"pattern": "(" + big}},
		{"grep", map[string]any{"pattern": "x", "path": big}},
		{"grep", map[string]any{"pattern": "x", "glob": "[" + big}},
		{"find", map[string]any{"pattern": "[" + big}},
	} {
		start := time.Now()
		r := call(t, cs, c.tool, c.args)
		took := time.Since(start)
		if !r.IsError || len(text(r)) > 1000 {
			t.Errorf("%s: is_error %v, %d bytes of error: %.300q", c.tool, r.IsError, len(text(r)), text(r))
		}
		t.Logf("%-5s %4d bytes of error in %v: %.120q", c.tool, len(text(r)), took.Round(time.Millisecond), text(r))
	}
}
