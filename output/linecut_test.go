package output

import (
	"strings"
	"testing"
)

func TestLineCutter(t *testing.T) {
	tests := []struct {
		name string
		max  int
		in   string
		want string
		cut  int64
	}{
		{"no cap", 0, strings.Repeat("x", 5000) + "\n", strings.Repeat("x", 5000) + "\n", 0},
		{"short lines", 5, "abc\nde\n\n", "abc\nde\n\n", 0},
		{"exactly max", 5, "abcde\n", "abcde\n", 0},
		{"one over", 5, "abcdef\n", "abcde... [1 chars cut]\n", 1},
		{"long line", 3, "0123456789\nok\n", "012... [7 chars cut]\nok\n", 1},
		{"several", 2, "aaa\nb\ncccc\n", "aa... [1 chars cut]\nb\ncc... [2 chars cut]\n", 2},
		{"last line without newline", 3, "ok\nabcdef", "ok\nabc... [3 chars cut]", 1},
		{"characters, not bytes", 3, "éééé€€\n", "ééé... [3 chars cut]\n", 1},
		{"four-byte characters", 2, "😀😀😀\n", "😀😀... [1 chars cut]\n", 1},
		{"multi-byte exactly max", 3, "€€€\n", "€€€\n", 0},
		{"empty input", 3, "", "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Whole, then at every split, then byte... by character (the
			// cutter's input is whole characters).
			check := func(how string, pieces []string) {
				t.Helper()
				var out []byte
				c := lineCutter{max: tt.max, emit: func(b []byte) { out = append(out, b...) }}
				for _, p := range pieces {
					c.write([]byte(p))
				}
				c.close()
				if string(out) != tt.want || c.linesCut != tt.cut {
					t.Fatalf("%s: got %q (%d cut), want %q (%d cut)", how, out, c.linesCut, tt.want, tt.cut)
				}
			}
			check("whole", []string{tt.in})
			runes := []rune(tt.in)
			for i := 0; i <= len(runes); i++ {
				check("split", []string{string(runes[:i]), string(runes[i:])})
			}
			var each []string
			for _, r := range runes {
				each = append(each, string(r))
			}
			check("char by char", each)
		})
	}
}

// TestLineCutterLongLineStreams: a line far longer than the cap costs
// nothing to hold: what is past the cap is counted, not kept.
func TestLineCutterLongLineStreams(t *testing.T) {
	var out []byte
	c := lineCutter{max: 10, emit: func(b []byte) { out = append(out, b...) }}
	chunk := []byte(strings.Repeat("x", 64<<10))
	for range 160 { // 10 MiB
		c.write(chunk)
	}
	c.write([]byte("\n"))
	c.close()
	want := strings.Repeat("x", 10) + "... [10485750 chars cut]\n"
	if string(out) != want {
		t.Fatalf("got %q, want %q", out, want)
	}
}
