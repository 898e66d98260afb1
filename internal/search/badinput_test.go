package search

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/spillway-dev/spillway/internal/hermetic"
	"github.com/spillway-dev/spillway/tool"
)

// permHelperEnv makes the test binary run permHelper instead of the tests:
// the permission test runs it as an unprivileged user, since root reads
// every file whatever its mode.
const permHelperEnv = "SPILLWAY_SEARCH_PERM_HELPER"

func TestMain(m *testing.M) {
	if dir := os.Getenv(permHelperEnv); dir != "" {
		permHelper(dir)
		return
	}
	hermetic.Main(m)
}

// permResults are the outcomes of the searches, which a helper process
// may run and send back as JSON: errors as their text.
type permResults struct {
	Grep               Found
	Find               Names
	GrepErr, FindErr   string
	GrepRoot, GrepFile string // errors
	FindRoot           string // error
}

func permSearch(dir string) permResults {
	s := New(Config{Cwd: dir})
	ctx := context.Background()
	var r permResults
	var err error
	r.Grep, err = s.Grep(ctx, tool.GrepInput{Pattern: "needle"})
	r.GrepErr = errText(err)
	r.Find, err = s.Find(ctx, tool.FindInput{Pattern: "*"})
	r.FindErr = errText(err)
	_, err = s.Grep(ctx, tool.GrepInput{Pattern: "needle", Path: "secret"})
	r.GrepRoot = errText(err)
	_, err = s.Grep(ctx, tool.GrepInput{Pattern: "needle", Path: "locked.txt"})
	r.GrepFile = errText(err)
	_, err = s.Find(ctx, tool.FindInput{Pattern: "*", Path: "secret"})
	r.FindRoot = errText(err)
	return r
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func permHelper(dir string) {
	if err := json.NewEncoder(os.Stdout).Encode(permSearch(dir)); err != nil {
		os.Exit(3)
	}
	os.Exit(0)
}

// worldDir is a temporary directory that any user may enter.
func worldDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "spillway-search-perm-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		filepath.Walk(dir, func(p string, _ os.FileInfo, _ error) error { os.Chmod(p, 0o755); return nil })
		os.RemoveAll(dir)
	})
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestPermissionDenied: an unreadable file and an unreadable directory are
// skipped and named; the call does not fail.
func TestPermissionDenied(t *testing.T) {
	dir := worldDir(t)
	writeTree(t, dir, map[string]string{"open/a.txt": "needle\n", "secret/b.txt": "needle\n", "locked.txt": "needle\n"})
	for _, p := range []string{"secret", "locked.txt"} {
		if err := os.Chmod(filepath.Join(dir, p), 0); err != nil {
			t.Fatal(err)
		}
	}
	var res permResults
	if os.Geteuid() != 0 {
		res = permSearch(dir)
	} else {
		// Run the search as nobody, from a copy of this test binary that
		// nobody may execute.
		self, err := os.Executable()
		if err != nil {
			t.Skip(err)
		}
		binDir := worldDir(t)
		bin := filepath.Join(binDir, "search.test")
		copyFile(t, self, bin)
		cmd := exec.Command(bin, "-test.run=^$")
		cmd.Env = append(os.Environ(), permHelperEnv+"="+dir)
		cmd.SysProcAttr = asNobody()
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("helper as nobody: %v\n%s", err, stderr.String())
		}
		if err := json.Unmarshal(out, &res); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
	}
	g := res.Grep
	skipped := []string{"locked.txt (permission denied)", "secret/ (permission denied)"}
	if res.GrepErr != "" || shown(g.Lines) != "open/a.txt:1: needle" || !slices.Equal(g.Skipped, skipped) || g.SkippedCount != 2 {
		t.Errorf("grep: %+v\nwant skipped %q", g, skipped)
	}
	f := res.Find
	if res.FindErr != "" || shown(f.Lines) != "locked.txt\nopen/\nopen/a.txt\nsecret/" || !slices.Equal(f.Skipped, skipped[1:]) || f.SkippedCount != 1 || f.Count != 4 {
		t.Errorf("find: %+v\nwant skipped %q", f, skipped[1:])
	}
	// An unreadable directory asked for by name is an error.
	if e := res.GrepRoot; e != "grep: cannot read secret: permission denied" {
		t.Errorf("grep path=secret: %q", e)
	}
	if e := res.GrepFile; e != "grep: cannot read locked.txt: permission denied" {
		t.Errorf("grep path=locked.txt: %q", e)
	}
	if e := res.FindRoot; e != "find: cannot read secret: permission denied" {
		t.Errorf("find path=secret: %q", e)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	src, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		t.Fatal(err)
	}
}

// writeLongLine writes a file whose first line is size bytes of 'a' with
// marker at offset at, then "\n" and tail.
func writeLongLine(t *testing.T, path string, size, at int64, marker, tail string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	chunk := bytes.Repeat([]byte{'a'}, 16<<20)
	for off := int64(0); off < size; {
		n := min(int64(len(chunk)), size-off)
		b := chunk[:n]
		if at >= off && at < off+n {
			b = bytes.Clone(b)
			copy(b[at-off:], marker)
		}
		if _, err := f.Write(b); err != nil {
			t.Fatal(err)
		}
		off += n
	}
	if _, err := f.WriteString("\n" + tail); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestGrepOneGiBLine: a 1 GiB single-line file is searched in bounded
// memory; the match is shown cut, and later lines keep their numbers.
func TestGrepOneGiBLine(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 1 GiB")
	}
	root := memDir(t, 1<<30+1<<20)
	writeLongLine(t, filepath.Join(root, "huge.txt"), 1<<30, 900<<20, "needle", "needle 2\n")
	s := newTestSearcher(t, root)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	r := grep(t, s, query(t, "needle", tool.GrepInput{}))
	runtime.ReadMemStats(&after)
	want := "huge.txt:1: " + strings.Repeat("a", 500) + "... [truncated]\nhuge.txt:2: needle 2"
	if shown(r.Lines) != want || len(r.Cut) != 1 || r.Cut[0] != (LineRef{Path: filepath.Join(root, "huge.txt"), Line: 1}) || r.MaxLineChars != 500 {
		t.Errorf("got %.200q… cut %+v", shown(r.Lines), r.Cut)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<20 {
		t.Errorf("grep allocated %d MiB on a 1 GiB line", alloc>>20)
	}
	// A regexp whose literal is absent never runs over the line.
	if r := grep(t, s, query(t, `zq+x\d`, tool.GrepInput{})); r.Count != 0 {
		t.Errorf("absent literal: %q", shown(r.Lines))
	}
}

// TestGrepRegexpOnHugeLine: a regexp that needs more than its literals is
// run over a line longer than the read buffer as a stream.
func TestGrepRegexpOnHugeLine(t *testing.T) {
	root := t.TempDir()
	size := int64(maxBuffer + 1<<20)
	writeLongLine(t, filepath.Join(root, "long.txt"), size, size-10, "key=42", "key=x\nkey=7\n")
	s := newTestSearcher(t, root)
	r := grep(t, s, query(t, `key=\d+`, tool.GrepInput{OutputMode: ModeCount}))
	if shown(r.Lines) != "long.txt:2" {
		t.Errorf("count: %q", shown(r.Lines))
	}
	r = grep(t, s, query(t, `^a+key=\d+a*$`, tool.GrepInput{}))
	if text := shown(r.Lines); !strings.HasPrefix(text, "long.txt:1: aaaa") || strings.Contains(text, "long.txt:3") {
		t.Errorf("anchored: %.100q", text)
	}
	r = grep(t, s, query(t, `key=\d+`, tool.GrepInput{Context: 1}))
	lines := strings.Split(shown(r.Lines), "\n")
	if len(lines) < 3 || !strings.HasPrefix(lines[0], "long.txt:1: aaa") || lines[1] != "long.txt-2- key=x" || lines[2] != "long.txt:3: key=7" {
		t.Errorf("context: %.300q", lines)
	}
	// Cancelled while streaming: the call stops.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.Grep(ctx, query(t, `key=\d+`, tool.GrepInput{})); err == nil {
		t.Errorf("cancelled: %q", err)
	}
}
