package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/spillway-dev/spillway"
)

// The hint rewrites run a regular expression only where the text holds a
// literal that every match contains; a pattern changed so that a match
// may lack its literal would silently stop being rewritten.
func TestHintPatternsContainTheirLiteral(t *testing.T) {
	hints := []string{
		"[Command still running. Use check_pid=12 for its output, kill_pid=12 to stop it.]",
		"[Use check_pid=12 again timeout=5000 for the rest, kill_pid=12 to stop them.]",
		"[pid 7 seems to wait for input: send it with write_stdin pid=7 input=...]",
		"[1 match limit reached. Use limit=200 for more]",
		"missing/: not found. Use find or ls to locate it",
		"missing: not found. Use find to locate it",
		"/tmp/a b is a directory, not a file. Use ls to list it",
		"error parsing regexp: set literal=true to search for it as written",
		"run it again with literal=true",
	}
	text := strings.Join(hints, "\n")
	for _, c := range []struct {
		re  *regexp.Regexp
		lit string
	}{
		{jobHint, "Use check_pid="},
		{inputHint, "seems to wait for input"},
		{sameCall, "Use "},
		{useTools, "to locate it"},
		{useLs, useLsWords},
		{literal, "literal=true"},
	} {
		ms := c.re.FindAllString(text, -1)
		if len(ms) == 0 {
			t.Errorf("%v matches none of the hints it is for", c.re)
		}
		for _, m := range ms {
			if !strings.Contains(m, c.lit) {
				t.Errorf("%v matched %q, which lacks %q: the rewrite would be skipped", c.re, m, c.lit)
			}
		}
	}
}

// BenchmarkPersonTextGrep is the CLI's rewrite of a grep result as large
// as one over Go's tree (438 matches, 40 KB) that names no next call.
func BenchmarkPersonTextGrep(b *testing.B) {
	var sb strings.Builder
	for i := range 438 {
		fmt.Fprintf(&sb, "archive/tar/reader_%d.go:%d: \t\treturn nil, io.ErrUnexpectedEOF // the header ends early\n", i, i*7)
	}
	text := sb.String()
	args, _ := json.Marshal(map[string]any{"pattern": "ErrUnexpectedEOF", "path": ".", "limit": 100000})
	call := spillway.ToolCall{Name: "grep", Args: args}
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		personText(text, nil, nil, call)
	}
}

// A grep line cut at its width names the read that shows it whole as a
// command that works when pasted: the path goes into the command, not
// before it in the model's words.
func TestGrepCutLineHintIsACommand(t *testing.T) {
	t.Parallel()
	c := attackCLI(t)
	dir := t.TempDir()
	long := filepath.Join(dir, "long.txt")
	if err := os.WriteFile(long, []byte(strings.Repeat("x", 3000)+"needle\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := c.run(t, "--config", os.DevNull, "grep", "needle", dir)
	want := "e.g. spillway --config " + os.DevNull + " read " + long + " --offset 1 --limit 1]"
	if !strings.Contains(r.stdout, want) || strings.Contains(r.stdout, "path=") {
		t.Errorf("the hint:\n%s\nwant %q", r.stdout, want)
	}
}

// write over a file the one-shot session has not seen says how to
// replace it in CLI words: the flag, and where its value comes from.
func TestWriteUnseenHintIsTheCLIs(t *testing.T) {
	t.Parallel()
	c := attackCLI(t)
	f := filepath.Join(t.TempDir(), "f.txt")
	if err := os.WriteFile(f, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := c.run(t, "--config", os.DevNull, "write", f, "--content", "new")
	if !strings.Contains(r.stdout, "Give --expected-sha256 with its sha256 (sha256sum prints it)") || strings.Contains(r.stdout, "expected_sha256") || strings.Contains(r.stdout, "Read it first") {
		t.Errorf("the refusal:\n%s%s", r.stdout, r.stderr)
	}
}

// apply_patch adding a file that exists says what works in a shell: a
// one-shot command has read nothing, so "read it first" cannot help.
func TestApplyPatchUnseenHintIsTheCLIs(t *testing.T) {
	t.Parallel()
	c := attackCLI(t)
	f := filepath.Join(t.TempDir(), "f.txt")
	if err := os.WriteFile(f, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := c.run(t, "--config", os.DevNull, "apply_patch", "*** Begin Patch\n*** Add File: "+f+"\n+new\n*** End Patch\n")
	if !strings.Contains(r.stdout+r.stderr, "spillway write --expected-sha256") || strings.Contains(r.stdout+r.stderr, "read it first") {
		t.Errorf("the refusal:\n%s%s", r.stdout, r.stderr)
	}
}
