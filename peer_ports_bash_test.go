package spillway_test

import (
	"context"
	"encoding/json"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/spillway-dev/spillway"
)

// pipe's and the opencode fork's own tests, ported (see peer_cases_test.go).

// streamSeen is what a tail or head truncation of one stream returns, as
// pipe's TruncateResult names it.
func streamSeen(content string, d spillway.StreamDetails) []seen {
	tr := d.Truncation
	return []seen{
		{"Content", nil, content},
		{"Truncated", nil, tr.Truncated},
		{"TruncatedBy", nil, tr.TruncatedBy},
		{"TotalLines", nil, tr.TotalLines},
		{"OutputLines", nil, tr.OutputLines},
		{"LastLinePartial", nil, tr.LastLinePartial},
	}
}

// pipeTruncation is what pipe's TruncateTail returned on a case's input.
type pipeTruncation struct {
	content                 string
	truncated               bool
	by                      string
	totalLines, outputLines int
	lastLinePartial         bool
}

func (w pipeTruncation) against(got []seen) []seen {
	peer := []any{w.content, w.truncated, w.by, w.totalLines, w.outputLines, w.lastLinePartial}
	for i := range got {
		got[i].peer = peer[i]
	}
	return got
}

func pipeCases() []portedCase {
	var cs []portedCase
	sanitize := func(name, in, want string) {
		cs = append(cs, portedCase{peer: "pipe", test: "TestSanitize/" + name, run: func(t *testing.T) []seen {
			ts, dir := profileToolset(t, "pipe")
			out, d := runPeerCase(t, ts, dir, peerCase{in: in})
			if d.FullOutputPath != "" {
				// Cut to the profile's limits: the sanitized whole is the
				// spill file.
				b, err := os.ReadFile(d.FullOutputPath)
				if err != nil {
					t.Fatal(err)
				}
				out = string(b)
			}
			return []seen{{"text", want, out}}
		}})
	}
	sanitize("passes plain text through unchanged", "hello world", "hello world")
	sanitize("strips ANSI color codes", "\x1b[31mhello\x1b[0m", "hello")
	sanitize("strips ANSI bold and underline", "\x1b[1mbold\x1b[22m", "bold")
	sanitize("preserves tabs and newlines", "a\tb\nc", "a\tb\nc")
	sanitize("removes control characters", "a\x01b\x02c\x07", "abc")
	sanitize("normalizes CRLF to LF", "a\r\nb\r\n", "a\nb\n")
	sanitize("resolves lone CR as terminal overwrite", "progress 50%\rprogress done", "progress done")
	sanitize("resolves multiple CRs on one line", "10%\r50%\rdone", "done")
	sanitize("CR overwrite preserves trailing chars when segment is shorter", "abcdef\rxy", "xycdef")
	sanitize("handles empty string", "", "")
	sanitize("handles string with only escape codes", "\x1b[31m\x1b[0m", "")
	sanitize("strips OSC sequences", "\x1b]0;title\x07text", "text")
	sanitize("handles mixed content", "\x1b[32m✓\x1b[0m test passed\n\x1b[31m✗\x1b[0m test failed\n", "✓ test passed\n✗ test failed\n")
	sanitize("handles realistic compiler output", "\x1b[1mmain.go:10:5:\x1b[0m \x1b[31merror:\x1b[0m undefined: foo\n", "main.go:10:5: error: undefined: foo\n")
	sanitize("handles large input efficiently", strings.Repeat("\x1b[32m"+strings.Repeat("x", 1000)+"\x1b[0m\n", 1000), strings.Repeat(strings.Repeat("x", 1000)+"\n", 1000))

	truncate := func(name, in string, maxLines, maxBytes int, want pipeTruncation, doc ...docRef) {
		c := portedCase{peer: "pipe", test: "TestTruncateTail/" + name}
		if len(doc) > 0 {
			c.doc = doc[0]
		}
		cs = append(cs, c)
		cs[len(cs)-1].run = func(t *testing.T) []seen {
			ts, dir := profileToolset(t, "pipe")
			out, d := runPeerCase(t, ts, dir, peerCase{in: in, maxLines: maxLines, maxBytes: maxBytes})
			return want.against(streamSeen(out, d))
		}
	}
	x100 := strings.Repeat("x", 100) + "\n"
	truncate("returns short input unchanged", "hello\nworld\n", 100, 1024, pipeTruncation{"hello\nworld\n", false, "", 2, 2, false})
	truncate("truncates by line count", strings.Join(lines(100, "line %d"), "\n")+"\n", 10, 1024*1024,
		pipeTruncation{strings.Join(lines(100, "line %d")[90:], "\n") + "\n", true, "lines", 100, 10, false})
	truncate("truncates by byte count", strings.Repeat(x100, 10), 1000, 350, pipeTruncation{strings.Repeat(x100, 3), true, "bytes", 10, 3, false})
	truncate("handles empty input", "", 100, 1024, pipeTruncation{"", false, "", 0, 0, false})
	truncate("handles input without trailing newline", "hello\nworld", 100, 1024, pipeTruncation{"hello\nworld", false, "", 2, 2, false})
	truncate("single line exceeding byte limit takes tail", strings.Repeat("x", 1000), 100, 200, pipeTruncation{strings.Repeat("x", 200), true, "bytes", 1, 1, true})
	truncate("single line with trailing newline exceeding byte limit", strings.Repeat("x", 1000)+"\n", 100, 200, pipeTruncation{strings.Repeat("x", 200), true, "bytes", 1, 1, true},
		docRef{"docs/profiles.md", "its last 199 bytes and the newline: the byte budget counts the newline that ends the line, as every cut does"})
	truncate("preserves complete lines at boundary", "a\nb\nc\n", 2, 1024, pipeTruncation{"b\nc\n", true, "lines", 3, 2, false})
	truncate("output never exceeds maxBytes including trailing newline", strings.Join(lines(10, "line_%04d!"), "\n")+"\n", 1000, 25,
		pipeTruncation{"line_0008!\nline_0009!\n", true, "bytes", 10, 2, false})
	truncate("with default limits handles large output", strings.Join(lines(5000, "line %04d padding"), "\n")+"\n", 0, 0,
		pipeTruncation{strings.Join(lines(5000, "line %04d padding")[3000:], "\n") + "\n", true, "lines", 5000, 2000, false})
	return cs
}

// opencodePreview is the fork's buildPreview of content with 500 head and
// 500 tail lines.
func opencodePreview(content string) string {
	l := strings.Split(content, "\n")
	if len(l) <= 1000 {
		return content
	}
	return "--- First 500 lines ---\n" + strings.Join(l[:500], "\n") + "\n\n... [" + strconv.Itoa(len(l)-1000) + " lines truncated] ...\n\n--- Last 500 lines ---\n" + strings.Join(l[len(l)-500:], "\n")
}

func opencodePorted() []portedCase {
	header := docRef{"docs/profiles.md", "the header (`<stdout truncated: 8,432 lines total>`, `Full output saved to: …`) is spillway's notice and marker, which say the same numbers and path"}
	marker := docRef{"docs/profiles.md", "| buildPreview: 3000 lines | lines 0–499, `... [2000 lines truncated] ...`, lines 2500–2999 | lines 0–499, `[... 2000 lines (X KB) omitted ...]`, lines 2500–2999 | same lines; the marker is spillway's |"}
	lines3000 := strings.Join(lines(3000, "line %d"), "\n")
	oc := func(test string, doc docRef, f func(t *testing.T, ts *spillway.Toolset, dir string) []seen) portedCase {
		return portedCase{peer: "opencode", test: test, doc: doc, run: func(t *testing.T) []seen {
			ts, dir := profileToolset(t, "opencode")
			return f(t, ts, dir)
		}}
	}
	return []portedCase{
		oc("TestBuildPreview/small content returned as-is", docRef{}, func(t *testing.T, ts *spillway.Toolset, dir string) []seen {
			out, d := runPeerCase(t, ts, dir, peerCase{in: "line1\nline2\nline3"})
			return []seen{{"preview", "line1\nline2\nline3", out}, {"total lines", 3, d.Truncation.TotalLines}}
		}),
		oc("TestBuildPreview/large content truncated with head and tail", marker, func(t *testing.T, ts *spillway.Toolset, dir string) []seen {
			out, d := runPeerCase(t, ts, dir, peerCase{in: lines3000})
			return []seen{{"preview", opencodePreview(lines3000), out}, {"total lines", 3000, d.Truncation.TotalLines}}
		}),
		oc("TestBuildPreview/exactly at head+tail boundary", docRef{}, func(t *testing.T, ts *spillway.Toolset, dir string) []seen {
			in := strings.Join(lines(1000, "line %d"), "\n")
			out, d := runPeerCase(t, ts, dir, peerCase{in: in})
			return []seen{{"preview", in, out}, {"total lines", 1000, d.Truncation.TotalLines}}
		}),
		oc("TestPersistAndTruncate/empty content returns empty result", docRef{}, func(t *testing.T, ts *spillway.Toolset, dir string) []seen {
			out, d := runPeerCase(t, ts, dir, peerCase{in: ""})
			return []seen{{"content", "", out}, {"file", "", d.FullOutputPath}}
		}),
		oc("TestPersistAndTruncate/small content returned unchanged", docRef{}, func(t *testing.T, ts *spillway.Toolset, dir string) []seen {
			out, d := runPeerCase(t, ts, dir, peerCase{in: "hello world"})
			return []seen{{"content", "hello world", out}, {"file", "", d.FullOutputPath}}
		}),
		oc("TestPersistAndTruncate/content over line limit creates temp file", header, func(t *testing.T, ts *spillway.Toolset, dir string) []seen {
			writeFile(t, dir+"/in.txt", lines3000)
			r := bashRun(t, ts, spillway.BashInput{Command: "cat in.txt"})
			data, _ := os.ReadFile(r.Details.Stdout.FullOutputPath)
			return []seen{has(r.Text, "<stdout truncated: 3000 lines total>"), has(r.Text, "Full output saved to:"),
				has(r.Text, "--- First 500 lines ---"), has(r.Text, "--- Last 500 lines ---"), {"file holds the content", true, string(data) == lines3000}}
		}),
		oc("TestPersistAndTruncate/content over byte limit creates temp file", header, func(t *testing.T, ts *spillway.Toolset, dir string) []seen {
			in := strings.TrimSuffix(strings.Repeat(strings.Repeat("A", 1000)+"\n", 100), "\n")
			writeFile(t, dir+"/in.txt", in)
			r := bashRun(t, ts, spillway.BashInput{Command: "cat in.txt >&2"})
			return []seen{{"a file", true, r.Details.Stderr.FullOutputPath != ""}, has(r.Text, "<stderr truncated:")}
		}),
		oc("TestPersistAndTruncate/multibyte UTF-8 content preserved correctly", docRef{}, func(t *testing.T, ts *spillway.Toolset, dir string) []seen {
			in := strings.Join(lines(2500, "日本語テスト行 %d 🎉"), "\n")
			writeFile(t, dir+"/in.txt", in)
			r := bashRun(t, ts, spillway.BashInput{Command: "cat in.txt"})
			return []seen{{"a file", true, r.Details.Stdout.FullOutputPath != ""}, has(r.Text, "日本語テスト行 0"), has(r.Text, "日本語テスト行 2499"), has(r.Text, "🎉")}
		}),
		oc("TestCleanupTempDir", docRef{}, func(t *testing.T, ts *spillway.Toolset, dir string) []seen {
			_, d := runPeerCase(t, ts, dir, peerCase{in: lines3000})
			_, before := os.Stat(d.FullOutputPath)
			ts.Close()
			_, after := os.Stat(d.FullOutputPath)
			return []seen{{"file before cleanup", true, before == nil}, {"file gone after", true, os.IsNotExist(after)}}
		}),
	}
}

// pipeBashCases are pipe's exec/bash_test.go (TestBashExecutor): the bash
// tool's whole text, through spillway's bash under the pipe profile.
func pipeBashCases() []portedCase {
	layout := docRef{"docs/profiles.md", "Different: the notice reads `[stdout: showing lines 6501-8500 of 8500. Full output: FILE. To see what was cut: …]` where the design writes `[stdout: Showing last 2000 of 8500 lines. Full output: /tmp/pipe-bash-a1b2c3d4.log]`"}
	background := docRef{"docs/profiles.md", "the backgrounded result is spillway's (`docs/tools.md`): the same facts — pid, partial output, file, `check_pid`/`kill_pid` — in spillway's layout"}
	pb := func(name string, doc docRef, f func(t *testing.T, ts *spillway.Toolset) []seen) portedCase {
		return portedCase{peer: "pipe", test: "TestBashExecutor/" + name, doc: doc, run: func(t *testing.T) []seen {
			ts, _ := profileToolset(t, "pipe")
			return f(t, ts)
		}}
	}
	bash := func(t *testing.T, ts *spillway.Toolset, args string) (string, bool) {
		text, res, err := toolText(t, ts, "bash", args)
		return text, err != nil || res.IsError
	}
	return []portedCase{
		pb("separates stdout and stderr", docRef{}, func(t *testing.T, ts *spillway.Toolset) []seen {
			text, _ := bash(t, ts, `{"command": "echo out && echo err >&2"}`)
			return []seen{has(text, "stdout:\nout\n"), has(text, "stderr:\nerr\n")}
		}),
		pb("strips ANSI codes from output", docRef{}, func(t *testing.T, ts *spillway.Toolset) []seen {
			text, _ := bash(t, ts, `{"command": "printf '\\033[31mred\\033[0m\\n'"}`)
			return []seen{has(text, "red"), hasNot(text, "\x1b")}
		}),
		pb("reports non-zero exit code", docRef{}, func(t *testing.T, ts *spillway.Toolset) []seen {
			text, isErr := bash(t, ts, `{"command": "echo fail && exit 42"}`)
			return []seen{{"is_error", true, isErr}, has(text, "exit code: 42"), has(text, "fail")}
		}),
		pb("truncates large stdout by line count", layout, func(t *testing.T, ts *spillway.Toolset) []seen {
			text, isErr := bash(t, ts, `{"command": "seq 1 3000"}`)
			return []seen{{"is_error", false, isErr}, has(text, "Showing last"), hasNot(text, "Full output:"), has(text, "3000")}
		}),
		pb("offloads to file when output exceeds byte threshold", layout, func(t *testing.T, ts *spillway.Toolset) []seen {
			text, isErr := bash(t, ts, `{"command": "for i in $(seq 1 1000); do printf '%099d\\n' $i; done"}`)
			m := regexp.MustCompile(`Full output: (\S+\.log)`).FindStringSubmatch(text)
			exists := false
			if m != nil {
				_, err := os.Stat(m[1])
				exists = err == nil
			}
			return []seen{{"is_error", false, isErr}, has(text, "Showing last"), has(text, "Full output:"), {"the file exists", true, exists}}
		}),
		pb("returns error for invalid JSON args", docRef{}, func(t *testing.T, ts *spillway.Toolset) []seen {
			_, _, err := toolText(t, ts, "bash", `{invalid`)
			return []seen{{"an error", true, err != nil}}
		}),
		pb("omits empty stderr section", docRef{}, func(t *testing.T, ts *spillway.Toolset) []seen {
			text, _ := bash(t, ts, `{"command": "echo hello"}`)
			return []seen{hasNot(text, "stderr:")}
		}),
		pb("omits empty stdout section", docRef{}, func(t *testing.T, ts *spillway.Toolset) []seen {
			text, _ := bash(t, ts, `{"command": "echo err >&2"}`)
			return []seen{hasNot(text, "stdout:"), has(text, "stderr:\nerr\n")}
		}),
		pb("executes simple command", docRef{}, func(t *testing.T, ts *spillway.Toolset) []seen {
			text, isErr := bash(t, ts, `{"command": "echo hello"}`)
			return []seen{{"is_error", false, isErr}, has(text, "stdout:\nhello\n"), has(text, "exit code: 0")}
		}),
		pb("returns error on cancelled context", docRef{}, func(t *testing.T, ts *spillway.Toolset) []seen {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			res, err := ts.Call(ctx, spillway.ToolCall{Name: "bash", Args: json.RawMessage(`{"command": "sleep 10"}`)})
			text := res.Text
			if err != nil {
				text = err.Error()
			}
			return []seen{{"is_error", true, err != nil || res.IsError}, has(text, "context canceled")}
		}),
		pb("auto-backgrounds command on timeout", background, func(t *testing.T, ts *spillway.Toolset) []seen {
			text, isErr := bash(t, ts, `{"command": "echo started && sleep 30", "timeout": 200}`)
			m := regexp.MustCompile(`pid (\d+)`).FindStringSubmatch(text)
			killText := ""
			if m != nil {
				killText, _ = bash(t, ts, `{"kill_pid": `+m[1]+`}`)
			}
			return []seen{{"is_error", false, isErr}, has(text, "backgrounded"), has(text, "check_pid"), {"a pid", true, m != nil}, has(killText, "killed")}
		}),
		pb("does not block on shell-backgrounded children", docRef{}, func(t *testing.T, ts *spillway.Toolset) []seen {
			// pipe's bound is 2 s on an idle machine; what a call that waits
			// for nothing takes here is taken off, so that a loaded machine
			// does not count against it.
			start := time.Now()
			bash(t, ts, `{"command": "echo done"}`)
			base := time.Since(start)
			start = time.Now()
			text, isErr := bash(t, ts, `{"command": "sleep 60 & echo done"}`)
			return []seen{{"is_error", false, isErr}, has(text, "done"), {"under 2 s", true, time.Since(start)-base < 2*time.Second}}
		}),
		pb("returns error for missing command", docRef{}, func(t *testing.T, ts *spillway.Toolset) []seen {
			text, isErr := bash(t, ts, `{}`)
			return []seen{{"is_error", true, isErr}, has(text, "command")}
		}),
	}
}

// pipeBackgroundCases are pipe's exec/background_test.go
// (TestBackgroundExecution): auto-background, check_pid and kill_pid.
func pipeBackgroundCases() []portedCase {
	background := docRef{"docs/profiles.md", "the backgrounded result is spillway's (`docs/tools.md`): the same facts — pid, partial output, file, `check_pid`/`kill_pid` — in spillway's layout"}
	forgotten := docRef{"docs/profiles.md", "A job that ended stays known to `check_pid` (a session keeps its last 64 jobs), which shows its end again, ending in `exit code: N` where pipe's design writes `Process N exited with code N`; pipe forgets it once looked at, and then answers `no background process`"}
	pb := func(name string, doc docRef, f func(t *testing.T, bash func(args string) (string, bool)) []seen) portedCase {
		return portedCase{peer: "pipe", test: "TestBackgroundExecution/" + name, doc: doc, run: func(t *testing.T) []seen {
			ts, _ := profileToolset(t, "pipe")
			return f(t, func(args string) (string, bool) {
				text, res, err := toolText(t, ts, "bash", args)
				return text, err != nil || res.IsError
			})
		}}
	}
	pidOf := func(text string) string {
		if m := regexp.MustCompile(`pid (\d+)`).FindStringSubmatch(text); m != nil {
			return m[1]
		}
		return "0"
	}
	return []portedCase{
		pb("auto-backgrounds command on timeout", background, func(t *testing.T, bash func(string) (string, bool)) []seen {
			start := time.Now()
			text, isErr := bash(`{"command": "sleep 30", "timeout": 200}`)
			elapsed := time.Since(start)
			bash(`{"kill_pid": ` + pidOf(text) + `}`)
			return []seen{{"under 2 s", true, elapsed < 2*time.Second}, has(text, "backgrounded"), has(text, "pid"), {"is_error", false, isErr}}
		}),
		pb("check_pid returns status of running process", docRef{}, func(t *testing.T, bash func(string) (string, bool)) []seen {
			text, _ := bash(`{"command": "echo started && sleep 30", "timeout": 200}`)
			pid := pidOf(text)
			check, _ := bash(`{"check_pid": ` + pid + `}`)
			bash(`{"kill_pid": ` + pid + `}`)
			return []seen{{"a pid", true, pid != "0"}, has(check, "still running")}
		}),
		pb("kill_pid terminates process and returns output", forgotten, func(t *testing.T, bash func(string) (string, bool)) []seen {
			text, _ := bash(`{"command": "echo started && sleep 30", "timeout": 200}`)
			pid := pidOf(text)
			killText, _ := bash(`{"kill_pid": ` + pid + `}`)
			check, isErr := bash(`{"check_pid": ` + pid + `}`)
			return []seen{has(killText, "killed"), {"check_pid after is_error", true, isErr}, has(check, "no background process")}
		}),
		pb("check_pid on completed process returns final output", forgotten, func(t *testing.T, bash func(string) (string, bool)) []seen {
			text, _ := bash(`{"command": "sleep 0.1", "timeout": 1}`)
			pid := pidOf(text)
			var check string
			for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
				if check, _ = bash(`{"check_pid": ` + pid + `}`); !strings.Contains(check, "still running") {
					break
				}
			}
			again, isErr := bash(`{"check_pid": ` + pid + `}`)
			return []seen{has(check, "exited"), {"check_pid after is_error", true, isErr}, has(again, "no background process")}
		}),
		pb("check_pid on unknown pid returns error",
			docRef{"docs/profiles.md", "`check_pid` of a pid the session does not know is an error that says so and lists the pids it knows (`no background job has pid 99999; known pids: …`)"},
			func(t *testing.T, bash func(string) (string, bool)) []seen {
				text, isErr := bash(`{"check_pid": 99999}`)
				return []seen{{"is_error", true, isErr}, has(text, "no background process")}
			}),
		pb("command completing before timeout returns normal result", docRef{}, func(t *testing.T, bash func(string) (string, bool)) []seen {
			text, isErr := bash(`{"command": "echo hello"}`)
			return []seen{{"is_error", false, isErr}, has(text, "stdout:\nhello\n"), has(text, "exit code: 0")}
		}),
		pb("context cancellation kills process",
			docRef{"docs/profiles.md", "a call cancelled before its command starts is an error saying `context canceled` (Go's words, which pipe's bash test expects; its background test expects `cancelled`)"},
			func(t *testing.T, bash func(string) (string, bool)) []seen {
				ts, _ := profileToolset(t, "pipe")
				ctx, cancel := context.WithCancel(context.Background())
				cancel()
				res, err := ts.Call(ctx, spillway.ToolCall{Name: "bash", Args: json.RawMessage(`{"command": "sleep 30"}`)})
				text := res.Text
				if err != nil {
					text = err.Error()
				}
				return []seen{{"is_error", true, err != nil || res.IsError}, has(text, "cancelled")}
			}),
		pb("requires one of command check_pid or kill_pid", docRef{}, func(t *testing.T, bash func(string) (string, bool)) []seen {
			_, isErr := bash(`{}`)
			return []seen{{"is_error", true, isErr}}
		}),
	}
}
