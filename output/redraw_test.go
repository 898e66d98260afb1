package output

import (
	"strings"
	"testing"
)

// redrawCases: a 3-line progress block drawn 30 times, each frame after the
// first redrawn over the last the ways programs do it on a terminal.
var redrawCases = []struct{ name, up string }{
	{"cursor up", "\x1b[3A"},
	{"cursor to line start up", "\x1b[3F"},
	{"up one, erase, three times", "\x1b[1A\x1b[2K\x1b[1A\x1b[2K\x1b[1A\x1b[2K"},
	{"buildkit: up, column 0", "\x1b[1A\x1b[1A\x1b[1A\x1b[0G"},
	{"up then erase below", "\x1b[3A\x1b[J"},
}

const redrawFinal = "before the block\n" +
	"step 1: 100% [====================]\n" +
	"step 2: 100% [====================]\n" +
	"step 3: 100% [====================]\n" +
	"done\n"

// TestRedrawCollapsesProgressBlock: the block collapses to its final frame
// through the Sanitizer and the Pipeline, however the stream is split.
func TestRedrawCollapsesProgressBlock(t *testing.T) {
	for _, tc := range redrawCases {
		t.Run(tc.name, func(t *testing.T) {
			in := redrawFrames(30, 3, tc.up)
			if got := string(sanitizeAll(in)); got != redrawFinal {
				t.Fatalf("sanitized to %d lines:\n%s", strings.Count(got, "\n"), got)
			}
			for _, chunk := range []int{1, 7, 64, 4096} {
				if got := sanitizeChunks(in, []byte{byte(chunk - 1)}); chunk < 38 && got != redrawFinal {
					t.Fatalf("in chunks of %d: %q", chunk, got)
				}
				p := New(Options{Limits: DefaultLimits})
				for rest := in; len(rest) > 0; {
					n := min(chunk, len(rest))
					p.Write(rest[:n])
					rest = rest[n:]
				}
				p.Close()
				r := p.Result()
				if r.Text() != redrawFinal || r.Truncation.TotalLines != 5 {
					t.Fatalf("pipeline in chunks of %d: %d lines %q", chunk, r.Truncation.TotalLines, r.Text())
				}
			}
		})
	}
}

// TestRedrawPlainTextUnchanged: without cursor movement, text passes
// through byte for byte however long, the held lines included.
func TestRedrawPlainTextUnchanged(t *testing.T) {
	in := string(seqBlock(1, 300_000)) + strings.Repeat("x", 200_000) + "\nend"
	if got := string(sanitizeAll([]byte(in))); got != in {
		t.Fatalf("plain text changed: %d bytes in, %d out", len(in), len(got))
	}
	if got := sanitizeChunks([]byte(in), []byte{200, 13, 36}); got != in {
		t.Fatalf("plain text split changed: %d bytes in, %d out", len(in), len(got))
	}
}

// TestRedrawBeyondTheHold: a cursor moved above the lines held cannot
// rewrite what was passed on; the text goes on new lines and nothing is
// lost.
func TestRedrawBeyondTheHold(t *testing.T) {
	var b strings.Builder
	for i := range holdRows + 10 {
		b.WriteString("line " + itoa(int64(i)) + "\n")
	}
	block := b.String()
	in := block + "\x1b[" + itoa(holdRows+10) + "A" + strings.ReplaceAll(block, "line", "LINE")
	// The first 10 lines were passed on before the redraw reaches above
	// the hold: the redraw gives up the lines held and goes on below them.
	want := block + strings.ReplaceAll(block, "line", "LINE")
	if got := string(sanitizeAll([]byte(in))); got != want {
		t.Fatalf("got %q\nwant %q", got, want)
	}
	// Within the hold, the same redraw rewrites the block.
	in = block[strings.Index(block, "line 10\n"):] + "\x1b[" + itoa(holdRows) + "A" + strings.ReplaceAll(block, "line", "LINE")[:len(block)-len(block[:strings.Index(block, "line 10\n")])]
	if got := string(sanitizeAll([]byte(in))); strings.Contains(got, "line") {
		t.Fatalf("a block of %d lines was not redrawn: %q", holdRows, got)
	}
}

// TestRedrawLookCommits: a look at a running stream (Cut) shows the lines
// held for redraws in its window; a redraw after it adds the new frame.
func TestRedrawLookCommits(t *testing.T) {
	p := New(Options{Limits: DefaultLimits})
	p.Write([]byte("a1\nb1\n"))
	r := p.Cut()
	if r.Head != "a1\nb1\n" || r.Unfinished != "" {
		t.Fatalf("first look: Head %q Unfinished %q", r.Head, r.Unfinished)
	}
	p.Write([]byte("\x1b[2Aa2\nb2\n\x1b[2Aa3\nb3\n"))
	p.Close()
	// The first redraw reaches lines shown already: it goes on below
	// them; the second redraws its frame.
	if r = p.Result(); r.Head != "a3\nb3\n" {
		t.Fatalf("after the look: Head %q", r.Head)
	}
}
