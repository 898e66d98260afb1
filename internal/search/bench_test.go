package search

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spillway-dev/spillway/tool"
)

// goroot is the tree the benchmarks search: Go's own sources.
func goroot(b *testing.B) string {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Skip("no go command to ask for GOROOT")
	}
	dir := filepath.Join(strings.TrimSpace(string(out)), "src")
	if _, err := os.Stat(dir); err != nil {
		b.Skip("no GOROOT/src")
	}
	return dir
}

func BenchmarkGrepLiteralGOROOT(b *testing.B) {
	benchGrep(b, query(b, "ErrUnexpectedEOF", tool.GrepInput{Limit: 100000, OutputMode: ModeCount}))
}

func BenchmarkGrepRegexpGOROOT(b *testing.B) {
	benchGrep(b, query(b, `func \w+Error\(`, tool.GrepInput{Limit: 100000, OutputMode: ModeCount}))
}

func benchGrep(b *testing.B, q tool.GrepInput) {
	s := New(Config{Cwd: goroot(b)})
	for b.Loop() {
		if r, err := s.Grep(context.Background(), q); err != nil || r.Matches == 0 {
			b.Fatal(err, r.Out.Head)
		}
	}
}

func BenchmarkFindGOROOT(b *testing.B) {
	s := New(Config{Cwd: goroot(b)})
	for b.Loop() {
		if r, err := s.Find(context.Background(), tool.FindInput{Pattern: "*linux*_test.go"}); err != nil || r.Count == 0 {
			b.Fatal(err, r.Out.Head)
		}
	}
}

func BenchmarkGrepIgnoreCaseGOROOT(b *testing.B) {
	benchGrep(b, queryWith(b, "unsafe", MatchOptions{IgnoreCase: true}, tool.GrepInput{Limit: 100000, OutputMode: ModeCount}))
}
