package spillway_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spillway-dev/spillway"
)

// pi itself, run side by side with the pi profile: the truncation of pi's
// coding agent as published on npm (@mariozechner/pi-coding-agent 0.73.1,
// dist/core/tools/truncate.js: truncateHead for read, truncateTail for
// bash) and spillway's read and bash under --profile pi, on the same
// inputs, at the design's 30 KiB and at the 50 KiB pi ships with
// (max_bytes 51200). docs/profiles.md tabulates the outcome.
//
// .ci/run installs the package and sets SPILLWAY_PEER_PI to its directory.
const piPeerEnv = "SPILLWAY_PEER_PI"

// piPeerScript runs pi's truncate functions on each case and prints what
// they return.
const piPeerScript = `
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
const [dir, casesFile] = process.argv.slice(2);
const t = await import(pathToFileURL(dir + "/dist/core/tools/truncate.js").href);
const out = [];
for (const c of JSON.parse(readFileSync(casesFile, "utf8"))) {
  const content = readFileSync(c.file, "utf8");
  const f = c.mode === "head" ? t.truncateHead : t.truncateTail;
  const r = f(content, { maxBytes: c.maxBytes });
  out.push({ content: r.content, truncated: r.truncated, truncatedBy: r.truncatedBy ?? "",
    totalLines: r.totalLines, outputLines: r.outputLines, lastLinePartial: r.lastLinePartial,
    firstLineExceedsLimit: r.firstLineExceedsLimit });
}
process.stdout.write(JSON.stringify(out));
`

// piPeerResult is what either side kept and said.
type piPeerResult struct {
	Content               string `json:"content"`
	Truncated             bool   `json:"truncated"`
	TruncatedBy           string `json:"truncatedBy"`
	TotalLines            int64  `json:"totalLines"`
	OutputLines           int64  `json:"outputLines"`
	LastLinePartial       bool   `json:"lastLinePartial"`
	FirstLineExceedsLimit bool   `json:"firstLineExceedsLimit"`
}

type piPeerCase struct {
	name  string
	mode  string // "head": read; "tail": bash
	input string
	// lineCount: the input ends in a newline, which pi counts as one more
	// (empty) line and spillway as the end of the last; nothing else
	// differs.
	lineCount bool
}

func piPeerCases() []piPeerCase {
	seq := strings.TrimSuffix(seqLines(1, 50000), "\n")
	wide := func(from, to int) string {
		var b strings.Builder
		for i := from; i <= to; i++ {
			fmt.Fprintf(&b, "%-60d\n", i)
		}
		return strings.TrimSuffix(b.String(), "\n")
	}
	long := strings.Repeat("y", 100*1024)
	return []piPeerCase{
		{name: "bash: 50000 lines (line limit)", mode: "tail", input: seq},
		{name: "bash: 50000 lines of 61 bytes (byte limit)", mode: "tail", input: wide(1, 50000)},
		{name: "bash: last line alone over the limit", mode: "tail", input: strings.TrimSuffix(seqLines(1, 49999), "\n") + "\n" + long},
		{name: "bash: under both limits", mode: "tail", input: strings.TrimSuffix(seqLines(1, 2000), "\n")},
		{name: "bash: a trailing newline", mode: "tail", input: seqLines(1, 50000), lineCount: true},
		{name: "read: 5000 lines (line limit)", mode: "head", input: strings.TrimSuffix(seqLines(1, 5000), "\n")},
		{name: "read: 5000 lines of 61 bytes (byte limit)", mode: "head", input: wide(1, 5000)},
		{name: "read: first line over the limit", mode: "head", input: strings.Repeat("x", 50*1024+1) + "\nshort"},
		{name: "read: a trailing newline", mode: "head", input: seqLines(1, 5000), lineCount: true},
	}
}

func TestPiPeerSideBySide(t *testing.T) {
	dir := os.Getenv(piPeerEnv)
	if dir == "" {
		t.Skipf("set %s to the directory of @mariozechner/pi-coding-agent 0.73.1 to run this test (.ci/run installs it from npm)", piPeerEnv)
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed")
	}
	work := t.TempDir()
	type job struct {
		File     string `json:"file"`
		Mode     string `json:"mode"`
		MaxBytes int    `json:"maxBytes"`
	}
	cases := piPeerCases()
	limits := []int{30 * 1024, 50 * 1024} // the design's, and pi's as shipped
	var jobs []job
	for i, c := range cases {
		f := filepath.Join(work, fmt.Sprintf("case%d.txt", i))
		if err := os.WriteFile(f, []byte(c.input), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, lim := range limits {
			jobs = append(jobs, job{File: f, Mode: c.mode, MaxBytes: lim})
		}
	}
	js, _ := json.Marshal(jobs)
	casesFile := filepath.Join(work, "cases.json")
	script := filepath.Join(work, "pi.mjs")
	os.WriteFile(casesFile, js, 0o644)
	os.WriteFile(script, []byte(piPeerScript), 0o644)
	out, err := exec.Command("node", script, dir, casesFile).Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	var pi []piPeerResult
	if err := json.Unmarshal(out, &pi); err != nil {
		t.Fatalf("pi's results: %v", err)
	}

	for k, jb := range jobs {
		c := cases[k/len(limits)]
		t.Run(fmt.Sprintf("%s/%dKB", c.name, jb.MaxBytes/1024), func(t *testing.T) {
			sw := spillwayPi(t, jb.File, c.mode, jb.MaxBytes)
			want := pi[k]
			if c.lineCount {
				// pi counts the empty line after the last newline as a
				// line of its own, and keeps it among its last lines:
				// one number line less than spillway, which counts a
				// trailing newline as the end of the last line.
				want.TotalLines--
				if c.mode == "tail" && want.TruncatedBy == "lines" {
					first, _, _ := strings.Cut(sw.Content, "\n")
					if sw.OutputLines != want.OutputLines || sw.Content != first+"\n"+want.Content {
						t.Errorf("pi keeps %d lines ending %q, spillway %d: not one more number line", want.OutputLines, want.Content[len(want.Content)-8:], sw.OutputLines)
					}
					want.Content = sw.Content
				}
			}
			sw.Content = strings.TrimSuffix(sw.Content, "\n")
			want.Content = strings.TrimSuffix(want.Content, "\n")
			if sw != want {
				t.Errorf("pi and spillway differ:\npi       %s\nspillway %s", summary(want), summary(sw))
			}
		})
	}
}

func summary(r piPeerResult) string {
	c := r.Content
	if len(c) > 60 {
		c = c[:30] + "…" + c[len(c)-30:]
	}
	r.Content = ""
	return fmt.Sprintf("%+v content(%d bytes) %q", r, len(c), c)
}

// spillwayPi runs a file through read (head) or bash cat (tail) under the
// pi profile with maxBytes, and says it as pi's truncate functions do.
func spillwayPi(t *testing.T, file, mode string, maxBytes int) piPeerResult {
	t.Helper()
	pol, err := spillway.Profile("pi")
	if err != nil {
		t.Fatal(err)
	}
	pol.Read.MaxBytes = maxBytes
	pol.Bash.Stdout.MaxBytes, pol.Bash.Stderr.MaxBytes = maxBytes, maxBytes
	ts := bashToolset(t, spillway.Options{Policy: &pol, Cwd: filepath.Dir(file)})
	if mode == "head" {
		r, err := ts.Read(context.Background(), spillway.ReadInput{Path: file})
		if err != nil {
			t.Fatal(err)
		}
		tr := r.Details.Truncation
		return piPeerResult{Content: r.Content, Truncated: tr.Truncated, TruncatedBy: tr.TruncatedBy,
			TotalLines: tr.TotalLines, OutputLines: tr.OutputLines,
			FirstLineExceedsLimit: tr.Truncated && tr.OutputLines == 0}
	}
	r := bashRun(t, ts, spillway.BashInput{Command: "cat " + filepath.Base(file)})
	tr := r.Details.Stdout.Truncation
	return piPeerResult{Content: r.Content, Truncated: tr.Truncated, TruncatedBy: tr.TruncatedBy,
		TotalLines: tr.TotalLines, OutputLines: tr.OutputLines, LastLinePartial: tr.LastLinePartial}
}
