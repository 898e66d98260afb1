package sandbox_test

// --sandbox through the library (docs/reliability.md): the toolset's bash commands
// write only under the root, the spill directory and the temp directory,
// and --no-network denies TCP. The test binary is the helper: TestMain
// (sandbox_test.go) calls MaybeRunHelper.

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/spillway-dev/spillway"
	"github.com/spillway-dev/spillway/internal/sandbox"
)

func newSandboxed(t *testing.T, noNetwork bool) (ts *spillway.Toolset, root, outside string) {
	t.Helper()
	if ok, abi, err := sandbox.Status(); !ok || abi < sandbox.NetworkABI {
		t.Skipf("Landlock ABI %d here (%v); the test needs %d", abi, err, sandbox.NetworkABI)
	}
	base := t.TempDir()
	root, outside = filepath.Join(base, "root"), filepath.Join(base, "outside")
	for _, d := range []string{root, outside} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// The temp directory is writable under the sandbox: keep "outside"
	// out of it.
	t.Setenv("TMPDIR", filepath.Join(base, "tmp"))
	if err := os.Mkdir(os.Getenv("TMPDIR"), 0o755); err != nil {
		t.Fatal(err)
	}
	p := spillway.DefaultPolicy()
	p.Spill.Dir = filepath.Join(base, "spill")
	ts, err := spillway.New(spillway.Options{Root: root, Sandbox: true, NoNetwork: noNetwork, Policy: &p})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ts.Close() })
	return ts, root, outside
}

// bash runs a command, which must run (it may fail).
func bash(t *testing.T, ts *spillway.Toolset, cmd string) spillway.Result[spillway.BashDetails] {
	t.Helper()
	res, err := ts.Bash(context.Background(), spillway.BashInput{Command: cmd})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// denied reports whether text says a write was refused: by Landlock
// (EACCES) or by the read-only mount of the namespaces (EROFS).
func denied(text string) bool {
	return strings.Contains(text, "Permission denied") || strings.Contains(text, "Read-only file system")
}

func TestToolsetSandboxTouch(t *testing.T) {
	ts, root, outside := newSandboxed(t, false)
	r := bash(t, ts, "touch "+outside+"/x")
	if !r.IsError || !denied(r.Text) {
		t.Errorf("touch outside the root: %q", r.Text)
	}
	if _, err := os.Stat(outside + "/x"); err == nil {
		t.Error("the file outside the root was made")
	}
	r = bash(t, ts, `touch inside && touch "$TMPDIR/tmpfile" && pwd`)
	if r.IsError || !strings.Contains(r.Text, root) {
		t.Errorf("touch inside the root and the temp directory: %q", r.Text)
	}
	if _, err := os.Stat(root + "/inside"); err != nil {
		t.Error(err)
	}
	// The spill files are written by the server, not the command: a flood
	// still spills whole.
	r = bash(t, ts, "seq 1 100000")
	if r.IsError || r.Details.Stdout.FullOutputPath == "" {
		t.Fatalf("flood under the sandbox: %+v", r.Details)
	}
	if b, err := os.ReadFile(r.Details.Stdout.FullOutputPath); err != nil || !strings.HasSuffix(string(b), "\n100000\n") {
		t.Errorf("the spill file: %v", err)
	}
	// Commands may not write in the spill directory, nor beside it in the
	// shared temp directory (where they could swap it for a symlink):
	// their TMPDIR is a private one.
	spillDir := filepath.Dir(r.Details.Stdout.FullOutputPath)
	for _, p := range []string{spillDir + "/by-the-command", filepath.Dir(spillDir) + "/by-the-command"} {
		r = bash(t, ts, "touch "+p)
		if !r.IsError || !denied(r.Text) {
			t.Errorf("touch %s: %q", p, r.Text)
		}
	}
	r = bash(t, ts, `echo "$TMPDIR"`)
	if !strings.Contains(r.Text, spillDir+"/tmp\n") {
		t.Errorf("TMPDIR is not the session's private temp directory: %q", r.Text)
	}
}

func TestToolsetSandboxNoNetwork(t *testing.T) {
	l, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	connect := "exec 3<>/dev/tcp/127.0.0.1/" + strconv.Itoa(l.Addr().(*net.TCPAddr).Port) + " && echo connected"

	ts, _, _ := newSandboxed(t, true)
	if r := bash(t, ts, connect); !r.IsError || strings.Contains(r.Text, "connected") {
		t.Errorf("with no-network: %q", r.Text)
	}
	ts, _, _ = newSandboxed(t, false)
	if r := bash(t, ts, connect); r.IsError || !strings.Contains(r.Text, "connected") {
		t.Errorf("sandboxed, network allowed: %q", r.Text)
	}
}

func TestToolsetSandboxNeedsARoot(t *testing.T) {
	for _, o := range []spillway.Options{{Sandbox: true}, {NoNetwork: true}, {Root: t.TempDir(), NoNetwork: true}} {
		if _, err := spillway.New(o); err == nil {
			t.Errorf("%+v: accepted", o)
		}
	}
}

// A command on a terminal, and one on a stdin pipe, run sandboxed as any
// other: their prompt is seen waiting, write_stdin answers it, and the
// sandbox still holds.
func TestToolsetSandboxInteractive(t *testing.T) {
	ts, _, outside := newSandboxed(t, false)
	for _, in := range []spillway.BashInput{
		{TTY: true}, {Stdin: true},
	} {
		in.Command = "read -p 'file? ' f; echo x > \"$f\" 2>&1; echo wrote $?"
		in.Timeout = 30 * time.Second
		r, err := ts.Bash(context.Background(), in)
		if err != nil || !r.Details.Waiting {
			t.Fatalf("tty %v: %v %+v %q", in.TTY, err, r.Details, r.Text)
		}
		target := filepath.Join(outside, "tty-"+strconv.FormatBool(in.TTY))
		w, err := ts.WriteStdin(context.Background(), spillway.WriteStdinInput{PID: r.Details.PID, Input: target + "\n"})
		if err != nil || w.Details.Running || !strings.Contains(w.Content, "wrote 1") || !denied(w.Text) {
			t.Errorf("tty %v: %v %+v %q", in.TTY, err, w.Details, w.Text)
		}
		if _, err := os.Stat(target); err == nil {
			t.Errorf("tty %v: a sandboxed command wrote %s", in.TTY, target)
		}
	}
}
