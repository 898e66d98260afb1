package shell

import (
	"testing"
)

// The alternate screen is seen entered and left, whatever the chunks,
// including a switch split across two or three of them.
func TestScreenWatch(t *testing.T) {
	cases := []struct {
		stream string
		on     bool
	}{
		{"plain text\n", false},
		{"\x1b[?1049h\x1b[Hscreen", true},
		{"\x1b[?1049h\x1b[Hscreen\x1b[?1049lbye\n", false},
		{"\x1b[?47hold form", true},
		{"\x1b[?1047h\x1b[?1047l\x1b[?1049h", true},
		{"\x1b[?1049l\x1b[?1049h", true},
		{"\x1b[?1049x not a switch", false},
	}
	for _, c := range cases {
		for size := 1; size <= len(c.stream); size++ {
			var w screenWatch
			for i := 0; i < len(c.stream); i += size {
				w.scan([]byte(c.stream[i:min(i+size, len(c.stream))]))
			}
			if w.on.Load() != c.on {
				t.Errorf("%q in chunks of %d: on %v, want %v", c.stream, size, w.on.Load(), c.on)
			}
		}
	}
}

func FuzzScreenWatch(f *testing.F) {
	f.Add([]byte("ab\x1b[?1049hcd"), uint8(3))
	f.Add([]byte("\x1b[?1049h\x1b[?1049l"), uint8(1))
	f.Fuzz(func(t *testing.T, b []byte, size uint8) {
		// Property: any chunking gives the state of the whole stream at once.
		var whole, split screenWatch
		whole.scan(b)
		n := int(size%16) + 1
		for i := 0; i < len(b); i += n {
			split.scan(b[i:min(i+n, len(b))])
		}
		if whole.on.Load() != split.on.Load() {
			t.Errorf("%q in chunks of %d: %v, whole: %v", b, n, split.on.Load(), whole.on.Load())
		}
	})
}
