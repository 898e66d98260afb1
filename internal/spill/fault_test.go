package spill_test

// Fault injection: a spill store whose disk fails — ENOSPC,
// EACCES, short writes, a failing close, a directory that cannot be made —
// still lets every tool result come back whole (the same text as with a
// healthy disk), says in the notice what was lost, and never hangs.

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/spillway-dev/spillway/internal/policy"
	"github.com/spillway-dev/spillway/internal/shell"
	"github.com/spillway-dev/spillway/internal/spill"
	"github.com/spillway-dev/spillway/output"
	"github.com/spillway-dev/spillway/tool"
)

// A fault says how the disk fails.
type fault struct {
	name string
	// openErr fails the creation of the spill file.
	openErr error
	// room is how many bytes the file takes before writes fail (< 0: no
	// limit). A write that does not fit writes what fits and returns
	// writeErr — or, with writeErr nil, reports the short count alone.
	room     int64
	writeErr error
	closeErr error
	// reason is what the notice must say after "could not be saved: ".
	reason string
	// saved is true when part of the output reached the file, which the
	// notice must then name.
	saved bool
}

var faults = []fault{
	{name: "ENOSPC at create", openErr: syscall.ENOSPC, room: -1, reason: "no space left on device"},
	{name: "EACCES at create", openErr: syscall.EACCES, room: -1, reason: "permission denied"},
	{name: "ENOSPC midway", room: 10_000, writeErr: syscall.ENOSPC, reason: "no space left on device", saved: true},
	{name: "ENOSPC at once", room: 0, writeErr: syscall.ENOSPC, reason: "no space left on device", saved: true},
	{name: "EACCES midway", room: 70_000, writeErr: syscall.EACCES, reason: "permission denied", saved: true},
	{name: "short write", room: 30_000, reason: "short write", saved: true},
	{name: "EIO at close", room: -1, closeErr: syscall.EIO, reason: "input/output error", saved: true},
}

// faultyFile is a real file that fails as its fault says.
type faultyFile struct {
	f      *os.File
	fault  fault
	mu     sync.Mutex
	writes int // calls after the first failure
	failed bool
}

func (w *faultyFile) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.failed {
		w.writes++
	}
	if w.fault.room < 0 || int64(len(p)) <= w.fault.room {
		n, err := w.f.Write(p)
		if w.fault.room >= 0 {
			w.fault.room -= int64(n)
		}
		return n, err
	}
	n, _ := w.f.Write(p[:w.fault.room])
	w.fault.room = 0
	w.failed = true
	return n, w.fault.writeErr
}

func (w *faultyFile) Close() error {
	err := w.f.Close()
	if w.fault.closeErr != nil {
		return w.fault.closeErr
	}
	return err
}

// faultyConfig returns a store config whose files fail as fl says, and
// the files it made.
func faultyConfig(t *testing.T, fl fault) (spill.Config, *[]*faultyFile) {
	var mu sync.Mutex
	var files []*faultyFile
	return spill.Config{
		TempDir: t.TempDir(),
		OpenFile: func(name string, flag int, perm os.FileMode) (spill.WriteFile, error) {
			if fl.openErr != nil {
				return nil, &os.PathError{Op: "open", Path: name, Err: fl.openErr}
			}
			f, err := os.OpenFile(name, flag, perm)
			if err != nil {
				return nil, err
			}
			w := &faultyFile{f: f, fault: fl}
			mu.Lock()
			files = append(files, w)
			mu.Unlock()
			return w, nil
		},
	}, &files
}

// within fails the test if f has not returned after a generous time: a
// fault must never hang a call.
func within(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatalf("%s hung", what)
	}
}

// lines returns "line 1\n" … "line n\n".
func lines(n int) []byte {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return []byte(b.String())
}

// pipe runs data through a Pipeline that spills into store, in 4 KiB
// writes, and returns the result.
func pipe(store *spill.Store, data []byte) output.Result {
	p := output.New(output.Options{Limits: output.DefaultLimits, Spill: store.Opener("bash", store.NextSeq(), "stdout")})
	for len(data) > 0 {
		n := min(len(data), 4096)
		p.Write(data[:n])
		data = data[n:]
	}
	p.Close()
	return p.Result()
}

func TestPipelineSurvivesSpillFaults(t *testing.T) {
	for _, stream := range []struct {
		name string
		data []byte
	}{
		{"text", lines(20_000)}, // 228 KB: cut by bytes and lines
		{"binary", append(bytes.Repeat([]byte{0, 1, 2, 0xff}, 3000), lines(20_000)...)},
	} {
		healthy := spill.NewSession(spill.Config{TempDir: t.TempDir()})
		want := pipe(healthy, stream.data)
		healthy.Close()
		if want.FullOutputPath == "" || want.SpillError != "" {
			t.Fatalf("%s: the healthy run did not spill: %+v", stream.name, want)
		}
		for _, fl := range faults {
			t.Run(stream.name+"/"+fl.name, func(t *testing.T) {
				cfg, files := faultyConfig(t, fl)
				store := spill.NewSession(cfg)
				defer store.Close()
				var got output.Result
				within(t, "the pipeline", func() { got = pipe(store, stream.data) })

				// The result comes back as if the disk were healthy…
				if got.Text() != want.Text() || got.Truncation != want.Truncation {
					t.Errorf("the result changed:\n got %+v\nwant %+v", got.Truncation, want.Truncation)
				}
				// …and the notice says what was lost.
				notice := got.Notice("stdout")
				if !strings.Contains(notice, "Full output could not be saved: ") || !strings.Contains(notice, fl.reason) {
					t.Errorf("notice %q does not say the output was lost (%s)", notice, fl.reason)
				}
				if !fl.saved {
					if strings.Contains(notice, "what was saved") {
						t.Errorf("notice %q names a file that was never made", notice)
					}
					return
				}
				if len(*files) != 1 {
					t.Fatalf("%d spill files made, want 1", len(*files))
				}
				f := (*files)[0]
				if !strings.Contains(notice, "(what was saved is in "+got.FullOutputPath+")") {
					t.Errorf("notice %q does not name the partial file", notice)
				}
				// What was saved is exactly the start of the full output.
				saved, err := os.ReadFile(got.FullOutputPath)
				if err != nil {
					t.Fatal(err)
				}
				full := stream.data
				if fl.room >= 0 && fl.closeErr == nil && int64(len(saved)) != fl.room {
					t.Errorf("saved %d bytes, the disk took %d", len(saved), fl.room)
				}
				if !strings.HasPrefix(string(full), string(saved)) {
					t.Errorf("the saved bytes are not the start of the output")
				}
				if f.writes > 0 {
					t.Errorf("%d writes after the failure: the pipeline kept hammering a failed disk", f.writes)
				}
			})
		}
	}
}

// TestSpillDirectoryCannotBeMade: the temp directory is not a directory
// (as a read-only or broken tmp): the result still comes back.
func TestSpillDirectoryCannotBeMade(t *testing.T) {
	notDir := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(notDir, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	store := spill.NewSession(spill.Config{TempDir: notDir})
	defer store.Close()
	var got output.Result
	within(t, "the pipeline", func() { got = pipe(store, lines(20_000)) })
	notice := got.Notice("stdout")
	if got.Head == "" || !strings.Contains(notice, "Full output could not be saved: ") || !strings.Contains(notice, "not a directory") {
		t.Errorf("head %d bytes, notice %q", len(got.Head), notice)
	}
}

// TestBashSurvivesSpillFaults runs real commands through the shell with
// a failing disk: each call returns its output, its exit code and a notice
// of the loss; background jobs and check_pid work on; nothing hangs.
func TestBashSurvivesSpillFaults(t *testing.T) {
	for _, fl := range faults {
		t.Run(fl.name, func(t *testing.T) {
			cfg, _ := faultyConfig(t, fl)
			store := spill.NewSession(cfg)
			defer store.Close()
			r := shell.NewRunner(shell.Config{Cwd: t.TempDir(), ResultBudget: policy.DefaultResultBudget, Spill: store, Render: sections})
			defer r.Close()
			ctx := context.Background()
			var res shell.Outcome
			var err error
			within(t, "bash", func() {
				res, err = r.Run(ctx, tool.BashInput{Command: "seq 1 200000; seq 1 50000 >&2; exit 3"})
			})
			if err != nil {
				t.Fatal(err)
			}
			if res.Details.ExitCode == nil || *res.Details.ExitCode != 3 || !res.Failed {
				t.Errorf("exit code lost: %+v", res.Details)
			}
			for _, want := range []string{"stdout:\n1\n2\n", "\n200000\n", "stderr:\n1\n", "\n50000\n", "exit code: 3",
				"[stdout: showing lines 1-", "[stderr: showing lines 1-", "Full output could not be saved: ", fl.reason} {
				if !strings.Contains(res.Text, want) {
					t.Errorf("the result lacks %q:\n%s", want, clip(res.Text))
				}
			}
			if n := strings.Count(res.Text, "Full output could not be saved"); n != 2 {
				t.Errorf("%d loss notices, want one per stream", n)
			}

			// A command that times out into the background keeps running
			// and check_pid still reports it.
			within(t, "bash timeout", func() {
				res, err = r.Run(ctx, tool.BashInput{Command: "seq 1 100000; sleep 30", Timeout: 300 * time.Millisecond})
			})
			if !res.Details.Backgrounded || res.Details.PID == 0 {
				t.Fatalf("not backgrounded: %+v\n%s", res.Details, clip(res.Text))
			}
			within(t, "kill_pid", func() {
				res, err = r.Kill(ctx, res.Details.PID)
			})
			if err != nil || res.Details.Running {
				t.Errorf("still running after kill_pid: %+v", res.Details)
			}
		})
	}
}

// sections lays a page out as the checks above read it: each stream as
// "label:", its lines and its notice, then the exit. (The root's layout
// is spillway's own; this package's tests cannot import it.)
func sections(p shell.Page) string {
	var b strings.Builder
	for _, s := range []struct {
		label string
		r     *output.Result
	}{{"stdout", &p.Stdout}, {"stderr", p.Stderr}} {
		if s.r == nil {
			continue
		}
		b.WriteString(s.label + ":\n" + s.r.Text())
		b.WriteString(s.r.Notice(s.label) + "\n")
	}
	if p.Exit != nil {
		b.WriteString(p.Exit.String())
	}
	return b.String()
}

func clip(s string) string {
	if len(s) > 2000 {
		return s[:1000] + "\n…\n" + s[len(s)-1000:]
	}
	return s
}

var _ io.Writer = (*faultyFile)(nil)
