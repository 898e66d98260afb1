package spill

import (
	"bytes"
	"crypto/rand"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/spillway-dev/spillway/output"
)

// The store under a Pipeline, on bad input and bad disks.

func seq(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "%d\n", i)
	}
	return b.String()
}

func runPipeline(s *Store, lim output.Limits, in []byte) output.Result {
	p := output.New(output.Options{Limits: lim, Spill: s.Opener("bash", s.NextSeq(), "stdout")})
	for len(in) > 0 {
		n := min(len(in), 4096)
		p.Write(in[:n])
		in = in[n:]
	}
	p.Close()
	return p.Result()
}

func seqRange(from, to int) string {
	return strings.Join(strings.SplitAfter(seq(to), "\n")[from-1:to], "")
}

var tail10 = output.Limits{Strategy: output.Tail, MaxLines: 10, MaxBytes: 1000}

// The full sanitized stream lands in the file named by the notice; output
// that fits leaves no file and no directory.
func TestPipelineSpills(t *testing.T) {
	s := NewSession(Config{TempDir: t.TempDir()})
	defer s.Close()
	r := runPipeline(s, tail10, []byte(seq(5)))
	if r.FullOutputPath != "" || s.Dir() != "" {
		t.Fatalf("output that fits made %q in %q", r.FullOutputPath, s.Dir())
	}
	in := "\x1b[1mbold\x1b[0m\r\n" + seq(100)
	r = runPipeline(s, tail10, []byte(in))
	if got := readFile(t, r.FullOutputPath); got != "bold\n"+seq(100) {
		t.Fatalf("spill file holds %.40q", got)
	}
	if filepath.Base(r.FullOutputPath) != "bash-2-stdout.log" {
		t.Fatalf("path %q", r.FullOutputPath)
	}
	if want := "[stdout: showing lines 92-101 of 101. Full output: " + r.FullOutputPath + ". To see what was cut: read it with offset=1 limit=91]"; r.Notice("stdout") != want {
		t.Fatalf("notice %q", r.Notice("stdout"))
	}
}

// An unwritable TMPDIR: the result comes back whole and the notice says
// why the full output could not be saved.
func TestUnwritableTMPDIR(t *testing.T) {
	notDir := filepath.Join(t.TempDir(), "file")
	os.WriteFile(notDir, nil, 0o600)
	t.Setenv("TMPDIR", notDir) // os.TempDir(), the default, is now a file
	// Nor has the CLI a directory of the user's to go to instead.
	t.Setenv("XDG_RUNTIME_DIR", "")
	t.Setenv("XDG_CACHE_HOME", filepath.Join(notDir, "cache"))
	for name, s := range map[string]*Store{"session": NewSession(Config{}), "cli": NewCLI(Config{})} {
		r := runPipeline(s, tail10, []byte(seq(100)))
		if r.Tail != seqRange(91, 100) {
			t.Fatalf("%s: tail %q", name, r.Tail)
		}
		n := r.Notice("stdout")
		if !strings.HasPrefix(n, "[stdout: showing lines 91-100 of 100. Full output could not be saved: ") ||
			!strings.Contains(n, "not a directory") || r.FullOutputPath != "" {
			t.Fatalf("%s: notice %q", name, n)
		}
		s.Close()
	}
}

// A disk that fills up part way: what was saved stays and is named, the
// notice says the rest could not be saved.
func TestDiskFull(t *testing.T) {
	s := NewSession(Config{TempDir: t.TempDir(), OpenFile: func(name string, flag int, perm os.FileMode) (WriteFile, error) {
		f, err := os.OpenFile(name, flag, perm)
		if err != nil {
			return nil, err
		}
		f.Close()
		return &failingFile{limit: 100, err: &os.PathError{Op: "write", Path: name, Err: syscall.ENOSPC}}, nil
	}})
	defer s.Close()
	r := runPipeline(s, tail10, []byte(seq(1000)))
	if r.Tail != seqRange(991, 1000) {
		t.Fatalf("tail %q", r.Tail)
	}
	want := "Full output could not be saved: write " + r.FullOutputPath + ": no space left on device (what was saved is in " + r.FullOutputPath + "). To see what was cut: read it with offset=1 limit=990]"
	if !strings.HasSuffix(r.Notice("stdout"), want) {
		t.Fatalf("notice %q", r.Notice("stdout"))
	}
}

// /dev/full as the spill file: every write fails at once.
func TestDevFull(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full")
	}
	s := NewSession(Config{TempDir: t.TempDir(), OpenFile: func(string, int, os.FileMode) (WriteFile, error) {
		return os.OpenFile("/dev/full", os.O_WRONLY, 0)
	}})
	defer s.Close()
	r := runPipeline(s, tail10, []byte(seq(1000)))
	if r.Truncation.TotalLines != 1000 || !strings.Contains(r.Notice("stdout"), "Full output could not be saved: write /dev/full: no space left on device") {
		t.Fatalf("notice %q", r.Notice("stdout"))
	}
}

// 200 KB of random bytes: a binary notice, and the spill file holds the
// raw bytes.
func TestBinaryRawBytesInFile(t *testing.T) {
	raw := make([]byte, 200<<10)
	rand.Read(raw)
	s := NewSession(Config{TempDir: t.TempDir()})
	defer s.Close()
	r := runPipeline(s, output.DefaultLimits, raw)
	if !r.Binary || r.Text() != "" {
		t.Fatalf("binary %v, text %d bytes", r.Binary, len(r.Text()))
	}
	if got, _ := os.ReadFile(r.FullOutputPath); !bytes.Equal(got, raw) {
		t.Fatalf("spill file holds %d bytes, not the raw %d", len(got), len(raw))
	}
	if want := fmt.Sprintf("[binary output: %d bytes. Full output: %s]", len(raw), r.FullOutputPath); r.Notice("stdout") != want {
		t.Fatalf("notice %q", r.Notice("stdout"))
	}
}

// Writes that fail with an error other than the cap are not retried.
func TestSpillErrorIsSticky(t *testing.T) {
	boom := errors.New("boom")
	ff := &failingFile{limit: 10, err: boom}
	s := NewSession(Config{TempDir: t.TempDir(), OpenFile: func(name string, flag int, perm os.FileMode) (WriteFile, error) {
		return ff, nil
	}})
	defer s.Close()
	f, _ := s.Create("x.log")
	if _, err := f.Write(make([]byte, 20)); !errors.Is(err, boom) {
		t.Fatal(err)
	}
	if n, err := f.Write([]byte("y")); n != 0 || !errors.Is(err, boom) || ff.n != 10 {
		t.Fatalf("write after an error: %d, %v", n, err)
	}
}
