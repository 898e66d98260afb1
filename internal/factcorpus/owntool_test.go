package factcorpus

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestClaudeCodeBash(t *testing.T) {
	if got := ClaudeCodeBash("ok\n\n", 0); got != "ok" {
		t.Errorf("a short success: %q, want it whole without the trailing newlines", got)
	}
	if got := ClaudeCodeBash("bad\n", 2); got != "Exit code 2\nbad" {
		t.Errorf("a short failure: %q", got)
	}
	// 30,000 characters of a success are shown whole; one more is saved.
	long := strings.Repeat("é", 30_000)
	if got := ClaudeCodeBash(long, 0); got != long {
		t.Errorf("30,000 characters of a success were not shown whole")
	}
	lines := strings.Repeat("line of twenty bytes\n", 2000)
	got := ClaudeCodeBash(lines, 0)
	if !strings.HasPrefix(got, "<persisted-output>\nOutput too large (41KB). Full output saved to: "+ClaudeCodePersistedPath+"\n\nPreview (first 2KB):\n") ||
		!strings.HasSuffix(got, "line of twenty bytes\n...\n</persisted-output>") || strings.Count(got, "line of twenty bytes") != 95 {
		t.Errorf("a long success: %q", got)
	}
	// Of a failure, the first 30,000 bytes (a character cut in two
	// dropped) are cut to their first and last 5,000 characters.
	fail := "a" + strings.Repeat("✓", 20_000)
	got = ClaudeCodeBash(fail, 1)
	kept := []rune("Exit code 1\na" + strings.Repeat("✓", 9_999))
	want := string(kept[:5000]) + fmt.Sprintf("\n\n... [%d characters truncated] ...\n\n", len(kept)-10_000) + string(kept[len(kept)-5000:])
	if got != want {
		t.Errorf("a long failure: got %d characters, want %d", utf8.RuneCountInString(got), utf8.RuneCountInString(want))
	}
}

func TestClaudeCodeSize(t *testing.T) {
	for n, want := range map[int]string{123870: "121KB", 121223: "118.4KB", 1988895: "1.9MB", 3931010: "3.7MB", 1 << 20: "1MB"} {
		if got := claudeCodeSize(n); got != want {
			t.Errorf("claudeCodeSize(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestCodexExecCommand(t *testing.T) {
	if got := CodexExecCommand("ok\n", 0); got != "Chunk ID: 000000\nWall time: 0.1000 seconds\nProcess exited with code 0\nOriginal token count: 1\nOutput:\nok\n" {
		t.Errorf("a short output: %q", got)
	}
	// Over 40,000 bytes: the first and last 20,000 on whole characters.
	out := "x" + strings.Repeat("é\n", 30_000)
	got := CodexExecCommand(out, 1)
	head, tail, ok := strings.Cut(got, "…12501 tokens truncated…")
	if !ok {
		t.Fatalf("no marker of 12,501 tokens (90,001 bytes less 40,000, in fours, rounded up): %q", got[:200])
	}
	if !strings.HasSuffix(head, "Original token count: 22501\nOutput:\nWarning: truncated output (original token count: 22501)\nTotal output lines: 30000\n\nx"+strings.Repeat("é\n", 6666)) ||
		tail != "\n"+strings.Repeat("é\n", 6666) || !utf8.ValidString(head) || !utf8.ValidString(tail) {
		t.Errorf("a long output: head ends %q, tail %d bytes", head[len(head)-40:], len(tail))
	}
	// Over 1 MiB, Codex says how many bytes it dropped.
	big := strings.Repeat("0123456789\n", 200_000)
	got = CodexExecCommand(big, 0)
	if !strings.Contains(got, "\nWarning: truncated output (original token count: 550000)\n... 1151424 bytes omitted ...\n\n0123456789\n") ||
		!strings.Contains(got, "…252152 tokens truncated…") || strings.Contains(got, "Total output lines") {
		t.Errorf("an output over 1 MiB: %q", got[:300])
	}
}
