package spillway_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/spillway-dev/spillway"
)

// macos-shell's, pi's and zdx's own tests, ported (see peer_cases_test.go).

func macosShellPorted() []portedCase {
	marker := docRef{"docs/profiles.md", "The marker is spillway's `[... N lines (X KB) omitted ...]`, the design's `[... N lines omitted ...]` with the size."}
	newline := docRef{"docs/profiles.md", "`stdout` and `stderr` keep the output's last newline, which execa, the design's runner, strips"}
	// run calls run_command under the profile (bash for the design's zsh,
	// which may be missing here) with a file holding in, if any, and
	// decodes its CommandResult.
	run := func(t *testing.T, in, args string) map[string]any {
		ts, dir := surfaceToolset(t, "macos-shell", func(p *spillway.Policy) { p.Shell = "bash" })
		writeFile(t, filepath.Join(dir, "in.txt"), in)
		m, _ := surfaceCall(t, ts, "run_command", args)
		return m
	}
	ms := func(test string, doc docRef, f func(t *testing.T) []seen) portedCase {
		return portedCase{peer: "macos-shell", test: test, doc: doc, run: f}
	}
	return []portedCase{
		ms("Basic Command Execution/should execute a simple command successfully", newline, func(t *testing.T) []seen {
			m := run(t, "", `{"command": "echo", "args": ["Hello World"]}`)
			return []seen{{"success", true, get(m, "success")}, {"exitCode", 0, get(m, "exitCode")},
				{"stdout", "Hello World", get(m, "stdout")}, {"stderr", "", get(m, "stderr")}, {"command", "echo Hello World", get(m, "command")}}
		}),
		ms("Basic Command Execution/should handle command failure gracefully",
			docRef{"docs/profiles.md", "The mocked failure's `error: 'ENOENT'` is execa's rejection, which a command that runs and exits 1 never gives (the design runs with `reject: false`)"},
			func(t *testing.T) []seen {
				m := run(t, "", `{"command": "printf 'partial output'; printf 'error message' >&2; exit 1"}`)
				return []seen{{"success", false, get(m, "success")}, {"exitCode", 1, get(m, "exitCode")},
					{"stdout", "partial output", get(m, "stdout")}, {"stderr", "error message", get(m, "stderr")}, {"error", "ENOENT", get(m, "error")}}
			}),
		ms("Output Truncation/should truncate long stdout output", marker, func(t *testing.T) []seen {
			m := run(t, strings.TrimSuffix(strings.Repeat("Line of output\n", 200), "\n"), `{"command": "cat", "args": ["in.txt"], "maxOutputLines": 50}`)
			return []seen{{"success", true, get(m, "success")}, {"truncation.stdout.truncated", true, get(m, "truncation.stdout.truncated")},
				{"truncation.stdout.totalLines", 200, get(m, "truncation.stdout.totalLines")}, {"truncation.stdout.returnedLines", 51, get(m, "truncation.stdout.returnedLines")},
				has(fmt.Sprint(get(m, "stdout")), "[... 150 lines omitted ...]")}
		}),
		ms("Output Truncation/should handle binary output detection",
			docRef{"docs/profiles.md", "a binary stream's `stdout` is empty (pure content) rather than the design's placeholder sentence, which is in `warnings` with the spill file"},
			func(t *testing.T) []seen {
				m := run(t, "text\x00with\x00null\x00bytes", `{"command": "cat", "args": ["in.txt"]}`)
				return []seen{{"success", true, get(m, "success")}, {"truncation.stdout.truncated", true, get(m, "truncation.stdout.truncated")},
					{"stdout", "[Binary output detected - content omitted]", get(m, "stdout")}}
			}),
		ms("Output Truncation/should handle extremely long lines (minified files)",
			docRef{"docs/profiles.md", "Long lines: the design replaces a whole stream that has a line over 10,000 chars with `[Output contains extremely long lines - content omitted]`; spillway cuts such lines at 10,000 chars with a marker and a notice"},
			func(t *testing.T) []seen {
				m := run(t, strings.Repeat("a", 15000), `{"command": "cat", "args": ["in.txt"]}`)
				return []seen{{"success", true, get(m, "success")}, {"truncation.stdout.truncated", true, get(m, "truncation.stdout.truncated")},
					{"stdout", "[Output contains extremely long lines - content omitted]", get(m, "stdout")}}
			}),
		ms("Output Truncation/should preserve both head and tail when truncating", marker, func(t *testing.T) []seen {
			var l []string
			for i := 1; i <= 100; i++ {
				l = append(l, fmt.Sprintf("Line %d", i))
			}
			m := run(t, strings.Join(l, "\n"), `{"command": "cat", "args": ["in.txt"], "maxOutputLines": 20}`)
			out := strings.Split(fmt.Sprint(get(m, "stdout")), "\n")
			return []seen{{"success", true, get(m, "success")}, has(fmt.Sprint(get(m, "stdout")), "Line 1"), has(fmt.Sprint(get(m, "stdout")), "Line 100"),
				has(fmt.Sprint(get(m, "stdout")), "[... 80 lines omitted ...]"), {"first line", "Line 1", out[0]}, {"last line", "Line 100", out[len(out)-1]}}
		}),
		ms("Buffer Overflow Handling/should handle buffer overflow errors",
			docRef{"docs/profiles.md", "Past its 10 MB capture buffer the design's execa fails (`ERR_CHILD_PROCESS_STDIO_MAXBUFFER`, `success: false`, the warning `Output exceeded buffer limit`); spillway's pipeline is never full: the stream is cut to its limits and spilled, and the command's own exit code decides `success`"},
			func(t *testing.T) []seen {
				m := run(t, "", `{"command": "yes | head -c 11000000"}`)
				return []seen{{"success", false, get(m, "success")}, has(fmt.Sprint(get(m, "warnings")), "Output exceeded buffer limit"),
					{"error", "ERR_CHILD_PROCESS_STDIO_MAXBUFFER", get(m, "error")}}
			}),
		ms("Edge Cases/should handle undefined stdout/stderr", docRef{}, func(t *testing.T) []seen {
			m := run(t, "", `{"command": "true"}`)
			return []seen{{"stdout", "", get(m, "stdout")}, {"stderr", "", get(m, "stderr")}, {"success", true, get(m, "success")}}
		}),
		ms("Edge Cases/should calculate duration correctly", docRef{}, func(t *testing.T) []seen {
			m := run(t, "", `{"command": "sleep", "args": ["0.1"]}`)
			d, ok := get(m, "duration").(float64)
			return []seen{{"duration defined", true, ok}, {"duration >= 0", true, d >= 0}, {"duration < 1000", true, d < 1000}}
		}),
	}
}

func piPorted() []portedCase {
	period := docRef{"docs/profiles.md", "| notices | `Use offset=2001 to continue]` | `Use offset=2001 to continue.]` (a period) | – |"}
	moreLines := docRef{"docs/profiles.md", "| read with a `limit` of the call's | `[Showing lines 1-10 of 100. Use offset=11 to continue]` | `[90 more lines in file. Use offset=11 to continue.]` | – |"}
	layout := docRef{"docs/profiles.md", "the bash notice and result layout are spillway's for every profile (`docs/notices.md`)"}
	pi := func(test string, doc docRef, f func(t *testing.T, ts *spillway.Toolset, dir string) []seen) portedCase {
		return portedCase{peer: "pi", test: test, doc: doc, run: func(t *testing.T) []seen {
			ts, dir := profileToolset(t, "pi")
			return f(t, ts, dir)
		}}
	}
	numbered := func(n int, f string) string {
		var l []string
		for i := 1; i <= n; i++ {
			l = append(l, fmt.Sprintf(f, i))
		}
		return strings.Join(l, "\n")
	}
	read := func(t *testing.T, ts *spillway.Toolset, args string) (string, spillway.Result[any], error) {
		return toolText(t, ts, "read", args)
	}
	return []portedCase{
		pi("read/should read file contents that fit within limits", docRef{}, func(t *testing.T, ts *spillway.Toolset, dir string) []seen {
			writeFile(t, dir+"/test.txt", "Hello, world!\nLine 2\nLine 3")
			text, _, _ := read(t, ts, jsonArgs("path", dir+"/test.txt"))
			return []seen{{"text", "Hello, world!\nLine 2\nLine 3", text}, hasNot(text, "Use offset=")}
		}),
		pi("read/should handle non-existent files", docRef{}, func(t *testing.T, ts *spillway.Toolset, dir string) []seen {
			text, _, err := read(t, ts, jsonArgs("path", dir+"/nonexistent.txt"))
			return []seen{{"an error", true, err != nil}, {"error matches /ENOENT|not found/i", true, regexp.MustCompile(`(?i)ENOENT|not found`).MatchString(text)}}
		}),
		pi("read/should truncate files exceeding line limit", period, func(t *testing.T, ts *spillway.Toolset, dir string) []seen {
			writeFile(t, dir+"/large.txt", numbered(2500, "Line %d"))
			text, _, _ := read(t, ts, jsonArgs("path", dir+"/large.txt"))
			return []seen{has(text, "Line 1"), has(text, "Line 2000"), hasNot(text, "Line 2001"), has(text, "[Showing lines 1-2000 of 2500. Use offset=2001 to continue.]")}
		}),
		pi("read/should truncate when byte limit exceeded", period, func(t *testing.T, ts *spillway.Toolset, dir string) []seen {
			writeFile(t, dir+"/large-bytes.txt", numbered(500, "Line %d: "+strings.Repeat("x", 200)))
			text, _, _ := read(t, ts, jsonArgs("path", dir+"/large-bytes.txt"))
			return []seen{has(text, "Line 1:"), {"notice matches", true, regexp.MustCompile(`\[Showing lines 1-\d+ of 500 \(.* limit\)\. Use offset=\d+ to continue\.\]`).MatchString(text)}}
		}),
		pi("read/should handle offset parameter", docRef{}, func(t *testing.T, ts *spillway.Toolset, dir string) []seen {
			writeFile(t, dir+"/offset-test.txt", numbered(100, "Line %d"))
			text, _, _ := read(t, ts, jsonArgs("path", dir+"/offset-test.txt", "offset", 51))
			return []seen{hasNot(text, "Line 50"), has(text, "Line 51"), has(text, "Line 100"), hasNot(text, "Use offset=")}
		}),
		pi("read/should handle limit parameter", moreLines, func(t *testing.T, ts *spillway.Toolset, dir string) []seen {
			writeFile(t, dir+"/limit-test.txt", numbered(100, "Line %d"))
			text, _, _ := read(t, ts, jsonArgs("path", dir+"/limit-test.txt", "limit", 10))
			return []seen{has(text, "Line 1"), has(text, "Line 10"), hasNot(text, "Line 11"), has(text, "[90 more lines in file. Use offset=11 to continue.]")}
		}),
		pi("read/should handle offset + limit together", moreLines, func(t *testing.T, ts *spillway.Toolset, dir string) []seen {
			writeFile(t, dir+"/offset-limit-test.txt", numbered(100, "Line %d"))
			text, _, _ := read(t, ts, jsonArgs("path", dir+"/offset-limit-test.txt", "offset", 41, "limit", 20))
			return []seen{hasNot(text, "Line 40"), has(text, "Line 41"), has(text, "Line 60"), hasNot(text, "Line 61"), has(text, "[40 more lines in file. Use offset=61 to continue.]")}
		}),
		pi("read/should show error when offset is beyond file length",
			docRef{"docs/profiles.md", "| read, an offset past the end | empty content and `[Offset 100 is past the end of the file (3 lines)]`, not an error (as zdx's design decides, \"Offset beyond file → return empty with `total_lines` info\") | an error, `Offset 100 is beyond end of file (3 lines total)` | – |"},
			func(t *testing.T, ts *spillway.Toolset, dir string) []seen {
				writeFile(t, dir+"/short.txt", "Line 1\nLine 2\nLine 3")
				text, _, err := read(t, ts, jsonArgs("path", dir+"/short.txt", "offset", 100))
				return []seen{{"an error", true, err != nil}, {"error matches", true, regexp.MustCompile(`Offset 100 is beyond end of file \(3 lines total\)`).MatchString(text)}}
			}),
		pi("read/should include truncation details when truncated", docRef{}, func(t *testing.T, ts *spillway.Toolset, dir string) []seen {
			writeFile(t, dir+"/large-file.txt", numbered(2500, "Line %d"))
			_, res, _ := read(t, ts, jsonArgs("path", dir+"/large-file.txt"))
			b, _ := jsonMarshal(res.Details)
			var d struct {
				Truncation struct {
					Truncated   bool   `json:"truncated"`
					TruncatedBy string `json:"truncated_by"`
					TotalLines  int    `json:"total_lines"`
					OutputLines int    `json:"output_lines"`
				} `json:"truncation"`
			}
			jsonUnmarshal(b, &d)
			tr := d.Truncation
			return []seen{{"truncated", true, tr.Truncated}, {"truncatedBy", "lines", tr.TruncatedBy}, {"totalLines", 2500, tr.TotalLines}, {"outputLines", 2000, tr.OutputLines}}
		}),
		pi("read/should treat files with image extension but non-image content as text", docRef{}, func(t *testing.T, ts *spillway.Toolset, dir string) []seen {
			writeFile(t, dir+"/not-an-image.png", "definitely not a png")
			text, _, _ := read(t, ts, jsonArgs("path", dir+"/not-an-image.png"))
			return []seen{has(text, "definitely not a png")}
		}),
		pi("bash/should execute simple commands", docRef{}, func(t *testing.T, ts *spillway.Toolset, dir string) []seen {
			text, _, _ := toolText(t, ts, "bash", `{"command": "echo 'test output'"}`)
			return []seen{has(text, "test output")}
		}),
		pi("bash/should handle command errors", layout, func(t *testing.T, ts *spillway.Toolset, dir string) []seen {
			text, res, err := toolText(t, ts, "bash", `{"command": "exit 1"}`)
			return []seen{{"an error", true, err != nil || res.IsError}, {"error matches /(Command failed|code 1)/", true, regexp.MustCompile(`Command failed|code 1`).MatchString(text)}}
		}),
		pi("bash/should respect timeout",
			docRef{"docs/profiles.md", "| bash, past its timeout | the command goes on in the background and the result says so, with its pid (`timeout` in milliseconds) | it is killed, and the call fails with `Command timed out after N seconds` (`timeout` in seconds) | – |"},
			func(t *testing.T, ts *spillway.Toolset, dir string) []seen {
				text, res, err := toolText(t, ts, "bash", `{"command": "sleep 5", "timeout": 1}`)
				return []seen{{"an error", true, err != nil || res.IsError}, {"error matches /timed out/i", true, regexp.MustCompile(`(?i)timed out`).MatchString(text)}}
			}),
		pi("bash/should throw error when cwd does not exist",
			docRef{"docs/profiles.md", "| bash, a `cwd` that does not exist | an error naming the directory and the system's reason (`bash: cwd: stat DIR: no such file or directory`) | `Working directory does not exist: DIR` | – |"},
			func(t *testing.T, ts *spillway.Toolset, dir string) []seen {
				text, res, err := toolText(t, ts, "bash", `{"command": "echo test", "cwd": "/this/directory/definitely/does/not/exist/12345"}`)
				return []seen{{"an error", true, err != nil || res.IsError}, {"error matches /Working directory does not exist/", true, strings.Contains(text, "Working directory does not exist")}}
			}),
		pi("grep/should include filename when searching a single file", docRef{}, func(t *testing.T, ts *spillway.Toolset, dir string) []seen {
			writeFile(t, dir+"/example.txt", "first line\nmatch line\nlast line")
			text, _, _ := toolText(t, ts, "grep", jsonArgs("pattern", "match", "path", dir+"/example.txt"))
			return []seen{has(text, "example.txt:2: match line")}
		}),
		pi("grep/should respect global limit and include context lines",
			docRef{"docs/notices.md", "**Singular and plural are right**: `1 match`, `1 entry`, `1 result`"},
			func(t *testing.T, ts *spillway.Toolset, dir string) []seen {
				writeFile(t, dir+"/context.txt", "before\nmatch one\nafter\nmiddle\nmatch two\nafter two")
				text, _, _ := toolText(t, ts, "grep", jsonArgs("pattern", "match", "path", dir+"/context.txt", "limit", 1, "context", 1))
				return []seen{has(text, "context.txt-1- before"), has(text, "context.txt:2: match one"), has(text, "context.txt-3- after"),
					has(text, "[1 matches limit reached. Use limit=2 for more, or refine pattern]"), hasNot(text, "match two")}
			}),
		pi("find/should include hidden files that are not gitignored", docRef{}, func(t *testing.T, ts *spillway.Toolset, dir string) []seen {
			writeFile(t, dir+"/.secret/hidden.txt", "hidden")
			writeFile(t, dir+"/visible.txt", "visible")
			text, _, _ := toolText(t, ts, "find", jsonArgs("pattern", "**/*.txt", "path", dir))
			l := strings.Split(text, "\n")
			return []seen{{"lines hold visible.txt", true, contains(l, "visible.txt")}, {"lines hold .secret/hidden.txt", true, contains(l, ".secret/hidden.txt")}}
		}),
		pi("find/should respect .gitignore", docRef{}, func(t *testing.T, ts *spillway.Toolset, dir string) []seen {
			writeFile(t, dir+"/.gitignore", "ignored.txt\n")
			writeFile(t, dir+"/ignored.txt", "ignored")
			writeFile(t, dir+"/kept.txt", "kept")
			text, _, _ := toolText(t, ts, "find", jsonArgs("pattern", "**/*.txt", "path", dir))
			return []seen{has(text, "kept.txt"), hasNot(text, "ignored.txt")}
		}),
		pi("ls/should list dotfiles and directories", docRef{}, func(t *testing.T, ts *spillway.Toolset, dir string) []seen {
			writeFile(t, dir+"/.hidden-file", "secret")
			os.Mkdir(dir+"/.hidden-dir", 0o755)
			text, _, _ := toolText(t, ts, "ls", jsonArgs("path", dir))
			return []seen{has(text, ".hidden-file"), has(text, ".hidden-dir/")}
		}),
	}
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if strings.TrimSpace(x) == s {
			return true
		}
	}
	return false
}

func zdxPorted() []portedCase {
	shipped := func(what string) docRef {
		return docRef{"docs/profiles.md", what}
	}
	zr := func(test string, doc docRef, files map[string]string, args string, f func(m map[string]any) []seen) portedCase {
		return portedCase{peer: "zdx", test: test, doc: doc, run: func(t *testing.T) []seen {
			ts, dir := surfaceToolset(t, "zdx", nil)
			for name, content := range files {
				writeFile(t, filepath.Join(dir, name), content)
			}
			text, _, err := toolText(t, ts, "read", args)
			var m map[string]any
			if json := jsonUnmarshal([]byte(text), &m); json != nil && err == nil {
				t.Fatalf("not JSON: %.200q", text)
			}
			if err != nil {
				m = map[string]any{"ok": false, "error": err.Error()}
			}
			return f(m)
		}}
	}
	data := func(m map[string]any, k string) any { return get(m, "data."+k) }
	huge := strings.Repeat("y", 100*1024)
	var lines100, digits300 strings.Builder
	for i := range 100 {
		fmt.Fprintf(&lines100, "line %d\n", i)
	}
	for i := range 300 {
		fmt.Fprintf(&digits300, "%0199d\n", i)
	}
	return []portedCase{
		zr("test_read_file_success", docRef{}, map[string]string{"test.txt": "hello world"}, `{"path": "test.txt"}`, func(m map[string]any) []seen {
			return []seen{{"ok", true, get(m, "ok")}, {"content", "hello world", data(m, "content")}, {"truncated", false, data(m, "truncated")},
				{"lines_shown", 1, data(m, "lines_shown")}, {"total_lines", 1, data(m, "total_lines")}, {"offset", 1, data(m, "offset")}}
		}),
		zr("test_read_nested_file", docRef{}, map[string]string{"subdir/nested.txt": "nested content"}, `{"path": "subdir/nested.txt"}`, func(m map[string]any) []seen {
			return []seen{{"ok", true, get(m, "ok")}, {"content", "nested content", data(m, "content")}}
		}),
		zr("test_read_shell_escaped_path", shipped("zdx as shipped also reads a path written shell-escaped (`my\\ file\\(1\\).txt`); spillway reads the path as given"),
			map[string]string{"my file(1).txt": "escaped path content"}, `{"path": "my\\ file\\(1\\).txt"}`, func(m map[string]any) []seen {
				return []seen{{"ok", true, get(m, "ok")}, {"content", "escaped path content", data(m, "content")}}
			}),
		zr("test_read_file_not_found", shipped("a call that fails is an MCP error result whose text says why, not zdx's `{\"ok\":false,\"error\":{\"code\":…}}`"),
			nil, `{"path": "nonexistent.txt"}`, func(m map[string]any) []seen {
				return []seen{{"ok", false, get(m, "ok")}, {"error.code", "path_error", get(m, "error.code")}}
			}),
		zr("test_read_outside_root_allowed", docRef{}, map[string]string{"../outside-zdx.txt": "external content"}, `{"path": "../outside-zdx.txt"}`, func(m map[string]any) []seen {
			return []seen{{"ok", true, get(m, "ok")}, {"content", "external content", data(m, "content")}}
		}),
		zr("test_read_huge_single_line", shipped("| a line over the page | its first 500 characters, silently (`truncated: false`) | its first 40 KB, `truncated: true`, `byte_limited: true` and a warning |"),
			map[string]string{"huge_line.txt": huge}, `{"path": "huge_line.txt"}`, func(m map[string]any) []seen {
				return []seen{{"truncated", true, data(m, "truncated")}, {"byte_limited", true, data(m, "byte_limited")}, {"lines_shown", 1, data(m, "lines_shown")},
					{"total_lines", 1, data(m, "total_lines")}, {"content", huge[:40*1024], data(m, "content")}}
			}),
		zr("test_read_huge_first_line_then_byte_limit", shipped("| a line over the page | its first 500 characters, silently (`truncated: false`) | its first 40 KB, `truncated: true`, `byte_limited: true` and a warning |"),
			map[string]string{"huge_first_line.txt": huge + "\nsecond line\n"}, `{"path": "huge_first_line.txt"}`, func(m map[string]any) []seen {
				return []seen{{"truncated", true, data(m, "truncated")}, {"byte_limited", true, data(m, "byte_limited")}, {"lines_shown", 1, data(m, "lines_shown")},
					{"total_lines", 2, data(m, "total_lines")}, {"content", huge[:40*1024], data(m, "content")}}
			}),
		zr("test_read_empty_file", docRef{}, map[string]string{"empty.txt": ""}, `{"path": "empty.txt"}`, func(m map[string]any) []seen {
			return []seen{{"content", "", data(m, "content")}, {"lines_shown", 0, data(m, "lines_shown")}, {"total_lines", 0, data(m, "total_lines")}, {"truncated", false, data(m, "truncated")}}
		}),
		zr("test_read_preserves_line_endings", docRef{}, map[string]string{"lines.txt": "line1\nline2\nline3"}, `{"path": "lines.txt"}`, func(m map[string]any) []seen {
			return []seen{{"content", "line1\nline2\nline3", data(m, "content")}, {"lines_shown", 3, data(m, "lines_shown")}, {"total_lines", 3, data(m, "total_lines")}}
		}),
		zr("test_read_offset_beyond_file", docRef{}, map[string]string{"lines.txt": "line1\nline2\nline3\n"}, `{"path": "lines.txt", "offset": 100}`, func(m map[string]any) []seen {
			return []seen{{"content", "", data(m, "content")}, {"offset", 100, data(m, "offset")}, {"lines_shown", 0, data(m, "lines_shown")},
				{"total_lines", 3, data(m, "total_lines")}, {"truncated", false, data(m, "truncated")}}
		}),
		zr("test_read_offset_zero_treated_as_one", shipped("`offset: 0` is refused (`offset` is at least 1, as zdx's design says: \"1-indexed\"); zdx as shipped reads it as 1"),
			map[string]string{"lines.txt": "line1\nline2\n"}, `{"path": "lines.txt", "offset": 0}`, func(m map[string]any) []seen {
				return []seen{{"content", "line1\nline2\n", data(m, "content")}, {"offset", 1, data(m, "offset")}, {"lines_shown", 2, data(m, "lines_shown")}}
			}),
		zr("test_read_limit_capped_at_max", docRef{}, map[string]string{"large.txt": lines100.String()}, `{"path": "large.txt", "limit": 10000}`, func(m map[string]any) []seen {
			return []seen{{"lines_shown", 100, data(m, "lines_shown")}, {"total_lines", 100, data(m, "total_lines")}}
		}),
		zr("test_read_paging_through_file/page 1", shipped("zdx as shipped adds a `warning` with the next `offset`; spillway's `data` carries it in `next`"),
			map[string]string{"lines.txt": "a\nb\nc\nd\ne\nf\n"}, `{"path": "lines.txt", "offset": 1, "limit": 2}`, func(m map[string]any) []seen {
				return []seen{{"content", "a\nb\n", data(m, "content")}, {"truncated", true, data(m, "truncated")}, has(fmt.Sprint(data(m, "warning")), "Use offset=3")}
			}),
		zr("test_read_paging_through_file/page 2", shipped("zdx as shipped adds a `warning` with the next `offset`; spillway's `data` carries it in `next`"),
			map[string]string{"lines.txt": "a\nb\nc\nd\ne\nf\n"}, `{"path": "lines.txt", "offset": 3, "limit": 2}`, func(m map[string]any) []seen {
				return []seen{{"content", "c\nd\n", data(m, "content")}, {"truncated", true, data(m, "truncated")}, has(fmt.Sprint(data(m, "warning")), "Use offset=5")}
			}),
		zr("test_read_paging_through_file/page 3", docRef{}, map[string]string{"lines.txt": "a\nb\nc\nd\ne\nf\n"}, `{"path": "lines.txt", "offset": 5, "limit": 2}`, func(m map[string]any) []seen {
			return []seen{{"content", "e\nf\n", data(m, "content")}, {"truncated", false, data(m, "truncated")}, {"no warning", true, data(m, "warning") == nil}}
		}),
		zr("test_read_byte_limit_with_long_lines", shipped("| a page | 2000 lines, no byte limit (the design's line limits replace its 50KB byte cut) | 2000 lines or 40 KB (`MAX_PAGE_BYTES`), `byte_limited` |"),
			map[string]string{"long_lines.txt": digits300.String()}, `{"path": "long_lines.txt"}`, func(m map[string]any) []seen {
				n, _ := data(m, "lines_shown").(float64)
				return []seen{{"truncated", true, data(m, "truncated")}, {"byte_limited", true, data(m, "byte_limited")}, {"total_lines", 300, data(m, "total_lines")},
					{"lines_shown in 200..210", true, n >= 200 && n <= 210}, has(fmt.Sprint(data(m, "warning")), "~40KB")}
			}),
		zr("test_read_line_limit_before_byte_limit", shipped("zdx as shipped adds a `warning` with the next `offset`; spillway's `data` carries it in `next`"),
			map[string]string{"tiny_lines.txt": strings.Repeat("x\n", 3000)}, `{"path": "tiny_lines.txt"}`, func(m map[string]any) []seen {
				return []seen{{"truncated", true, data(m, "truncated")}, {"byte_limited", false, data(m, "byte_limited") == true}, {"lines_shown", 2000, data(m, "lines_shown")},
					{"total_lines", 3000, data(m, "total_lines")}, has(fmt.Sprint(data(m, "warning")), "Use offset=2001")}
			}),
		zr("test_read_offset_and_limit_as_strings", shipped("zdx as shipped takes `offset` and `limit` as strings too (`\"2\"`); spillway's schema takes integers and refuses a string"),
			map[string]string{"lines.txt": "line1\nline2\nline3\nline4\nline5\n"}, `{"path": "lines.txt", "offset": "2", "limit": "2"}`, func(m map[string]any) []seen {
				return []seen{{"content", "line2\nline3\n", data(m, "content")}, {"offset", 2, data(m, "offset")}, {"lines_shown", 2, data(m, "lines_shown")}}
			}),
		zr("test_read_offset_and_limit_empty_strings_use_defaults", shipped("zdx as shipped takes `offset` and `limit` as strings too (`\"2\"`); spillway's schema takes integers and refuses a string"),
			map[string]string{"lines.txt": "line1\nline2\nline3\n"}, `{"path": "lines.txt", "offset": " ", "limit": ""}`, func(m map[string]any) []seen {
				return []seen{{"offset", 1, data(m, "offset")}, {"lines_shown", 3, data(m, "lines_shown")}, {"content", "line1\nline2\nline3\n", data(m, "content")}}
			}),
	}
}

// zdxBashPorted are zdx's crates/zdx-tools/src/bash.rs tests, through its
// {ok, data} surface.
func zdxBashPorted() []portedCase {
	limit := docRef{"docs/profiles.md", "| bash, a stream | its first 50 KB (`MAX_OUTPUT_BYTES = 50 * 1024`); the file of a cut stream in `stdout_full_output_path` | its first 40 KB; the file in `stdout_file` / `stderr_file`, named `zdx-bash-…-stdout.txt` |"}
	zb := func(test string, doc docRef, setup func(dir string), args string, f func(m map[string]any) []seen) portedCase {
		return portedCase{peer: "zdx", test: test, doc: doc, run: func(t *testing.T) []seen {
			ts, dir := surfaceToolset(t, "zdx", nil)
			if setup != nil {
				setup(dir)
			}
			m, _ := surfaceCall(t, ts, "bash", args)
			return f(m)
		}}
	}
	data := func(m map[string]any, k string) any { return get(m, "data."+k) }
	str := func(v any) string { s, _ := v.(string); return s }
	return []portedCase{
		zb("test_bash_executes_command", docRef{}, nil, `{"command": "echo hello"}`, func(m map[string]any) []seen {
			return []seen{{"ok", true, get(m, "ok")}, has(str(data(m, "stdout")), "hello"), {"exit_code", 0, data(m, "exit_code")},
				{"timed_out", false, data(m, "timed_out")}, {"stdout_truncated", false, data(m, "stdout_truncated")}, {"stderr_truncated", false, data(m, "stderr_truncated")}}
		}),
		zb("test_bash_captures_stderr", docRef{}, nil, `{"command": "echo error >&2"}`, func(m map[string]any) []seen {
			return []seen{{"ok", true, get(m, "ok")}, has(str(data(m, "stderr")), "error")}
		}),
		zb("test_bash_captures_exit_code", docRef{}, nil, `{"command": "exit 42"}`, func(m map[string]any) []seen {
			return []seen{{"ok", true, get(m, "ok")}, {"exit_code", 42, data(m, "exit_code")}}
		}),
		zb("test_bash_runs_in_root_directory", docRef{}, func(dir string) { os.WriteFile(filepath.Join(dir, "test.txt"), []byte("content"), 0o644) },
			`{"command": "ls"}`, func(m map[string]any) []seen {
				return []seen{{"ok", true, get(m, "ok")}, has(str(data(m, "stdout")), "test.txt")}
			}),
		zb("test_bash_timeout", docRef{"docs/profiles.md", "| bash, past its timeout | the command goes on in the background (`backgrounded: true`, `pid`), reachable with `check_pid` | it is killed, `timed_out: true`, and `stderr` tells the model to run it again with `background: true` |"},
			nil, `{"command": "sleep 5", "timeout": 100}`, func(m map[string]any) []seen {
				return []seen{{"ok", true, get(m, "ok")}, {"timed_out", true, data(m, "timed_out")}, {"stdout_truncated", false, data(m, "stdout_truncated")},
					{"stderr_truncated", false, data(m, "stderr_truncated")}, has(str(data(m, "stderr")), "background: true")}
			}),
		zb("test_bash_stdout_truncated_writes_temp_file", limit, nil, `{"command": "head -c 51200 /dev/zero | tr '\\0' 'x'"}`, func(m map[string]any) []seen {
			f := str(data(m, "stdout_file"))
			b, _ := os.ReadFile(f)
			return []seen{{"ok", true, get(m, "ok")}, has(f, "zdx-bash-"), has(f, "-stdout.txt"), {"file holds 51200 bytes of x", true, string(b) == strings.Repeat("x", 51200)}}
		}),
		zb("test_bash_stderr_truncated_writes_temp_file", limit, nil, `{"command": "head -c 51200 /dev/zero | tr '\\0' 'y' >&2"}`, func(m map[string]any) []seen {
			f := str(data(m, "stderr_file"))
			b, _ := os.ReadFile(f)
			return []seen{{"ok", true, get(m, "ok")}, has(f, "zdx-bash-"), has(f, "-stderr.txt"), {"file holds 51200 bytes of y", true, string(b) == strings.Repeat("y", 51200)}}
		}),
		zb("test_bash_no_truncation_no_temp_file", docRef{}, nil, `{"command": "head -c 1024 /dev/zero | tr '\\0' 'z'"}`, func(m map[string]any) []seen {
			return []seen{{"ok", true, get(m, "ok")}, {"no stdout_file", true, data(m, "stdout_file") == nil}, {"no stderr_file", true, data(m, "stderr_file") == nil}}
		}),
	}
}
