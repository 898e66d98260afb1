package output

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tiktoken-go/tokenizer"
)

// The calibration corpus: one sample of each kind of text a tool result
// holds. Go source and prose are spillway's own files; the others are in
// testdata/tokens, written or generated for this test.
var tokenCorpus = []struct {
	class string
	files []string
	// The bounds of estimate/real that docs/tokens.md publishes, for
	// both tokenizers.
	lo, hi float64
}{
	{"Go source", []string{"window.go", "pipeline.go", "sanitize.go"}, 1.0, 1.7},
	{"English prose (Markdown)", []string{"../docs/architecture.md", "../docs/notices.md"}, 1.0, 1.7},
	{"build and test log", []string{"testdata/tokens/log.txt"}, 1.0, 1.7},
	{"JSON", []string{"testdata/tokens/json.txt"}, 1.0, 1.7},
	{"minified JavaScript", []string{"testdata/tokens/minjs.txt"}, 1.0, 1.7},
	{"diff", []string{"testdata/tokens/diff.txt"}, 1.0, 1.7},
	{"base64 (random bytes)", []string{"testdata/tokens/base64.txt"}, 0.85, 1.7},
	{"hex digests (sha256sum)", []string{"testdata/tokens/hex.txt"}, 1.0, 1.7},
	{"CJK text", []string{"testdata/tokens/cjk.txt"}, 1.0, 1.7},
}

// TestTokenEstimateCalibration measures the estimate against two public
// tokenizers on every class of the corpus and holds it to the published
// bounds. Run with -v to print the table docs/tokens.md shows.
func TestTokenEstimateCalibration(t *testing.T) {
	encs := []tokenizer.Encoding{tokenizer.Cl100kBase, tokenizer.O200kBase}
	codecs := make([]tokenizer.Codec, len(encs))
	for i, e := range encs {
		c, err := tokenizer.Get(e)
		if err != nil {
			t.Fatal(err)
		}
		codecs[i] = c
	}
	t.Logf("| text | bytes | estimate | cl100k_base | ratio | o200k_base | ratio | ceil(bytes/4) ÷ cl100k |")
	t.Logf("|---|---:|---:|---:|---:|---:|---:|---:|")
	for _, cl := range tokenCorpus {
		var text strings.Builder
		for _, f := range cl.files {
			b, err := os.ReadFile(filepath.FromSlash(f))
			if err != nil {
				t.Fatal(err)
			}
			text.Write(b)
		}
		s := text.String()
		est := EstimateTokensString(s)
		row := fmt.Sprintf("| %s | %d | %d |", cl.class, len(s), est)
		var cl100k int
		for i, c := range codecs {
			real, err := c.Count(s)
			if err != nil {
				t.Fatal(err)
			}
			if i == 0 {
				cl100k = real
			}
			ratio := float64(est) / float64(real)
			row += fmt.Sprintf(" %d | %.2f |", real, ratio)
			if ratio < cl.lo || ratio > cl.hi {
				t.Errorf("%s: estimate %d is %.2f× %s's %d, outside [%.2f, %.2f]", cl.class, est, ratio, encs[i], real, cl.lo, cl.hi)
			}
		}
		row += fmt.Sprintf(" %.2f |", float64((len(s)+3)/4)/float64(cl100k))
		t.Log(row)
	}
}
