package output

import (
	"bytes"
	"math/rand/v2"
	"os"
	"testing"
)

func TestEstimateTokens(t *testing.T) {
	for _, c := range []struct {
		text string
		want int
	}{
		{"", 0},
		{"hello", 2},       // 5 letters: ceil(5/4)
		{"hello world", 4}, // a lone space joins the word after it
		{"HTTPServer", 5},  // HTTP at 2 a token, then "Server"
		{"12345", 2},       // digits in threes
		{"\n\n\n", 1},      // one run of newlines
		{"--------", 1},    // a rule
		{"){", 1},          // mixed punctuation pairs up
		{"        x", 2},   // indentation, then a letter
		{"日本語", 3},         // one a character
		{"日本語の", 5},        // and one more every fourth
		{"😀", 2},           // a four-byte character
		{"a1b2", 4},        // letters after digits: a hash
		{"élan", 2},        // é, then "lan"
	} {
		if got := EstimateTokensString(c.text); got != c.want {
			t.Errorf("EstimateTokensString(%q) = %d, want %d", c.text, got, c.want)
		}
		if got := EstimateTokens([]byte(c.text)); got != c.want {
			t.Errorf("EstimateTokens(%q) = %d, want %d", c.text, got, c.want)
		}
	}
}

// The estimate of a text does not depend on how it is split: a counter fed
// a stream in pieces counts what the whole counts.
func TestTokenCounterStreams(t *testing.T) {
	text, err := os.ReadFile("testdata/tokens/cjk.txt")
	if err != nil {
		t.Fatal(err)
	}
	js, err := os.ReadFile("testdata/tokens/minjs.txt")
	if err != nil {
		t.Fatal(err)
	}
	text = append(text, js...)
	want := EstimateTokens(text)
	r := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		var c TokenCounter
		for rest := text; len(rest) > 0; {
			n := min(len(rest), r.IntN(40))
			c.Write(rest[:n])
			rest = rest[n:]
		}
		if got := c.Tokens(); got != int64(want) {
			t.Fatalf("in pieces: %d tokens, whole: %d", got, want)
		}
	}
}

func FuzzTokenCounter(f *testing.F) {
	f.Add([]byte("func main() {\n\tfmt.Println(\"日本語\")\n}\n"), 7)
	f.Add([]byte("aGVsbG8gd29ybGQ=  ----  \xff\xfe"), 3)
	f.Fuzz(func(t *testing.T, b []byte, at int) {
		whole := EstimateTokens(b)
		if at < 0 || at > len(b) {
			at = len(b) / 2
		}
		var c TokenCounter
		c.Write(b[:at])
		c.WriteString(string(b[at:]))
		if c.Tokens() != int64(whole) {
			t.Fatalf("split at %d: %d tokens, whole: %d", at, c.Tokens(), whole)
		}
		if whole > len(b)*2 {
			t.Fatalf("%d tokens for %d bytes: more than two a byte", whole, len(b))
		}
		if len(bytes.TrimSpace(b)) > 0 && whole == 0 {
			t.Fatalf("no tokens for %q", b)
		}
		c.Reset()
		if c.Tokens() != 0 {
			t.Fatal("Reset kept a count")
		}
	})
}

func TestEstimateTokensDoesNotAllocate(t *testing.T) {
	b := bytes.Repeat([]byte("func (w *window) write(b []byte) { 日本語 }\n"), 100)
	s := string(b)
	if n := testing.AllocsPerRun(100, func() {
		EstimateTokens(b)
		EstimateTokensString(s)
		var c TokenCounter
		c.Write(b)
	}); n != 0 {
		t.Errorf("%v allocations a run, want 0", n)
	}
}

func BenchmarkEstimateTokens(b *testing.B) {
	text, err := os.ReadFile("pipeline.go")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		EstimateTokens(text)
	}
}
