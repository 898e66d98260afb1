package rules

import (
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// bigCommand is about n bytes of the commands agents send: lists,
// pipelines, substitutions, quoting, wrappers and a here-document.
func bigCommand(n int) string {
	const chunk = `git status && ls -la src | grep -v '^total' | sort -k5 -n; echo "built $(date +%s)" > out.log
for f in *.go; do gofmt -l "$f" || echo "bad: $f"; done
timeout 10 npm test -- --watch=false 2>&1 | tee test.log
bash -c 'cd sub && make -j4 all' && find . -name '*.o' -exec ls -l {} \;
cat <<'EOF' | grep -c x
line with $(nothing) expanded
EOF
`
	var b strings.Builder
	for b.Len() < n {
		b.WriteString(chunk)
	}
	return b.String()
}

func benchSet(b testing.TB) *Set {
	_, s := corpusSets(b)
	return s
}

// BenchmarkCheck100KB decides a 100 KB command; the target is under
// 10 ms.
func BenchmarkCheck100KB(b *testing.B) {
	s := benchSet(b)
	cmd := bigCommand(100 << 10)
	b.SetBytes(int64(len(cmd)))
	b.ReportAllocs()
	c0 := processCPU()
	n := 0
	for b.Loop() {
		if v := s.Check(cmd); len(v.parts) == 0 {
			b.Fatal("no parts")
		}
		n++
	}
	// On a loaded machine wall time counts the time others ran; the
	// process's CPU time (GC included) is what deciding costs.
	b.ReportMetric(float64(processCPU()-c0)/float64(n)/1e6, "cpu-ms/op")
}

// BenchmarkParts100KB makes the parts of the 100 KB command's verdict as
// a result's details show them, once it is decided: the step after
// Check, which a bash call with rules in force takes once.
func BenchmarkParts100KB(b *testing.B) {
	v := benchSet(b).Check(bigCommand(100 << 10))
	b.ReportAllocs()
	for b.Loop() {
		if len(v.Parts()) == 0 {
			b.Fatal("no parts")
		}
	}
}

// BenchmarkParse100KB is the parser alone on the same input: the floor
// BenchmarkCheck100KB is read against when the machine is loaded.
func BenchmarkParse100KB(b *testing.B) {
	cmd := bigCommand(100 << 10)
	p := syntax.NewParser(syntax.Variant(syntax.LangBash))
	b.SetBytes(int64(len(cmd)))
	b.ReportAllocs()
	c0 := processCPU()
	n := 0
	for b.Loop() {
		if _, err := p.Parse(strings.NewReader(cmd), ""); err != nil {
			b.Fatal(err)
		}
		n++
	}
	b.ReportMetric(float64(processCPU()-c0)/float64(n)/1e6, "cpu-ms/op")
}

func BenchmarkCheckTrue(b *testing.B) {
	s := benchSet(b)
	b.ReportAllocs()
	for b.Loop() {
		if v := s.Check("true"); v.Decision != Allow {
			b.Fatal(v.Decision)
		}
	}
}

// TestCheck100KBParts guards the benchmark's input: it must be decided
// part by part, not rejected as unparsable.
func TestCheck100KBParts(t *testing.T) {
	s := benchSet(t)
	v := s.Check(bigCommand(100 << 10))
	for _, p := range v.Parts() {
		if strings.Contains(p.Reason, "does not parse") {
			t.Fatalf("the benchmark input does not parse: %s", p.Reason)
		}
	}
	if len(v.Parts()) < 1000 {
		t.Fatalf("%d parts", len(v.Parts()))
	}
}
