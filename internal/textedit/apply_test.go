package textedit

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
)

func TestApply(t *testing.T) {
	for _, c := range []struct {
		name, in string
		edits    []Edit
		want     string
	}{
		{"one", "Hello, world!", []Edit{{OldString: "world", NewString: "testing"}}, "Hello, testing!"},
		{"crlf file, lf old", "first\r\nsecond\r\nthird\r\n", []Edit{{OldString: "second\n", NewString: "REPLACED\n"}}, "first\r\nREPLACED\r\nthird\r\n"},
		{"crlf old, lf file", "first\nsecond\nthird\n", []Edit{{OldString: "second\r\n", NewString: "a\r\nb\r\n"}}, "first\na\nb\nthird\n"},
		{"lf stays lf", "first\nsecond\nthird\n", []Edit{{OldString: "second\n", NewString: "REPLACED\n"}}, "first\nREPLACED\nthird\n"},
		{"bom kept", "\uFEFFfirst\r\nsecond\r\nthird\r\n", []Edit{{OldString: "second\n", NewString: "REPLACED\n"}}, "\uFEFFfirst\r\nREPLACED\r\nthird\r\n"},
		{"bom in old ignored", "\uFEFFfirst\n", []Edit{{OldString: "\uFEFFfirst", NewString: "1st"}}, "\uFEFF1st\n"},
		{"no newline", "single line content", []Edit{{OldString: "line", NewString: "LINE"}}, "single LINE content"},
		{"crlf without trailing", "hello world\r\ngoodbye world\r\n", []Edit{{OldString: "hello world", NewString: "HELLO WORLD"}}, "HELLO WORLD\r\ngoodbye world\r\n"},
		{"match begins at a crlf", "a\r\nb\r\n", []Edit{{OldString: "\nb", NewString: "\nB"}}, "a\r\nB\r\n"},
		{"replace all", "foo foo foo", []Edit{{OldString: "foo", NewString: "bar", ReplaceAll: true}}, "bar bar bar"},
		{"edits in order", "a b c", []Edit{{OldString: "a", NewString: "x"}, {OldString: "x b", NewString: "y"}}, "y c"},
		{"mixed endings untouched", "a\r\nb\nc\r\n", []Edit{{OldString: "b", NewString: "B"}}, "a\r\nB\nc\r\n"},
		{"tie takes lf", "a\r\nb\nc", []Edit{{OldString: "c", NewString: "c\nd"}}, "a\r\nb\nc\nd"},
		{"crlf dominant", "a\r\nb\r\nc\n", []Edit{{OldString: "c\n", NewString: "c\nd\n"}}, "a\r\nb\r\nc\r\nd\r\n"},
		{"latin-1 bytes kept", "caf\xe9 au lait\n\xff\n", []Edit{{OldString: "au", NewString: "with"}}, "caf\xe9 with lait\n\xff\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, _, err := Apply([]byte(c.in), c.edits)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

func TestApplyErrors(t *testing.T) {
	for _, c := range []struct {
		name, in string
		edits    []Edit
		want     []string
	}{
		{"missing", "Hello, world!", []Edit{{OldString: "nonexistent", NewString: "x"}}, []string{"Could not find the exact text", "nothing was changed"}},
		{"ambiguous", "foo foo foo", []Edit{{OldString: "foo", NewString: "bar"}}, []string{"Found 3 occurrences", "at line 1;"}},
		{"ambiguous lines", "x\nfoo\ny\nfoo\n", []Edit{{OldString: "foo", NewString: "bar"}}, []string{"Found 2 occurrences", "lines 2, 4", "replace_all"}},
		{"across crlf and lf", "hello\r\nworld\r\n---\r\nhello\nworld\n", []Edit{{OldString: "hello\nworld\n", NewString: "replaced\n"}}, []string{"Found 2 occurrences", "lines 1, 4"}},
		{"many", strings.Repeat("a\n", 9), []Edit{{OldString: "a", NewString: "b"}}, []string{"Found 9 occurrences", "lines 1, 2, 3, 4, 5 and 4 more"}},
		{"closest", "func main() {\n\tfmt.Println(\"hi\")\n}\n", []Edit{{OldString: "fmt.Println(\"hello\")", NewString: "x"}}, []string{"closest lines are line 2", "2\t\tfmt.Println(\"hi\")"}},
		{"second edit", "a b", []Edit{{OldString: "a", NewString: "x"}, {OldString: "a", NewString: "y"}}, []string{"edits[1].old_string", "after edits[0..0] were applied"}},
		{"empty old", "a", []Edit{{OldString: "", NewString: "x"}}, []string{"old_string is empty"}},
		{"same", "a", []Edit{{OldString: "a", NewString: "a"}}, []string{"the same"}},
		{"none", "a", nil, []string{"no edit given"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := Apply([]byte(c.in), c.edits)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

// Apply's steps name the replaced ranges, and every byte outside them is
// the input's.
func TestApplyRangesAreTheOnlyChange(t *testing.T) {
	in := []byte("\uFEFFone\r\ntwo\r\nthree two\r\n")
	out, steps, err := Apply(in, []Edit{{OldString: "two\n", NewString: "2\n", ReplaceAll: true}})
	if err != nil {
		t.Fatal(err)
	}
	checkOutside(t, in, out, steps[0])
}

func checkOutside(t testing.TB, in, out []byte, st Step) {
	t.Helper()
	var want []byte
	var last int64
	for _, r := range st.Ranges {
		if r.Start < last || r.End < r.Start || r.End > int64(len(in)) {
			t.Fatalf("bad range %v after %d in %d bytes", r, last, len(in))
		}
		want = append(want, in[last:r.Start]...)
		want = append(want, st.New...)
		last = r.End
	}
	want = append(want, in[last:]...)
	if !bytes.Equal(want, out) {
		t.Fatalf("bytes outside the matched ranges changed:\n in %q\nout %q\nwant %q", in, out, want)
	}
}

func TestStreamMatchesApply(t *testing.T) {
	for _, c := range []struct {
		in string
		e  Edit
	}{
		{"first\r\nsecond\r\nthird\r\n", Edit{OldString: "second\n", NewString: "REPLACED\n"}},
		{"\uFEFFa\nb\n", Edit{OldString: "a", NewString: "A"}},
		{strings.Repeat("x", streamBlock-1) + "\r\nneedle\r\n" + strings.Repeat("y", 3*streamBlock), Edit{OldString: "\nneedle\n", NewString: "\nfound\n"}},
		{strings.Repeat("ab", streamBlock) + "needle", Edit{OldString: "needle", NewString: "n"}},
		{strings.Repeat("needle ", 1000), Edit{OldString: "needle", NewString: "n", ReplaceAll: true}},
	} {
		want, _, werr := Apply([]byte(c.in), []Edit{c.e})
		var got bytes.Buffer
		st, err := Stream(context.Background(), strings.NewReader(c.in), &got, c.e, EOL([]byte(c.in)), nil)
		if (err == nil) != (werr == nil) {
			t.Fatalf("stream error %v, apply error %v", err, werr)
		}
		if err == nil && !bytes.Equal(got.Bytes(), want) {
			t.Errorf("stream gave %q…, apply %q…", clipb(got.Bytes()), clipb(want))
		}
		if err == nil {
			checkOutside(t, []byte(c.in), got.Bytes(), st)
		}
	}
}

func TestStreamErrors(t *testing.T) {
	in := strings.Repeat("line\n", 3*streamBlock/5)
	_, err := Stream(context.Background(), strings.NewReader(in), &bytes.Buffer{}, Edit{OldString: "line", NewString: "x"}, "\n", nil)
	var me *MatchError
	if !errors.As(err, &me) || me.Count != 3*streamBlock/5 || len(me.Lines) != maxLinesShown || me.Lines[4] != 5 {
		t.Fatalf("got %v", err)
	}
	_, err = Stream(context.Background(), strings.NewReader(in), &bytes.Buffer{}, Edit{OldString: "nope", NewString: "x"}, "\n", nil)
	if !errors.As(err, &me) || me.Count != 0 {
		t.Fatalf("got %v", err)
	}
}

func clipb(b []byte) []byte {
	if len(b) > 60 {
		return b[:60]
	}
	return b
}
