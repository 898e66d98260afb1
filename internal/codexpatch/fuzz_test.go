package codexpatch

import (
	"bytes"
	"errors"
	"testing"

	"github.com/spillway-dev/spillway/internal/textedit"
)

// The parser and the applier never panic, whatever the patch and file;
// a parse error is a *ParseError, a *LimitError or ErrNoHunks; an update that applies
// keeps the file's BOM and its final line end (or its absence), and one
// whose chunks only keep lines gives the file back byte for byte.
func FuzzParseApply(f *testing.F) {
	f.Add("*** Begin Patch\n*** Update File: f\n@@ x\n a\n-b\n+c\n*** End of File\n*** End Patch", []byte("x\na\nb\n"))
	f.Add("<<'EOF'\n*** Begin Patch\n*** Add File: f\n+x\n*** End Patch\nEOF", []byte(""))
	f.Add("*** Begin Patch\n*** Update File: f\n*** Move to: g\n@@\n-\n+\n\n*** Delete File: h\n*** End Patch", []byte("\r\n\r\n"))
	f.Add("*** Begin Patch\n*** Update File: f\n@@\n a\n b\n*** End Patch", []byte("\uFEFFa\r\nb"))
	f.Add("*** Begin Patch\r\n*** Update File: f\r\n a\r\n-b  \r\n+c\r\n*** End Patch\r\n", []byte("a\nb\nc"))
	f.Add("*** Begin Patch\n*** Update File: f\n@@ def g\n+x\n@@\n-\u201cq\u201d\n+q\n*** End Patch", []byte("def g\n\"q\"\n"))
	f.Fuzz(func(t *testing.T, patch string, file []byte) {
		p, err := Parse(patch)
		if err != nil {
			var pe *ParseError
			var le *LimitError
			if !errors.As(err, &pe) && !errors.As(err, &le) && !errors.Is(err, ErrNoHunks) {
				t.Fatalf("parse error of type %T: %v", err, err)
			}
			return
		}
		if len(p.Hunks) == 0 {
			t.Fatal("a patch parsed with no hunk")
		}
		keep := bytes.Clone(file)
		for _, h := range p.Hunks {
			if h.Path == "" {
				t.Fatalf("hunk at line %d has no path", h.Line)
			}
			if h.Kind != Update {
				continue
			}
			out, err := ApplyUpdate(file, h)
			if !bytes.Equal(file, keep) {
				t.Fatal("ApplyUpdate changed its input")
			}
			if err != nil {
				var ce *ChunkError
				if !errors.As(err, &ce) {
					t.Fatalf("apply error of type %T: %v", err, err)
				}
				continue
			}
			if bytes.HasPrefix(file, textedit.BOM) && !bytes.HasPrefix(out, textedit.BOM) {
				t.Fatalf("the BOM was lost: %q became %q", file, out)
			}
			body := bytes.TrimPrefix(file, textedit.BOM)
			outBody := bytes.TrimPrefix(out, textedit.BOM)
			// A file with a final line end keeps one; one without keeps
			// none, unless its last line is now an empty line the patch
			// added (an empty last line without a line end is the one
			// before it ending).
			hadEnd := len(body) > 0 && body[len(body)-1] == '\n'
			hasEnd := len(outBody) > 0 && outBody[len(outBody)-1] == '\n'
			if len(body) > 0 && len(outBody) > 0 && hadEnd != hasEnd && (hadEnd || !addsEmpty(h)) {
				t.Fatalf("the final line end changed: %q became %q", file, out)
			}
			if onlyKept(h) && !bytes.Equal(out, file) {
				t.Fatalf("chunks that only keep lines changed %q into %q", file, out)
			}
		}
	})
}

// addsEmpty reports whether h adds an empty line.
func addsEmpty(h Hunk) bool {
	for _, c := range h.Chunks {
		for _, op := range c.Ops {
			if op.Kind == '+' && op.Text == "" {
				return true
			}
		}
	}
	return false
}

// onlyKept reports whether every chunk of h only keeps lines.
func onlyKept(h Hunk) bool {
	for _, c := range h.Chunks {
		for _, op := range c.Ops {
			if op.Kind != ' ' {
				return false
			}
		}
	}
	return true
}

// ParseCall never panics; a call it recognizes carries a patch that is
// the heredoc's body, which the bare-patch test does not take for a
// script of its own.
func FuzzParseCall(f *testing.F) {
	f.Add("apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: f\n+x\n*** End Patch\nEOF\n")
	f.Add("cd sub && applypatch <<EOF\n*** Begin Patch\n*** Delete File: f\n*** End Patch\nEOF")
	f.Add("*** Begin Patch\n*** End Patch")
	f.Add("apply_patch <<-\"X\"\n\t*** Begin Patch\nX\n; rm -rf /")
	f.Fuzz(func(t *testing.T, script string) {
		c, ok := ParseCall(script)
		IsBarePatch(script)
		if !ok {
			if c != (Call{}) {
				t.Fatalf("not a call, yet %+v", c)
			}
			return
		}
		if !bytes.Contains([]byte(script), []byte(c.Patch)) && c.Patch != "" {
			// The body is the script's text (a <<- heredoc strips tabs).
			if !bytes.Contains(bytes.ReplaceAll([]byte(script), []byte("\t"), nil), bytes.ReplaceAll([]byte(c.Patch), []byte("\t"), nil)) {
				t.Fatalf("the patch %q is not in the script %q", c.Patch, script)
			}
		}
		Parse(c.Patch)
	})
}
