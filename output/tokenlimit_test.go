package output

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// FuzzTokenLimit checks the token limit against the pipeline without it:
// a result cut by MaxTokens is the result of the same stream under some
// smaller byte budget — the largest whose content fits the token limit —
// and it names the cause, and the spill holds the whole stream.
func FuzzTokenLimit(f *testing.F) {
	addPipelineSeeds(f)
	f.Fuzz(func(t *testing.T, in, sizes []byte, strat uint8, maxLines, maxBytes, lineChars uint16, share, when uint8) {
		lim := fuzzLimits(strat, maxLines, maxBytes, lineChars, share)
		lim.MaxTokens = int(when%64) + 1
		sw := SpillWhen(when % 2)

		var sp, plainSpill memSpill
		p := New(Options{Limits: lim, Spill: sp.opener(), SpillWhen: sw})
		chunked(p, in, sizes)
		p.Close()
		r := p.Result()

		plainLim := lim
		plainLim.MaxTokens = 0
		plain := New(Options{Limits: plainLim, Spill: plainSpill.opener(), SpillWhen: sw})
		plain.Write(in)
		plain.Close()
		whole := plain.Result()
		if r.Binary {
			return
		}
		shown := EstimateTokensString(r.Head) + EstimateTokensString(r.Tail)
		if r.Truncation.TruncatedBy != ByTokens {
			// The token limit did not bind: the result is the one
			// without it.
			if r.Head != whole.Head || r.Tail != whole.Tail || r.Truncation != whole.Truncation {
				t.Fatalf("token limit %d not binding, yet the result differs:\n got  %+v\n want %+v", lim.MaxTokens, r, whole)
			}
			if shown > lim.MaxTokens {
				t.Fatalf("shows %d tokens over the limit of %d, and says nothing", shown, lim.MaxTokens)
			}
			return
		}
		if !r.Truncation.Truncated {
			t.Fatal("truncated_by tokens, but not truncated")
		}
		// The same view under the byte budget the token limit chose.
		budget := len(r.Head) + len(r.Tail)
		var found bool
		for b := max(1, budget); b <= lim.MaxBytes && !found; b++ {
			v := plain.ResultWithin(b)
			found = v.Head == r.Head && v.Tail == r.Tail
			if found && b < lim.MaxBytes {
				// The largest that fits: a byte more shows more
				// than the limit (or the same).
				next := plain.ResultWithin(b + 1)
				if n := EstimateTokensString(next.Head) + EstimateTokensString(next.Tail); n <= lim.MaxTokens && (next.Head != v.Head || next.Tail != v.Tail) {
					t.Fatalf("limit %d: a budget of %d bytes shows %d tokens, within the limit, but the result stopped at %d bytes", lim.MaxTokens, b+1, n, b)
				}
			}
		}
		if !found {
			t.Fatalf("limit %d: the view %q | %q is no byte budget's view", lim.MaxTokens, r.Head, r.Tail)
		}
		if shown > lim.MaxTokens && len([]rune(r.Head+r.Tail)) > 1 {
			t.Fatalf("shows %d tokens, over the limit of %d", shown, lim.MaxTokens)
		}
		notice := r.Notice("stdout")
		if want := " tokens limit"; !strings.Contains(notice, want) {
			t.Fatalf("notice %q does not name the token limit", notice)
		}
		if sp.opened != 1 || !sp.closed || !bytes.Equal(sp.buf.Bytes(), sanitizeAll(in)) {
			t.Fatalf("cut by tokens, but the spill (opened %d, closed %v) does not hold the stream", sp.opened, sp.closed)
		}
		if len(r.Next()) == 0 {
			t.Fatalf("cut by tokens, but no next call: %+v", r)
		}
	})
}

func TestTokenLimitNotice(t *testing.T) {
	var sp memSpill
	p := New(Options{Limits: Limits{Strategy: HeadTail, HeadShare: 0.5, MaxLines: 2000, MaxBytes: 50 << 10, MaxTokens: 40}, Spill: sp.opener()})
	for i := range 100 {
		p.Write([]byte(strings.Repeat("word ", i%7+1) + "\n"))
	}
	p.Close()
	r := p.Result()
	got := r.Notice("stdout")
	// Line n holds n%7 words (7 for a multiple of 7) and costs a token
	// more for its newline: lines 1-5 cost 2+3+4+5+6 = 20, lines 97-100
	// 7+8+2+3 = 20, and a line more on either side passes 40.
	const want = "[stdout: showing lines 1-5 and 97-100 of 100 (40 tokens limit). Full output: /spill/test.log. To see what was cut: read it with offset=6 limit=91]"
	if got != want {
		t.Errorf("notice\n got  %s\n want %s", got, want)
	}
	if r.Truncation.TruncatedBy != ByTokens {
		t.Errorf("truncated_by %q, want %q", r.Truncation.TruncatedBy, ByTokens)
	}
}

// A stream that fits its own limits but not the share of a result budget
// it is shown within is spilled, so that the notice can name where the
// rest is (it used to say only "showing lines 1-123 and 317-500").
func TestShareCutSpills(t *testing.T) {
	for _, closeFirst := range []bool{true, false} {
		var sp memSpill
		p := New(Options{Limits: DefaultLimits, Spill: sp.opener()})
		text := strings.Repeat(strings.Repeat("o", 80)+"\n", 500)
		p.Write([]byte(text))
		if closeFirst {
			p.Close()
		}
		r := p.ResultWithin(20_000)
		if !closeFirst {
			p.Write([]byte("more\n"))
			p.Close()
			text += "more\n"
		}
		if r.FullOutputPath == "" || len(r.Next()) == 0 {
			t.Fatalf("closed %v: cut to a share, but no spill file named: %s", closeFirst, r.Notice("stdout"))
		}
		if sp.buf.String() != text || !sp.closed {
			t.Fatalf("closed %v: spill holds %d bytes (closed %v), want the whole %d", closeFirst, sp.buf.Len(), sp.closed, len(text))
		}
	}
}

// BenchmarkResultTokenLimit measures a result whose token limit binds on
// a full default window (50 KiB): the cost the limit adds at render time.
func BenchmarkResultTokenLimit(b *testing.B) {
	lim := DefaultLimits
	lim.MaxTokens = 2000
	p := New(Options{Limits: lim})
	text, err := os.ReadFile("pipeline.go")
	if err != nil {
		b.Fatal(err)
	}
	for range 10 {
		p.Write(text)
	}
	p.Close()
	b.ReportAllocs()
	for b.Loop() {
		if r := p.Result(); r.Truncation.TruncatedBy != ByTokens {
			b.Fatalf("truncated_by %q", r.Truncation.TruncatedBy)
		}
	}
}
