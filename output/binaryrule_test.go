package output

import (
	"bytes"
	"strings"
	"testing"
)

// BinaryAnyNUL is macos-shell's isBinaryOutput: any NUL, or more than 30%
// of its control ranges, in the first 1000 characters.
func TestBinaryAnyNUL(t *testing.T) {
	tests := []struct {
		name string
		in   []byte
		want bool
	}{
		{"empty", nil, false},
		{"text", []byte("hello world\n"), false},
		{"the design's test: three NULs", []byte("text\x00with\x00null\x00bytes"), true},
		{"one NUL", []byte("hello\x00world"), true},
		{"a NUL at character 1000", append([]byte(strings.Repeat("a", 999)), 0), true},
		{"a NUL at character 1001", append([]byte(strings.Repeat("a", 1000)), 0), false},
		{"a NUL after 999 characters of 2 bytes", append([]byte(strings.Repeat("é", 999)), 0), true},
		{"a NUL after 500 characters of 2 UTF-16 units", append([]byte(strings.Repeat("😀", 500)), 0), false},
		{"three controls in six characters", []byte("a\x01b\x02c\x07"), true},
		{"three controls in ten characters", []byte("a\x01b\x02c\x07defg"), false},
		{"30% exactly is text", []byte("\x01\x02\x03abcdefg"), false},
		{"C1 controls count", []byte(strings.Repeat("\u0085\u0085a", 10)), true},
		{"tab, newline and CR are text", []byte(strings.Repeat("\t\n\r", 10)), false},
		{"colours", []byte(strings.Repeat("\x1b[31mred\x1b[0m\n", 100)), false},
		{"invalid UTF-8 decodes to U+FFFD, text", bytes.Repeat([]byte{0xff, 0xfe, 'a'}, 100), false},
		{"controls past character 1000 are not sampled", append([]byte(strings.Repeat("a", 1000)), bytes.Repeat([]byte{1}, 2000)...), false},
	}
	for _, tt := range tests {
		if got := BinaryAnyNUL.binary(tt.in); got != tt.want {
			t.Errorf("%s: BinaryAnyNUL = %v, want %v", tt.name, got, tt.want)
		}
	}
	// The zero rule is IsBinary's.
	for _, in := range [][]byte{[]byte("text\x00with\x00null\x00bytes"), []byte("he\x00l\x00lo\x00wo\x00rld")} {
		if got := BinaryMostlyNonText.binary(in); got != IsBinary(in) {
			t.Errorf("%q: the zero rule says %v, IsBinary %v", in, got, !got)
		}
	}
}

// A Pipeline under BinaryAnyNUL shows a stream with one NUL as binary,
// its raw bytes in the spill file; the zero rule shows the text.
func TestPipelineBinaryRule(t *testing.T) {
	in := "text\x00with\x00null\x00bytes"
	for _, c := range []struct {
		rule   BinaryRule
		binary bool
		text   string
	}{{BinaryMostlyNonText, false, "textwithnullbytes"}, {BinaryAnyNUL, true, ""}} {
		spilled := &memSpill{}
		p := New(Options{Binary: c.rule, Spill: func() (Spill, error) { return spilled, nil }})
		p.Write([]byte(in))
		p.Close()
		r := p.Result()
		if r.Binary != c.binary || r.Text() != c.text {
			t.Errorf("rule %d: binary %v, content %q; want %v, %q", c.rule, r.Binary, r.Text(), c.binary, c.text)
		}
		if c.binary && spilled.buf.String() != in {
			t.Errorf("rule %d: spill file holds %q, want the raw bytes", c.rule, spilled.buf.String())
		}
	}
}
