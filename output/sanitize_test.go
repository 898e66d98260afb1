package output

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

// sanitizeCases are inputs and the text the Sanitizer must make of them.
var sanitizeCases = []struct {
	name, in, want string
}{
	{"plain", "hello\nworld\n", "hello\nworld\n"},
	{"empty", "", ""},
	{"no final newline", "a\nb", "a\nb"},
	{"tab kept", "a\tb\n", "a\tb\n"},
	{"multi-byte kept", "café ≠ 😀\n", "café ≠ 😀\n"},

	// CSI
	{"CSI colour", "\x1b[31mred\x1b[0m\n", "red\n"},
	{"CSI params and intermediates", "\x1b[1;38;5;196mX\x1b[?25l\x1b[ q\n", "X\n"},
	{"CSI erase line", "a\x1b[2K\x1b[1Gb\n", "b\n"},
	{"CSI private mode", "\x1b[?1049h\x1b[?1049lz\n", "z\n"},

	// OSC, with BEL and with ST
	{"OSC title BEL", "\x1b]0;my title\x07after\n", "after\n"},
	{"OSC title ST", "\x1b]2;title\x1b\\after\n", "after\n"},
	{"OSC 8 hyperlink", "\x1b]8;;https://example.com\x1b\\link\x1b]8;;\x1b\\\n", "link\n"},
	{"OSC with UTF-8 body", "\x1b]0;tïtle ≠\x07ok\n", "ok\n"},

	// DCS, SOS, PM, APC
	{"DCS", "\x1bPq#0;2;0;0;0#0~~\x1b\\x\n", "x\n"},
	{"SOS", "\x1bXstring\x1b\\x\n", "x\n"},
	{"PM", "\x1b^private\x1b\\x\n", "x\n"},
	{"APC", "\x1b_Gf=100;AAAA\x1b\\x\n", "x\n"},
	{"ESC inside a string starts a new sequence", "\x1b]0;t\x1b[31mx\n", "x\n"},

	// Two-byte and intermediate ESC sequences
	{"ESC 7 / ESC 8", "\x1b7a\x1b8b\n", "ab\n"},
	{"ESC =", "\x1b=\x1b>c\n", "c\n"},
	{"ESC ( B charset", "\x1b(Bd\x1b)0e\n", "de\n"},
	{"ESC # 8", "\x1b#8f\n", "f\n"},
	{"ESC ESC", "\x1b\x1b[31mg\n", "g\n"},

	// Not an escape sequence: the ESC goes, the rest is text.
	{"ESC then newline", "a\x1b\nb\n", "a\nb\n"},
	{"CSI broken by a control byte", "\x1b[12\x01x\n", "[12x\n"},
	{"CSI broken by UTF-8", "\x1b[1é\n", "[1é\n"},
	{"ESC then UTF-8", "\x1bé\n", "é\n"},
	{"lone ESC at the end", "a\x1b", "a"},
	{"CSI cut at the end", "a\x1b[31", "a[31"},
	{"OSC cut at the end", "a\x1b]0;title", "a]0;title"},
	{"string ESC cut at the end", "a\x1b]0;t\x1b", "a]0;t"},
	{"CSI too long", "\x1b[" + strings.Repeat("1", 100) + "mX\n", "[" + strings.Repeat("1", 100) + "mX\n"},
	{"OSC too long", "\x1b]" + strings.Repeat("t", 5000) + "\x07X\n", "]" + strings.Repeat("t", 5000) + "X\n"},

	// Control bytes
	{"C0 controls dropped", "a\x00b\x01c\x07d\x08e\x0bf\x0cg\x1fh\n", "abcdefgh\n"},
	{"DEL dropped", "a\x7fb\n", "ab\n"},
	{"C1 as UTF-8 kept", "a\u0085b\n", "a\u0085b\n"},

	// Line endings and overwrite
	{"CRLF", "a\r\nb\r\n", "a\nb\n"},
	{"progress overwrite", "10%\r20%\r30%\n", "30%\n"},
	{"progress from line start", "\r10%\r20%\r30%\n", "30%\n"},
	{"overwrite on later line", "keep\n1/3\r2/3\r3/3\ndone\n", "keep\n3/3\ndone\n"},
	{"CR at the end keeps the line", "abc\r", "abc"},
	{"CR CR LF", "abc\r\r\n", "abc\n"},
	{"CR then escape then text", "50%\r\x1b[K100%\n", "100%\n"},
	{"CR then control then LF", "x\r\x00\n", "x\n"},
	{"CR shorter text overwrites the start", "abcdef\rxy\n", "xycdef\n"},
	{"CR shorter text at the end", "abcdef\rxy", "xycdef"},
	{"CR multi-byte overwrite", "héllo wörld\r日本\n", "日本llo wörld\n"},
	{"CR overwrite then erase", "abcdef\rxy\x1b[K\n", "xy\n"},
	{"CR with CRLF", "a\rb\r\n", "b\n"},

	// UTF-8
	{"invalid byte", "a\xffb\n", "a\uFFFDb\n"},
	{"overlong", "\xc0\xaf\n", "\uFFFD\uFFFD\n"},
	{"surrogate", "\xed\xa0\x80\n", "\uFFFD\uFFFD\uFFFD\n"},
	{"lone continuation", "\x80\n", "\uFFFD\n"},
	{"truncated sequence mid-stream", "\xe2\x82x\n", "\uFFFD\uFFFDx\n"},
	{"ends mid-sequence (2 of 3)", "ok \xe2\x82", "ok \uFFFD\uFFFD"},
	{"ends mid-sequence (1 of 4)", "ok \xf0", "ok \uFFFD"},
	{"ends mid-sequence (3 of 4)", "ok \xf0\x9f\x98", "ok \uFFFD\uFFFD\uFFFD"},
	{"8-bit CSI is invalid UTF-8", "\x9b31m\n", "\uFFFD31m\n"},
}

// TestSanitizer checks each case written at once, split at every byte
// boundary, and byte by byte.
func TestSanitizer(t *testing.T) {
	for _, tc := range sanitizeCases {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(sanitizeAll([]byte(tc.in))); got != tc.want {
				t.Fatalf("sanitize(%q) = %q, want %q", tc.in, got, tc.want)
			}
			for _, i := range splitPoints(len(tc.in)) {
				if got := sanitizeSplit(tc.in, i); got != tc.want {
					t.Fatalf("split at %d: sanitize(%q) = %q, want %q", i, tc.in, got, tc.want)
				}
			}
			if got := sanitizeBytewise(tc.in); got != tc.want {
				t.Fatalf("byte by byte: sanitize(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

// splitPoints is every offset of a short input; of a long one, those near
// either end and near the sanitizer's bounds, and a stride between.
func splitPoints(n int) []int {
	var pts []int
	for i := 0; i <= n; i++ {
		near := func(b int) bool { return i >= b-8 && i <= b+8 }
		if n <= 600 || i < 300 || i > n-300 || i%61 == 0 || near(maxCSI) || near(maxString) {
			pts = append(pts, i)
		}
	}
	return pts
}

func sanitizeSplit(in string, at int) string {
	var out []byte
	s := newSanitizer(func(b []byte) { out = append(out, b...) })
	s.Write([]byte(in[:at]))
	s.Write([]byte(in[at:]))
	s.Close()
	return string(out)
}

func sanitizeBytewise(in string) string {
	var out []byte
	s := newSanitizer(func(b []byte) { out = append(out, b...) })
	for i := range len(in) {
		s.Write([]byte{in[i]})
	}
	s.Close()
	return string(out)
}

// TestSanitizerEscapeSplitEverywhere puts each kind of escape sequence at
// every position of a chunk boundary inside a longer text.
func TestSanitizerEscapeSplitEverywhere(t *testing.T) {
	seqs := []string{
		"\x1b[38;5;196m", "\x1b]0;title\x07", "\x1b]8;;http://x\x1b\\", "\x1bPdata\x1b\\",
		"\x1b_apc\x1b\\", "\x1b(B", "\x1b7",
	}
	for _, seq := range seqs {
		in := "before " + seq + "after\n"
		for chunk := 1; chunk <= len(in); chunk++ {
			var out []byte
			s := newSanitizer(func(b []byte) { out = append(out, b...) })
			for rest := in; rest != ""; {
				n := min(chunk, len(rest))
				s.Write([]byte(rest[:n]))
				rest = rest[n:]
			}
			s.Close()
			if string(out) != "before after\n" {
				t.Fatalf("%q in chunks of %d: got %q", seq, chunk, out)
			}
		}
	}
}

// TestSanitizerEmitsWholeCharacters checks that no emitted piece splits a
// character, whatever the chunking.
func TestSanitizerEmitsWholeCharacters(t *testing.T) {
	in := strings.Repeat("ab€😀é\xff\n", 50)
	for chunk := 1; chunk < 12; chunk++ {
		s := newSanitizer(func(b []byte) {
			if !utf8.Valid(b) {
				t.Fatalf("chunk %d: emitted %q", chunk, b)
			}
		})
		for rest := in; rest != ""; {
			n := min(chunk, len(rest))
			s.Write([]byte(rest[:n]))
			rest = rest[n:]
		}
		s.Close()
	}
}

// TestSanitizerLongLineOverwrite: a line longer than what the Sanitizer
// holds back is passed on; a later '\r' then starts a new line instead of
// taking back what was passed on. Nothing is lost.
func TestSanitizerLongLineOverwrite(t *testing.T) {
	long := strings.Repeat("x", holdBytes+10)
	got := string(sanitizeAll([]byte(long + "\rnew\n")))
	if want := long + "\nnew\n"; got != want {
		t.Fatalf("got %d bytes ending %q, want %d bytes", len(got), got[max(0, len(got)-10):], len(want))
	}
	// A line that is held is overwritten from its start, as a terminal does.
	y := strings.Repeat("y", holdBytes)
	if got, want := string(sanitizeAll([]byte(y+"\rnew\n"))), "new"+y[3:]+"\n"; got != want {
		t.Fatalf("line of exactly holdBytes bytes: got %d bytes starting %.8q", len(got), got)
	}
}

// TestSanitizerHoldsLittle checks that one huge write without a newline is
// passed on rather than copied into the held line.
func TestSanitizerHoldsLittle(t *testing.T) {
	big := bytes.Repeat([]byte("z"), 8<<20)
	var n int
	s := newSanitizer(func(b []byte) { n += len(b) })
	s.Write(big)
	if n < len(big)-holdBytes {
		t.Fatalf("emitted %d of %d bytes before Close", n, len(big))
	}
	if len(s.hold) > holdBytes || cap(s.buf) > 4*holdBytes {
		t.Fatalf("held lines grew to %d bytes in a buffer of %d", len(s.hold), cap(s.buf))
	}
	s.Close()
}

// TestSanitizerGathersShortPieces: text between escape sequences is passed
// on in a few large pieces, not one per run, and the gathering buffer stays
// bounded however large the write.
func TestSanitizerGathersShortPieces(t *testing.T) {
	line := "\x1b[32mok\x1b[0m  pkg/sub\t0.1s\n"
	in := []byte(strings.Repeat(line, 200_000)) // 6 MB in one write
	var out []byte
	calls := 0
	s := newSanitizer(func(b []byte) { calls++; out = append(out, b...) })
	s.Write(in)
	s.Close()
	if want := strings.Repeat("ok  pkg/sub\t0.1s\n", 200_000); string(out) != want {
		t.Fatalf("got %d bytes, want %d", len(out), len(want))
	}
	if maxCalls := len(out)/flushSize + 2; calls > maxCalls {
		t.Fatalf("%d emits for %d bytes, want at most %d", calls, len(out), maxCalls)
	}
	if cap(s.out) > 2*(flushSize+directSize) {
		t.Fatalf("gathering buffer grew to %d bytes", cap(s.out))
	}
}

// TestSanitizerNeverEndingEscape: an OSC that never ends is bounded and
// its body passed on as text, so output keeps flowing and nothing is lost.
func TestSanitizerNeverEndingEscape(t *testing.T) {
	body := bytes.Repeat([]byte("0123456789"), 100_000) // 1 MB, no terminator
	var out []byte
	s := newSanitizer(func(b []byte) { out = append(out, b...) })
	s.Write([]byte("\x1b]"))
	for i := 0; i < len(body); i += 4096 {
		s.Write(body[i:min(i+4096, len(body))])
	}
	if len(out) < len(body)-maxString-holdBytes {
		t.Fatalf("only %d bytes out before Close: the sequence holds the stream", len(out))
	}
	s.Close()
	if want := "]" + string(body); string(out) != want {
		t.Fatalf("got %d bytes, want %d", len(out), len(want))
	}
}

func TestIsBinary(t *testing.T) {
	tests := []struct {
		name string
		in   []byte
		want bool
	}{
		{"empty", nil, false},
		{"text", []byte("hello world\n"), false},
		{"a stray NUL", []byte("hello\x00world"), false},
		{"NULs", []byte("he\x00l\x00lo\x00wo\x00rld"), true},
		{"UTF-8", []byte(strings.Repeat("héllo wörld ≠ 😀\n", 100)), false},
		{"ANSI colours", []byte(strings.Repeat("\x1b[31mred\x1b[0m\r\n", 100)), false},
		{"mostly invalid", bytes.Repeat([]byte{0xff, 0xfe, 'a'}, 100), true},
		{"a little invalid", append([]byte(strings.Repeat("a", 100)), 0xff), false},
		{"control bytes", bytes.Repeat([]byte{0x01, 0x02, 'a'}, 100), true},
		{"rune cut at the end", []byte("text \xe2\x82"), false},
		{"a few controls in short text", []byte("a\x01b\x02c\x07"), false},
		{"a stray NUL in short text", []byte("a\x00b"), false},
		{"eight controls in text", []byte("\x01\x02\x03\x04\x05\x06\x0e\x0fabcdefgh"), false},
		{"nine controls in text", []byte("\x01\x02\x03\x04\x05\x06\x0e\x0f\x10abcdefghi"), true},
		{"controls alone", []byte("\x00\x01\x02"), true},
		{"a few controls and invalid UTF-8", []byte("a\x01\xff\xfe"), true},
	}
	for _, tt := range tests {
		if got := IsBinary(tt.in); got != tt.want {
			t.Errorf("%s: IsBinary = %v, want %v", tt.name, got, tt.want)
		}
	}
}
