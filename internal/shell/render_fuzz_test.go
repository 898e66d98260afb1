package shell

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spillway-dev/spillway/output"
)

// splitLines is the reference: the stream's lines, '\n' kept, the last
// one without it when the stream does not end in one.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// FuzzRenderLines checks the selections a recorded stream is shown again
// with against a plain split of the stream, kept inline or read from a
// file: a range starts exactly at its line and holds whole lines within
// both limits; a tail ends at the last line; nothing is made up.
func FuzzRenderLines(f *testing.F) {
	f.Add("a\nb\nc\n", 2, 1, 100)
	f.Add("one\ntwo\nthree", 3, 5, 4)
	f.Add("\n\n\nx", 1, 2, 1)
	f.Add("héllo wörld\nünïcode\n", 1, 1, 3)
	f.Fuzz(func(t *testing.T, content string, offset, maxLines, maxBytes int) {
		if offset < 1 || maxLines < 1 || maxBytes < 1 || offset > 1<<20 || maxLines > 1<<20 || maxBytes > 1<<20 {
			return
		}
		ref := splitLines(content)
		path := filepath.Join(t.TempDir(), "spill.log")
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		n := int64(len(ref))
		for _, s := range []*streamData{
			{Stream: output.Stream{Bytes: int64(len(content)), Lines: n, Whole: []byte(content), HasWhole: true}, inline: true},
			{Stream: output.Stream{Bytes: int64(len(content)), Lines: n, SpillPath: path, Spilled: int64(len(content))}},
		} {
			src, err := openSource(s)
			if err != nil {
				if content == "" {
					continue
				}
				t.Fatal(err)
			}
			parts, err := src.lines(int64(offset), int64(maxLines), int64(maxBytes))
			switch {
			case int64(offset) > n:
				if err == nil {
					t.Errorf("offset %d past %d lines: no error", offset, n)
				}
			case err != nil:
				t.Errorf("offset %d: %v", offset, err)
			default:
				checkPart(t, ref, parts[0], offset, maxLines, maxBytes, false)
			}
			parts, err = src.last(int64(maxLines), int64(maxBytes))
			if err != nil {
				t.Fatalf("tail: %v", err)
			}
			if p := parts[0]; p.count > 0 {
				checkPart(t, ref, p, int(p.first), maxLines, maxBytes, true)
				if p.last != n {
					t.Errorf("tail ends at line %d of %d", p.last, n)
				}
			}
			src.close()
		}
	})
}

func checkPart(t *testing.T, ref []string, p part, first, maxLines, maxBytes int, tail bool) {
	t.Helper()
	if p.count > int64(maxLines) || len(p.text) > maxBytes {
		t.Fatalf("part of %d lines, %d bytes: over %d lines or %d bytes", p.count, len(p.text), maxLines, maxBytes)
	}
	if p.count == 0 {
		return
	}
	whole := strings.Join(ref[first-1:first-1+int(p.count)], "")
	switch {
	case p.text == whole:
	case p.count == 1 && !tail && strings.HasPrefix(whole, p.text) && len(whole) > maxBytes:
		// one line over the byte limit: its beginning
	case p.count == 1 && tail && strings.HasSuffix(whole, p.text) && len(whole) > maxBytes:
		// one last line over the byte limit: its end
	default:
		t.Fatalf("lines %d-%d: got %q, want %q", first, first+int(p.count)-1, p.text, whole)
	}
}

// FuzzSessionState feeds the state a shell's trap would write, and
// anything else, to a session: it never panics, and applies a state only
// when it is whole.
func FuzzSessionState(f *testing.F) {
	f.Add([]byte("/tmp\x00A=1\x00B=2\x00.\x00"))
	f.Add([]byte("/tmp\x00A=1"))
	f.Add([]byte("\x00\x00\x00"))
	f.Add([]byte("/\x00=x\x00BAD-NAME=1\x00PWD=/x\x00"))
	f.Fuzz(func(t *testing.T, state []byte) {
		file, err := os.CreateTemp(t.TempDir(), "state")
		if err != nil {
			t.Fatal(err)
		}
		file.Write(state)
		s := &session{name: "f", set: map[string]string{}, unset: map[string]bool{}}
		c := &sessionCall{s: s, dir: "/", env: []string{"KEEP=1", "GONE=1"}, state: file}
		c.finish()
		whole := bytes.HasSuffix(state, []byte("\x00.\x00"))
		if !whole && (len(s.set) > 0 || len(s.unset) > 0 || s.cwd != "") {
			t.Errorf("a state cut short was applied: %+v", s)
		}
		for k := range s.set {
			if ignoredVar(k) {
				t.Errorf("took %q", k)
			}
		}
	})
}
