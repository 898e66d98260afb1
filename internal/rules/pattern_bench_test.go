package rules

import (
	"strings"
	"testing"
	"time"

	"mvdan.cc/sh/v3/syntax"
)

// benchWords are the words of commands as the checker resolves them,
// literal and with expansions, globs, tildes and quotes.
func benchWords(b *testing.B) [][]word {
	const src = `git push origin main
npm test -- --watch=false
/usr/bin/git -C "$dir" log --oneline
rm -rf ~/tmp/build/*.o "$HOME"/cache
ls -la src/{a,b} $(pwd)/x 'a b'
docker run --rm -it "img:$tag" sh -c 'echo hi'
`
	f, err := syntax.NewParser().Parse(strings.NewReader(src), "")
	if err != nil {
		b.Fatal(err)
	}
	var out [][]word
	for _, st := range f.Stmts {
		call := st.Cmd.(*syntax.CallExpr)
		var ws []word
		for _, a := range call.Args {
			ws = append(ws, resolveWord(a, src))
		}
		out = append(out, ws)
	}
	return out
}

// BenchmarkMatchPatterns matches word patterns and glob patterns, as
// allow and as deny rules, against resolved words: the matching every
// part of a checked command goes through.
func BenchmarkMatchPatterns(b *testing.B) {
	words := benchWords(b)
	var pats []Pattern
	for _, s := range []string{"git push *", "git push*", "npm test:*", "rm -rf *", "git * main", "* --version",
		"docker run * sh -c *", "ls -la", "/usr/bin/git log *", "*"} {
		p, err := ParsePattern(s)
		if err != nil {
			b.Fatal(err)
		}
		pats = append(pats, p)
	}
	b.ReportAllocs()
	defer reportCPU(b, processCPU())
	n := 0
	for b.Loop() {
		for _, p := range pats {
			for _, ws := range words {
				if p.matchWords(ws, Allow) != noMatch {
					n++
				}
				if p.matchWords(ws, Deny) != noMatch {
					n++
				}
			}
		}
	}
	if n == 0 {
		b.Fatal("no pattern matched")
	}
}

// BenchmarkResolveWords resolves the words of commands with and without
// expansions: the work the checker does for every word it meets.
func BenchmarkResolveWords(b *testing.B) {
	const src = `git -C "$dir" log ~/x/*.go "$HOME"/.config a\ b 'q' $'\t' {a,b} $(pwd)/rm <(ls) plain`
	f, err := syntax.NewParser().Parse(strings.NewReader(src), "")
	if err != nil {
		b.Fatal(err)
	}
	args := f.Stmts[0].Cmd.(*syntax.CallExpr).Args
	b.ReportAllocs()
	defer reportCPU(b, processCPU())
	for b.Loop() {
		for _, a := range args {
			if w := resolveWord(a, src); w.Text == "" {
				b.Fatal("empty word")
			}
		}
	}
}

// BenchmarkParsePattern reads the patterns of rules, as loading a rule
// file does.
func BenchmarkParsePattern(b *testing.B) {
	in := []string{"git status", "npm test *", "npm test:*", "git push*", "git * main", "* --version", "git commit -m 'a b'", `rm -rf \*`}
	b.ReportAllocs()
	defer reportCPU(b, processCPU())
	for b.Loop() {
		for _, s := range in {
			if _, err := ParsePattern(s); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// reportCPU reports the process's CPU time an op since c0: on a loaded
// machine wall time counts the time others ran.
func reportCPU(b *testing.B, c0 time.Duration) {
	b.ReportMetric(float64(processCPU()-c0)/float64(b.N), "cpu-ns/op")
}
