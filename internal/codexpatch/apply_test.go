package codexpatch

import (
	"strings"
	"testing"
)

func wrap(body string) string { return "*** Begin Patch\n" + body + "\n*** End Patch" }

// update parses a patch of one update hunk and applies it to in.
func update(t *testing.T, in, body string) (string, error) {
	t.Helper()
	p, err := Parse(wrap("*** Update File: f\n" + body))
	if err != nil {
		t.Fatal(err)
	}
	out, err := ApplyUpdate([]byte(in), p.Hunks[0])
	return string(out), err
}

// Codex's own unit cases (codex-rs/apply-patch/src/lib.rs), as data, and
// spillway's for what it keeps.
func TestApplyUpdate(t *testing.T) {
	for _, c := range []struct{ name, in, patch, want string }{
		{"modifies content", "foo\nbar\n", "@@\n foo\n-bar\n+baz", "foo\nbaz\n"},
		{"multiple chunks", "foo\nbar\nbaz\nqux\n", "@@\n foo\n-bar\n+BAR\n@@\n baz\n-qux\n+QUX", "foo\nBAR\nbaz\nQUX\n"},
		{"interleaved", "a\nb\nc\nd\ne\nf\n", "@@\n a\n-b\n+B\n@@\n c\n d\n-e\n+E\n@@\n f\n+g\n*** End of File", "a\nB\nc\nd\nE\nf\ng\n"},
		{"pure addition then removal", "line1\nline2\nline3\n", "@@\n+after-context\n+second-line\n@@\n line1\n-line2\n-line3\n+line2-replacement", "line1\nline2-replacement\nafter-context\nsecond-line\n"},
		{"unicode dash", "import asyncio  # local import \u2013 avoids top\u2011level dep\n", "@@\n-import asyncio  # local import - avoids top-level dep\n+import asyncio  # HELLO", "import asyncio  # HELLO\n"},
		{"first line", "foo\nbar\nbaz\n", "@@\n-foo\n+FOO\n bar\n", "FOO\nbar\nbaz\n"},
		{"last line", "foo\nbar\nbaz\n", "@@\n foo\n bar\n-baz\n+BAZ\n", "foo\nbar\nBAZ\n"},
		{"insert at eof", "foo\nbar\nbaz\n", "@@\n+quux\n*** End of File\n", "foo\nbar\nbaz\nquux\n"},
		{"crlf kept", "a\r\nb\r\nc\r\n", "@@\n a\n-b\n+B\n@@\n c\n+d\n*** End of File", "a\r\nB\r\nc\r\nd\r\n"},
		{"embedded cr kept", "foo\r\r\nbar\r\n", "@@\n+BAZ\n*** End of File", "foo\r\r\nbar\r\nBAZ\r\n"},
		{"no final newline kept", "a\nb", "@@\n a\n-b\n+B", "a\nB"},
		{"append to no final newline", "a\nb", "@@\n b\n+c", "a\nb\nc"},
		{"bom kept", "\uFEFFa\nb\n", "@@\n-a\n+A", "\uFEFFA\nb\n"},
		{"context line located", "x\ndef f():\n    pass\ndef g():\n    pass\n", "@@ def g():\n-    pass\n+    return 1", "x\ndef f():\n    pass\ndef g():\n    return 1\n"},
		{"kept lines stay byte for byte", "a  \nb\n", "@@\n a\n-b\n+B", "a  \nB\n"},
		{"addition after context", "a\nb\nc\n", "@@ a\n+x", "a\nx\nb\nc\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := update(t, c.in, c.patch)
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

func TestApplyUpdateErrors(t *testing.T) {
	for _, c := range []struct{ name, in, patch, want string }{
		{"missing lines", "line1\nline2\n", "@@\n-missing\n+changed", "does not match the file"},
		{"missing context", "a\n", "@@ nowhere\n-a\n+b", `cannot find its @@ line "nowhere"`},
		{"not at end", "a\nb\n", "@@\n-a\n+A\n*** End of File", "end of the file"},
		{"closest shown", "func main() {\n\tfmt.Println(\"hi\")\n}\n", "@@\n-\tfmt.Println(\"hello\")\n+x", "2\t\tfmt.Println(\"hi\")"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := update(t, c.in, c.patch)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v, want %q", err, c.want)
			}
		})
	}
}

func TestParse(t *testing.T) {
	p, err := Parse(wrap("*** Add File: path/add.py\n+abc\n+def\n*** Delete File: path/delete.py\n*** Update File: path/update.py\n*** Move to: path/update2.py\n@@ def f():\n-    pass\n+    return 123"))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Hunks) != 3 || p.Hunks[0].Kind != Add || string(AddContent(p.Hunks[0])) != "abc\ndef\n" ||
		p.Hunks[1].Kind != Delete || p.Hunks[1].Path != "path/delete.py" ||
		p.Hunks[2].MoveTo != "path/update2.py" || p.Hunks[2].Chunks[0].Context != "def f():" {
		t.Fatalf("parsed %+v", p.Hunks)
	}
	// Heredoc wrapper, padding, CRLF, a first chunk without @@.
	for _, s := range []string{
		"<<'EOF'\n*** Begin Patch\n*** Add File: foo\n+hi\n*** End Patch\nEOF\n",
		"  *** Begin Patch \r\n*** Add File: foo\r\n+hi\r\n *** End Patch",
	} {
		p, err := Parse(s)
		if err != nil || len(p.Hunks) != 1 || string(AddContent(p.Hunks[0])) != "hi\n" {
			t.Errorf("%q: %v %+v", s, err, p)
		}
	}
	p, err = Parse(wrap("*** Update File: file2.py\n import foo\n+bar"))
	if err != nil || len(p.Hunks[0].Chunks) != 1 || strings.Join(p.Hunks[0].Chunks[0].New(), ",") != "import foo,bar" {
		t.Fatalf("%v %+v", err, p)
	}
	for _, c := range []struct{ in, want string }{
		{"bad", "first line of the patch must be '*** Begin Patch'"},
		{"*** Begin Patch\nbad", "last line of the patch must be '*** End Patch'"},
		{wrap("*** Update File: test.py"), "has no change"},
		{wrap(""), "changes no file"},
		{wrap("*** Frobnicate File: foo"), "is not a hunk header"},
		{wrap("*** Update File: a\n@@\n-x\nbad"), ""},
	} {
		_, err := Parse(c.in)
		if c.want == "" {
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %q", c.in, err, c.want)
		}
	}
}
