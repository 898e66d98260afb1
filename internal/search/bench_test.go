package search

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
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
	benchGrep(b, GrepInput{Pattern: "ErrUnexpectedEOF", Limit: 100000, OutputMode: ModeCount})
}

func BenchmarkGrepRegexpGOROOT(b *testing.B) {
	benchGrep(b, GrepInput{Pattern: `func \w+Error\(`, Limit: 100000, OutputMode: ModeCount})
}

func benchGrep(b *testing.B, in GrepInput) {
	s := New(Config{Cwd: goroot(b)})
	for b.Loop() {
		if r, err := s.Grep(context.Background(), in); err != nil || r.Details.MatchCount == 0 {
			b.Fatal(err, r.Text)
		}
	}
}

func BenchmarkFindGOROOT(b *testing.B) {
	s := New(Config{Cwd: goroot(b)})
	for b.Loop() {
		if r, err := s.Find(context.Background(), FindInput{Pattern: "*linux*_test.go"}); err != nil || r.Details.Count == 0 {
			b.Fatal(err, r.Text)
		}
	}
}

func BenchmarkGrepIgnoreCaseGOROOT(b *testing.B) {
	benchGrep(b, GrepInput{Pattern: "unsafe", IgnoreCase: true, Limit: 100000, OutputMode: ModeCount})
}
