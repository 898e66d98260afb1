package output

import (
	"bytes"
	"hash/crc32"
	"io"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/spillway-dev/spillway/internal/race"
)

// repeatReader yields pattern over and over, n bytes in all, without
// allocating them.
type repeatReader struct {
	pattern []byte
	n, off  int64
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.off >= r.n {
		return 0, io.EOF
	}
	p = p[:min(int64(len(p)), r.n-r.off)]
	k := int(r.off % int64(len(r.pattern)))
	n := copy(p, r.pattern[k:])
	for n < len(p) {
		n += copy(p[n:], r.pattern)
	}
	r.off += int64(len(p))
	return len(p), nil
}

// hashSpill is a Spill that keeps only the size and a CRC of what it got.
type hashSpill struct {
	n   int64
	crc uint32
}

func (h *hashSpill) Write(p []byte) (int, error) {
	h.n += int64(len(p))
	h.crc = crc32.Update(h.crc, crc32.IEEETable, p)
	return len(p), nil
}
func (h *hashSpill) Path() string { return "/spill/hash.log" }
func (h *hashSpill) Close() error { return nil }

// A 1 GiB line without a newline: memory stays bounded, the default
// policy shows its first 2000 characters, a tail policy its last bytes,
// and the spill gets every byte.
func TestOneGiBLine(t *testing.T) {
	if testing.Short() {
		t.Skip("1 GiB stream")
	}
	size := 1 << 30
	if race.Enabled { // minutes at 1 GiB
		size = 64 << 20
	}
	pattern := []byte("abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ+/") // 64 bytes
	var hs hashSpill
	p := New(Options{Limits: DefaultLimits, Spill: func() (Spill, error) { return &hs, nil }})

	var peak uint64
	var ms runtime.MemStats
	src := &sampler{r: &repeatReader{pattern: pattern, n: int64(size)}, every: 64 << 20, sample: func() {
		runtime.ReadMemStats(&ms)
		peak = max(peak, ms.HeapInuse)
	}}
	if n, err := p.ReadFrom(src); n != int64(size) || err != nil {
		t.Fatalf("ReadFrom = %d, %v", n, err)
	}
	p.Close()
	r := p.Result()

	want := strings.Repeat(string(pattern), 2000/64+1)[:2000] + "... [" + itoa(int64(size-2000)) + " chars cut]"
	if r.Text() != want {
		t.Fatalf("text %.80q…", r.Text())
	}
	tr := r.Truncation
	if tr.TotalBytes != int64(size) || tr.TotalLines != 1 || tr.LinesCut != 1 || tr.TruncatedBy != ByLineChars {
		t.Fatalf("truncation %+v", tr)
	}
	if n := r.Notice("stdout"); n != "[stdout: 1 line cut at 2000 chars. Full output: /spill/hash.log. To see what was cut: read it with offset=1 char_offset=2000 limit=1]" {
		t.Fatalf("notice %q", n)
	}
	block := bytes.Repeat(pattern, (64<<10)/len(pattern))
	var wantCRC uint32
	for range size / len(block) {
		wantCRC = crc32.Update(wantCRC, crc32.IEEETable, block)
	}
	if hs.n != int64(size) || hs.crc != wantCRC {
		t.Fatalf("spill got %d bytes (crc %08x, want %08x)", hs.n, hs.crc, wantCRC)
	}
	if peak > 16<<20 {
		t.Fatalf("heap in use reached %d bytes", peak)
	}
	t.Logf("peak heap in use %.1f MiB", float64(peak)/(1<<20))
}

// The same kind of line under the pi design's tail policy, which has no
// per-line cap: the last 30KB of the line are shown and flagged.
func TestLongLineTail(t *testing.T) {
	size := 64 << 20
	if race.Enabled {
		size = 8 << 20
	}
	pattern := []byte("0123456789abcdef")
	var hs hashSpill
	p := New(Options{Limits: piBash, Spill: func() (Spill, error) { return &hs, nil }})
	p.ReadFrom(&repeatReader{pattern: pattern, n: int64(size)})
	p.Close()
	r := p.Result()
	if r.Text() != strings.Repeat(string(pattern), 30*1024/16) || !r.Truncation.LastLinePartial {
		t.Fatalf("truncation %+v", r.Truncation)
	}
	if n, want := r.Notice("stdout"), "[stdout: showing the last 30.0KB of line 1 (line is "+FormatSize(int64(size))+"). Full output: /spill/hash.log. To see what was cut: read it with offset=1 limit=1]"; n != want {
		t.Fatalf("notice %q, want %q", n, want)
	}
	if hs.n != int64(size) {
		t.Fatalf("spilled %d bytes", hs.n)
	}
}

// sampler calls sample every `every` bytes read.
type sampler struct {
	r       io.Reader
	every   int64
	n, next int64
	sample  func()
}

func (s *sampler) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	s.n += int64(n)
	if s.n >= s.next {
		s.sample()
		s.next += s.every
	}
	return n, err
}

// An escape sequence that never ends does not swallow the stream: past its
// bound it is text, so every line is counted and shown as usual.
func TestNeverEndingEscape(t *testing.T) {
	for _, start := range []string{"\x1b]0;title ", "\x1bP", "\x1b[", "\x1b_"} {
		in := start + seqLines(1, 30000) // no terminator anywhere
		var sp memSpill
		p := New(Options{Limits: DefaultLimits, Spill: sp.opener()})
		chunked(p, []byte(in), []byte{200, 13, 255})
		p.Close()
		r := p.Result()
		if r.Truncation.TotalLines != 30000 || !strings.HasSuffix(r.Tail, seqLines(29990, 30000)) {
			t.Fatalf("%q: %d lines, tail …%q", start, r.Truncation.TotalLines, r.Tail[max(0, len(r.Tail)-40):])
		}
		// Only the ESC is gone.
		if want := in[1:]; sp.buf.String() != want {
			t.Fatalf("%q: spill starts %.40q, want %.40q", start, sp.buf.String(), want)
		}
	}
}

// Output that stops in the middle of a UTF-8 sequence ends in U+FFFD, and
// the shown text stays valid whatever the limits.
func TestOutputEndsMidRune(t *testing.T) {
	for _, end := range []string{"\xe2\x82", "\xf0\x9f\x98", "\xc3"} {
		in := seqLines(1, 3) + "caf" + end
		r, _ := runLimits(t, Limits{Strategy: Tail, MaxLines: 10, MaxBytes: 100}, in)
		want := seqLines(1, 3) + "caf" + strings.Repeat("\uFFFD", len(end))
		if r.Text() != want {
			t.Fatalf("text %q, want %q", r.Text(), want)
		}
		// Cut right into the replacement characters: still whole.
		r, _ = runLimits(t, Limits{Strategy: Tail, MaxLines: 10, MaxBytes: 4}, in)
		if !utf8.ValidString(r.Text()) || !r.Truncation.LastLinePartial {
			t.Fatalf("partial %q %+v", r.Text(), r.Truncation)
		}
	}
}

// Random bytes are binary: nothing is shown, the notice says so, the spill
// holds the raw bytes.
func TestBinaryRandomBytes(t *testing.T) {
	raw := make([]byte, 200<<10)
	x := uint64(0x9E3779B97F4A7C15)
	for i := range raw {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		raw[i] = byte(x)
	}
	var sp memSpill
	p := New(Options{Limits: DefaultLimits, Spill: sp.opener()})
	chunked(p, raw, []byte{90, 7, 33})
	p.Close()
	r := p.Result()
	checkBinary(t, raw, r, sp)
	if !r.Binary || r.Text() != "" {
		t.Fatalf("result %+v", r)
	}
}

// The zero Options are usable: they mean DefaultLimits, no spill.
func TestNewZeroOptions(t *testing.T) {
	p := New(Options{})
	p.Write([]byte("one\ntwo\n"))
	p.Close()
	if r := p.Result(); r.Text() != "one\ntwo\n" || r.Truncation.Truncated {
		t.Fatalf("%q %+v", r.Text(), r.Truncation)
	}
}
