package textedit

import (
	"bytes"
	"context"
	"errors"
	"testing"
)

// The matcher never panics, and an edit changes no byte outside the
// ranges it matched; each range holds old_string (a "\r\n" read as "\n")
// and gets new_string with the file's line ends; the streaming matcher
// gives the same bytes.
func FuzzApply(f *testing.F) {
	f.Add([]byte("first\r\nsecond\r\nthird\r\n"), "second\n", "X\n", false)
	f.Add([]byte("\uFEFFa\nb\r\nc"), "b\n", "B\r\nb", true)
	f.Add([]byte("aaaa"), "aa", "a", true)
	f.Add([]byte("\r\r\n\n"), "\r\n", "", false)
	f.Add([]byte("\uFEFF\uFEFFx"), "\uFEFFx", "y", false)
	f.Add([]byte("a\r\n\r\nb"), "\n\n", "\n", true)
	f.Add([]byte("\xff\xfe\x00latin\xe9\n"), "latin\xe9", "x", false)
	f.Fuzz(func(t *testing.T, in []byte, old, new string, all bool) {
		keep := bytes.Clone(in)
		e := Edit{OldString: old, NewString: new, ReplaceAll: all}
		out, steps, err := Apply(in, []Edit{e})
		if !bytes.Equal(in, keep) {
			t.Fatalf("Apply changed its input: %q became %q", keep, in)
		}
		var me *MatchError
		if err != nil {
			if !errors.As(err, &me) && !errors.Is(err, ErrEmptyOld) && !errors.Is(err, ErrSame) {
				t.Fatalf("unexpected error %v", err)
			}
			if out != nil {
				t.Fatalf("an error (%v) with content %q", err, out)
			}
		} else {
			if len(steps) != 1 {
				t.Fatalf("%d steps for one edit", len(steps))
			}
			checkOutside(t, in, out, steps[0])
			checkMatched(t, in, e, steps[0])
		}
		var got bytes.Buffer
		_, serr := Stream(context.Background(), bytes.NewReader(in), &got, e, EOL(in), nil)
		if (serr == nil) != (err == nil) {
			t.Fatalf("stream error %v, apply error %v", serr, err)
		}
		if err == nil && !bytes.Equal(got.Bytes(), out) {
			t.Fatalf("stream %q, apply %q", got.Bytes(), out)
		}
	})
}

// Several edits apply in order, all or none: each step changes no byte
// outside its ranges of the text the steps before it left, and the last
// text is the result; on an error nothing is returned.
func FuzzApplyEdits(f *testing.F) {
	f.Add([]byte("a\nb\nc\n"), "a", "A", "b\n", "", false)
	f.Add([]byte("x\r\ny\r\n"), "x", "y", "y\n", "z\nz\n", true)
	f.Add([]byte("one two one"), "one", "two", "two", "three", true)
	f.Add([]byte("\uFEFFab"), "a", "b", "bb", "c", false)
	f.Fuzz(func(t *testing.T, in []byte, old1, new1, old2, new2 string, all bool) {
		keep := bytes.Clone(in)
		edits := []Edit{{OldString: old1, NewString: new1}, {OldString: old2, NewString: new2, ReplaceAll: all}}
		out, steps, err := Apply(in, edits)
		if !bytes.Equal(in, keep) {
			t.Fatalf("Apply changed its input: %q became %q", keep, in)
		}
		if err != nil {
			if out != nil || steps != nil {
				t.Fatalf("an error (%v) with content %q", err, out)
			}
			var me *MatchError
			if errors.As(err, &me) && (me.Edits != 2 || me.Edit < 0 || me.Edit > 1) {
				t.Fatalf("match error names edit %d of %d", me.Edit, me.Edits)
			}
			return
		}
		if len(steps) != 2 {
			t.Fatalf("%d steps for two edits", len(steps))
		}
		cur := in
		for i, st := range steps {
			next := rebuild(cur, st)
			checkMatched(t, cur, edits[i], st)
			cur = next
		}
		if !bytes.Equal(cur, out) {
			t.Fatalf("the steps give %q, Apply %q", cur, out)
		}
		// The edits one call at a time give the same bytes.
		one, _, err1 := Apply(in, edits[:1])
		if err1 != nil {
			t.Fatalf("the first edit alone fails: %v", err1)
		}
		two, _, err2 := Apply(one, edits[1:])
		if err2 != nil {
			t.Fatalf("the second edit fails alone after the first (%v), not after it in one call", err2)
		}
		// The line ending of new text is the dominant one of the text
		// it goes into, which the first edit may have changed.
		if EOL(one) == EOL(in) && !bytes.Equal(two, out) {
			t.Fatalf("one call gives %q, two calls %q", out, two)
		}
	})
}

// rebuild puts st.New in place of st's ranges of in.
func rebuild(in []byte, st Step) []byte {
	var out []byte
	var last int64
	for _, r := range st.Ranges {
		out = append(out, in[last:r.Start]...)
		out = append(out, st.New...)
		last = r.End
	}
	return append(out, in[last:]...)
}

// checkMatched checks that each range of st holds e's old_string as the
// edit matches it (a "\r\n" of either read as "\n", a leading BOM of
// old_string left out), never splits a "\r\n" nor takes the file's BOM,
// that st.New is new_string with the dominant line end of in, and that
// a single edit matched once.
func checkMatched(t *testing.T, in []byte, e Edit, st Step) {
	t.Helper()
	want := normOld(e.OldString)
	for _, r := range st.Ranges {
		got := bytes.ReplaceAll(in[r.Start:r.End], []byte("\r\n"), []byte("\n"))
		if !bytes.Equal(got, want) {
			t.Fatalf("range %v holds %q, not old_string %q", r, in[r.Start:r.End], e.OldString)
		}
		for _, p := range []int64{r.Start, r.End} {
			if p > 0 && p < int64(len(in)) && in[p-1] == '\r' && in[p] == '\n' {
				t.Fatalf("range %v splits a \\r\\n of %q", r, in)
			}
		}
		if bytes.HasPrefix(in, BOM) && r.Start < int64(len(BOM)) {
			t.Fatalf("range %v takes the file's BOM", r)
		}
	}
	if len(st.Ranges) == 0 || !e.ReplaceAll && len(st.Ranges) != 1 {
		t.Fatalf("%d ranges matched (replace_all %v)", len(st.Ranges), e.ReplaceAll)
	}
	if nb := WithEOL(e.NewString, EOL(in)); string(st.New) != nb {
		t.Fatalf("new bytes %q, want %q", st.New, nb)
	}
}
