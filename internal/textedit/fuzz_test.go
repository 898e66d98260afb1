package textedit

import (
	"bytes"
	"context"
	"errors"
	"testing"
)

// The matcher never panics, and an edit changes no byte outside the
// ranges it matched; the streaming matcher gives the same bytes.
func FuzzApply(f *testing.F) {
	f.Add([]byte("first\r\nsecond\r\nthird\r\n"), "second\n", "X\n", false)
	f.Add([]byte("\uFEFFa\nb\r\nc"), "b\n", "B\r\nb", true)
	f.Add([]byte("aaaa"), "aa", "a", true)
	f.Add([]byte("\r\r\n\n"), "\r\n", "", false)
	f.Fuzz(func(t *testing.T, in []byte, old, new string, all bool) {
		e := Edit{OldString: old, NewString: new, ReplaceAll: all}
		out, steps, err := Apply(in, []Edit{e})
		var me *MatchError
		if err != nil {
			if !errors.As(err, &me) && !errors.Is(err, ErrEmptyOld) && !errors.Is(err, ErrSame) {
				t.Fatalf("unexpected error %v", err)
			}
		} else {
			checkOutside(t, in, out, steps[0])
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
