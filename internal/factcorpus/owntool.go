package factcorpus

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// OwnTool is a model of the text the client's own shell tool gives the
// model of a command whose output (stdout and stderr as one stream, in
// the order written) is out and whose exit code is code. ok is false
// for a client with no model.
//
// Each model was checked against the client itself, text for text, on
// every case of the corpus (e2e's TestFactsThroughClients, Claude Code
// 2.1.330 and Codex 0.169.0); the paths, ids and times the clients make
// up are the only parts that differ.
func OwnTool(client, out string, code int) (text string, ok bool) {
	switch client {
	case "claude-code":
		return ClaudeCodeBash(out, code), true
	case "codex":
		return CodexExecCommand(out, code), true
	}
	return "", false
}

// ClaudeCodePersistedPath is the model's path of a file Claude Code
// saves a long output to: a user's project directory, a session's id
// and a result's, as long as the client's own.
const ClaudeCodePersistedPath = "/home/dev/.claude/projects/-home-dev-src-app/3f6c2a1e-8b4d-4e7a-9c0f-5d1b2e3a4c6f/tool-results/b4q7m2x9k.txt"

// ClaudeCodeBash models Claude Code's Bash. The output, its trailing
// white space trimmed, is shown so:
//   - of a success, up to 30,000 characters is shown whole; a longer one
//     is saved to a file and shown as its size, the file's path and the
//     whole lines of its first 2,000 characters;
//   - of a failure, its first 30,000 bytes (the rest is dropped, and
//     nothing says so), trimmed, follow "Exit code N"; when that text is
//     over 10,000 characters, its first and last 5,000 are shown with
//     the number left out between.
func ClaudeCodeBash(out string, code int) string {
	const limit, preview, errorEnd = 30_000, 2_000, 5_000
	if code != 0 {
		if len(out) > limit {
			out = out[:limit]
			for !utf8.ValidString(out) {
				out = out[:len(out)-1]
			}
		}
		t := []rune(fmt.Sprintf("Exit code %d\n", code) + strings.TrimRight(out, " \t\r\n"))
		if len(t) <= 2*errorEnd {
			return string(t)
		}
		return string(t[:errorEnd]) + fmt.Sprintf("\n\n... [%d characters truncated] ...\n\n", len(t)-2*errorEnd) + string(t[len(t)-errorEnd:])
	}
	out = strings.TrimRight(out, " \t\r\n")
	r := []rune(out)
	if len(r) <= limit {
		return out
	}
	head := string(r[:preview])
	if i := strings.LastIndexByte(head, '\n'); i >= 0 {
		head = head[:i]
	}
	return fmt.Sprintf("<persisted-output>\nOutput too large (%s). Full output saved to: %s\n\nPreview (first 2KB):\n%s\n...\n</persisted-output>",
		claudeCodeSize(len(out)), ClaudeCodePersistedPath, head)
}

// claudeCodeSize writes a size as Claude Code does: KB or MB (of 1,024)
// to one decimal, without a trailing ".0".
func claudeCodeSize(bytes int) string {
	v, unit := float64(bytes)/1024, "KB"
	if v >= 1024 {
		v, unit = v/1024, "MB"
	}
	return strings.TrimSuffix(fmt.Sprintf("%.1f", v), ".0") + unit
}

// CodexExecCommand models Codex's exec_command (its shell tool) for a
// model that calls it directly: a header with a chunk id, the wall time,
// the exit code and the output's size in tokens (a token is four
// bytes), then the output up to 10,000 tokens whole; a longer one as its
// first and last 20,000 bytes with the tokens left out between, after a
// warning and the number of lines. Of an output over 1 MiB Codex keeps
// only a MiB, and says how many bytes it dropped instead of the lines.
func CodexExecCommand(out string, code int) string {
	const budget, retained = 40_000, 1 << 20
	tokens := func(n int) int { return (n + 3) / 4 }
	head := fmt.Sprintf("Chunk ID: 000000\nWall time: 0.1000 seconds\nProcess exited with code %d\nOriginal token count: %d\nOutput:\n",
		code, tokens(len(out)))
	if len(out) <= budget {
		return head + out
	}
	head += fmt.Sprintf("Warning: truncated output (original token count: %d)\n", tokens(len(out)))
	kept := len(out)
	if len(out) > retained {
		dropped := fmt.Sprintf("... %d bytes omitted ...\n\n", len(out)-retained)
		head += dropped
		kept = retained + len(dropped)
	} else {
		head += fmt.Sprintf("Total output lines: %d\n\n", strings.Count(out, "\n")+boolInt(!strings.HasSuffix(out, "\n")))
	}
	prefix := out[:budget/2]
	for !utf8.ValidString(prefix) {
		prefix = prefix[:len(prefix)-1]
	}
	start := len(out) - budget/2
	for start < len(out) && !utf8.RuneStart(out[start]) {
		start++
	}
	return head + prefix + fmt.Sprintf("…%d tokens truncated…", tokens(kept-budget)) + out[start:]
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
