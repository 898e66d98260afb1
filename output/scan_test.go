package output

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestSpecial checks the SWAR test against the byte table for every byte
// value at every position, among plain and among special neighbours.
func TestSpecial(t *testing.T) {
	for _, fill := range []byte{'a', '\n', 0x00, 0x7f, 0xff, 0x1f, 0x20} {
		for c := range 256 {
			for pos := range 8 {
				buf := bytes.Repeat([]byte{fill}, 8)
				buf[pos] = byte(c)
				want := !plain[c] || !plain[fill]
				got := special(binary.LittleEndian.Uint64(buf)) != 0
				if got != want {
					t.Fatalf("byte %#x at %d among %#x: special = %v, want %v", c, pos, fill, got, want)
				}
			}
		}
	}
}

func TestPlainRun(t *testing.T) {
	base := strings.Repeat("plain text\twith tabs\n", 10) // 210 bytes
	for _, stop := range []string{"\x1b", "\r", "\x00", "\x7f", "\xff", "\xe2\x82"} {
		for at := 0; at <= len(base); at++ {
			in := []byte(base[:at] + stop + base[at:])
			if got := plainRun(in, 0); got != at {
				t.Fatalf("%q at %d: plainRun = %d", stop, at, got)
			}
		}
	}
	// Valid multi-byte characters are plain.
	in := []byte(strings.Repeat("héllo ≠ 😀 ", 20))
	if got := plainRun(in, 0); got != len(in) {
		t.Fatalf("UTF-8: plainRun = %d of %d", got, len(in))
	}
}

func TestLastIndexByte(t *testing.T) {
	for _, n := range []int{0, 1, 7, lastBlock - 1, lastBlock, lastBlock + 1, 3*lastBlock + 5} {
		b := bytes.Repeat([]byte("x"), n)
		if got := lastIndexByte(b, '\n'); got != -1 {
			t.Fatalf("len %d without newline: %d", n, got)
		}
		for _, at := range []int{0, n / 3, n / 2, n - 1} {
			if at < 0 || at >= n {
				continue
			}
			c := append([]byte(nil), b...)
			c[at] = '\n'
			if at > 0 {
				c[0] = '\n' // an earlier one that must not win
			}
			if got, want := lastIndexByte(c, '\n'), bytes.LastIndexByte(c, '\n'); got != want {
				t.Fatalf("len %d, newline at %d: %d, want %d", n, at, got, want)
			}
		}
	}
}

func TestRuneCount(t *testing.T) {
	for _, s := range []string{"", "a", "héllo", strings.Repeat("日本語😀ßx", 33), "\uFFFD\uFFFD", strings.Repeat("z", 1001)} {
		if got, want := runeCount([]byte(s)), utf8.RuneCountInString(s); got != want {
			t.Errorf("runeCount(%.20q) = %d, want %d", s, got, want)
		}
	}
}
