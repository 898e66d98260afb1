package mcpserver_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The worked examples of the designs each profile follows (docs/profiles.md
// quotes them, "Worked examples"), replayed under the profile through the
// CLI and through MCP: the same text from both, and in it the content
// kept, the numbers and the fields the design names. 38 examples: pi 16,
// zdx 6, opencode 5, macos-shell 5, pipe 6.

// A designExample is one worked example of a design.
type designExample struct {
	profile string
	name    string // the example's title in the design
	files   func(t *testing.T, dir string)
	cli     []string       // the tool's CLI arguments after the global flags
	tool    string         // the MCP tool
	args    map[string]any // its arguments
	mcpOnly string         // why the CLI cannot replay it, if it cannot
	check   func(t *testing.T, r designResult)
}

// designResult is what one transport returned.
type designResult struct {
	dir  string
	text string         // the model-facing text
	m    map[string]any // the text decoded, under a JSON surface
}

// at follows a dotted path in the decoded text.
func (r designResult) at(path string) any { return field(r.m, path) }

// piText is the text pi's model sees: content[0].text of pi's result.
func (r designResult) piText() string {
	c, _ := r.at("content").([]any)
	if len(c) == 0 {
		return ""
	}
	s, _ := c[0].(map[string]any)["text"].(string)
	return s
}

func writeFile(t *testing.T, path, s string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func seqText(from, to int, format string) string {
	var b strings.Builder
	for i := from; i <= to; i++ {
		fmt.Fprintf(&b, format+"\n", i)
	}
	return b.String()
}

// wideFile: 5000 lines, line 1 and line 1000 50 KiB long.
func wideFile(t *testing.T, dir string) {
	long := strings.Repeat("x", 50*1024)
	var b strings.Builder
	for i := 1; i <= 5000; i++ {
		if i == 1 || i == 1000 {
			b.WriteString(long + "\n")
		} else {
			fmt.Fprintf(&b, "%d\n", i)
		}
	}
	writeFile(t, filepath.Join(dir, "wide.txt"), b.String())
}

// vals joins values with spaces, for comparing several fields at once.
func vals(a ...any) string { return strings.TrimSuffix(fmt.Sprintln(a...), "\n") }

func want(t *testing.T, what string, got, want any) {
	t.Helper()
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

func wantContains(t *testing.T, what, s, sub string) {
	t.Helper()
	if !strings.Contains(s, sub) {
		t.Errorf("%s lacks %.200q:\n%.400q", what, sub, s)
	}
}

var designExamples = []designExample{
	// pi: read.
	{profile: "pi", name: "read: First line > 30KB", files: wideFile,
		cli: []string{"read", "wide.txt"}, tool: "read", args: map[string]any{"path": "wide.txt"},
		check: func(t *testing.T, r designResult) {
			want(t, "text", r.piText(), "[Line 1 is 50.0KB, exceeds 30.0KB limit. Use bash to read: head -c 30720 "+filepath.Join(r.dir, "wide.txt")+"]")
			want(t, "truncatedBy", r.at("details.truncation.truncatedBy"), "bytes")
			want(t, "outputLines", r.at("details.truncation.outputLines"), 0)
		}},
	{profile: "pi", name: "read: Hit line limit (2000 lines, < 30KB)",
		files: func(t *testing.T, dir string) { writeFile(t, filepath.Join(dir, "f.txt"), seqText(1, 5000, "%d")) },
		cli:   []string{"read", "f.txt"}, tool: "read", args: map[string]any{"path": "f.txt"},
		check: func(t *testing.T, r designResult) {
			want(t, "text", r.piText(), seqText(1, 2000, "%d")+"\n[Showing lines 1-2000 of 5000. Use offset=2001 to continue]")
			want(t, "truncation", vals(r.at("details.truncation.truncatedBy"), r.at("details.truncation.outputLines"), r.at("details.truncation.totalLines")), "lines 2000 5000")
		}},
	{profile: "pi", name: "read: Hit byte limit (< 2000 lines, 30KB)",
		files: func(t *testing.T, dir string) { writeFile(t, filepath.Join(dir, "f.txt"), seqText(1, 5000, "%-60d")) },
		cli:   []string{"read", "f.txt"}, tool: "read", args: map[string]any{"path": "f.txt"},
		check: func(t *testing.T, r designResult) {
			// 61-byte lines: 503 fit in 30 KiB (the design's 500 is for its own lines).
			want(t, "text", r.piText(), seqText(1, 503, "%-60d")+"\n[Showing lines 1-503 of 5000 (30.0KB limit). Use offset=504 to continue]")
			want(t, "truncation", vals(r.at("details.truncation.truncatedBy"), r.at("details.truncation.outputLines"), r.at("details.truncation.totalLines")), "bytes 503 5000")
		}},
	{profile: "pi", name: "read: With offset, hit line limit",
		files: func(t *testing.T, dir string) { writeFile(t, filepath.Join(dir, "f.txt"), seqText(1, 5000, "%d")) },
		cli:   []string{"read", "f.txt", "--offset", "1000"}, tool: "read", args: map[string]any{"path": "f.txt", "offset": 1000},
		check: func(t *testing.T, r designResult) {
			want(t, "text", r.piText(), seqText(1000, 2999, "%d")+"\n[Showing lines 1000-2999 of 5000. Use offset=3000 to continue]")
			want(t, "truncatedBy", r.at("details.truncation.truncatedBy"), "lines")
		}},
	{profile: "pi", name: "read: With offset, hit byte limit",
		files: func(t *testing.T, dir string) { writeFile(t, filepath.Join(dir, "f.txt"), seqText(1, 5000, "%-60d")) },
		cli:   []string{"read", "f.txt", "--offset", "1000"}, tool: "read", args: map[string]any{"path": "f.txt", "offset": 1000},
		check: func(t *testing.T, r designResult) {
			want(t, "text", r.piText(), seqText(1000, 1502, "%-60d")+"\n[Showing lines 1000-1502 of 5000 (30.0KB limit). Use offset=1503 to continue]")
			want(t, "truncation", vals(r.at("details.truncation.truncatedBy"), r.at("details.truncation.outputLines")), "bytes 503")
		}},
	{profile: "pi", name: "read: With offset, first line at offset > 30KB", files: wideFile,
		cli: []string{"read", "wide.txt", "--offset", "1000"}, tool: "read", args: map[string]any{"path": "wide.txt", "offset": 1000},
		check: func(t *testing.T, r designResult) {
			want(t, "text", r.piText(), "[Line 1000 is 50.0KB, exceeds 30.0KB limit. Use bash: sed -n '1000p' "+filepath.Join(r.dir, "wide.txt")+" | head -c 30720]")
			want(t, "truncation", vals(r.at("details.truncation.truncated"), r.at("details.truncation.truncatedBy"), r.at("details.truncation.outputLines")), "true bytes 0")
		}},
	// pi: bash.
	{profile: "pi", name: "bash: Hit line limit (2000 lines)",
		cli: []string{"bash", "seq 1 50000"}, tool: "bash", args: map[string]any{"command": "seq 1 50000"},
		check: func(t *testing.T, r designResult) {
			wantContains(t, "text", r.piText(), "\n"+seqText(48001, 50000, "%d")+"[stdout: showing lines 48001-50000 of 50000. Full output: SPILL.log")
			want(t, "truncation", vals(r.at("details.truncation.truncated"), r.at("details.truncation.truncatedBy"), r.at("details.truncation.outputLines"), r.at("details.truncation.totalLines")), "true lines 2000 50000")
			want(t, "fullOutputPath", r.at("details.fullOutputPath"), "SPILL.log")
		}},
	{profile: "pi", name: "bash: Hit byte limit (< 2000 lines, 30KB)",
		cli: []string{"bash", "seq -f '%-60g' 1 50000"}, tool: "bash", args: map[string]any{"command": "seq -f '%-60g' 1 50000"},
		check: func(t *testing.T, r designResult) {
			// 61-byte lines: the last 503 fit in 30 KiB.
			wantContains(t, "text", r.piText(), "\n"+seqText(49498, 50000, "%-60d")+"[stdout: showing lines 49498-50000 of 50000 (30.0KB limit). Full output: SPILL.log")
			want(t, "truncatedBy", r.at("details.truncation.truncatedBy"), "bytes")
			want(t, "fullOutputPath", r.at("details.fullOutputPath"), "SPILL.log")
		}},
	{profile: "pi", name: "bash: Last line alone > 30KB",
		cli: []string{"bash", "seq 1 49999; head -c 102400 /dev/zero | tr '\\0' y"}, tool: "bash",
		args: map[string]any{"command": "seq 1 49999; head -c 102400 /dev/zero | tr '\\0' y"},
		check: func(t *testing.T, r designResult) {
			wantContains(t, "text", r.piText(), "stdout:\n"+strings.Repeat("y", 30*1024)+"\n[stdout: showing the last 30.0KB of line 50000 (line is 100.0KB). Full output: SPILL.log")
			want(t, "truncation", vals(r.at("details.truncation.truncatedBy"), r.at("details.truncation.lastLinePartial")), "bytes true")
			want(t, "fullOutputPath", r.at("details.fullOutputPath"), "SPILL.log")
		}},
	// pi: grep.
	{profile: "pi", name: "grep: Hit match limit (100 matches)",
		files: func(t *testing.T, dir string) {
			writeFile(t, filepath.Join(dir, "file.ts"), seqText(1, 150, "matching content %d"))
		},
		cli: []string{"grep", "matching"}, tool: "grep", args: map[string]any{"pattern": "matching"},
		check: func(t *testing.T, r designResult) {
			wantContains(t, "text", r.piText(), "file.ts:1: matching content 1\n")
			wantContains(t, "text", r.piText(), "file.ts:100: matching content 100\n\n[100 matches limit reached. Use limit=200 for more, or refine pattern]")
			want(t, "matchLimitReached", r.at("details.matchLimitReached"), 100)
		}},
	{profile: "pi", name: "grep: Hit byte limit (< 100 matches, 30KB)",
		files: func(t *testing.T, dir string) {
			writeFile(t, filepath.Join(dir, "file.ts"), seqText(1, 150, "match %03d "+strings.Repeat("z", 480)))
		},
		cli: []string{"grep", "match"}, tool: "grep", args: map[string]any{"pattern": "match"},
		check: func(t *testing.T, r designResult) {
			wantContains(t, "text", r.piText(), "[30.0KB limit reached: 61 of 100 lines shown (100 matches found). Full output: SPILL.log")
			want(t, "truncatedBy", r.at("details.truncation.truncatedBy"), "bytes")
		}},
	{profile: "pi", name: "grep: Match lines truncated (any line > 500 chars)",
		files: func(t *testing.T, dir string) {
			writeFile(t, filepath.Join(dir, "file.ts"), strings.Repeat("x", 9)+"\n"+"very long matching content "+strings.Repeat("w", 900)+"\nnormal match\n")
		},
		cli: []string{"grep", "match"}, tool: "grep", args: map[string]any{"pattern": "match"},
		check: func(t *testing.T, r designResult) {
			wantContains(t, "text", r.piText(), "file.ts:2: very long matching content www")
			wantContains(t, "text", r.piText(), "file.ts:3: normal match")
			wantContains(t, "text", r.piText(), "500 chars")
			want(t, "linesTruncated", r.at("details.linesTruncated"), true)
		}},
	// pi: find.
	{profile: "pi", name: "find: Hit result limit (1000 results)",
		files: func(t *testing.T, dir string) {
			os.Mkdir(filepath.Join(dir, "src"), 0o755)
			for i := range 1200 {
				writeFile(t, filepath.Join(dir, "src", fmt.Sprintf("file%04d.ts", i)), "")
			}
		},
		cli: []string{"find", "*.ts"}, tool: "find", args: map[string]any{"pattern": "*.ts"},
		check: func(t *testing.T, r designResult) {
			wantContains(t, "text", r.piText(), "src/file0000.ts\n")
			wantContains(t, "text", r.piText(), "[1000 results limit reached. Use limit=2000 for more, or refine pattern]")
			want(t, "resultLimitReached", r.at("details.resultLimitReached"), 1000)
		}},
	{profile: "pi", name: "find: Hit byte limit (unlikely, < 1000 results, 30KB)",
		files: func(t *testing.T, dir string) {
			deep := filepath.Join(dir, strings.Repeat("d", 200), strings.Repeat("e", 200))
			os.MkdirAll(deep, 0o755)
			for i := range 150 {
				writeFile(t, filepath.Join(deep, fmt.Sprintf("file%04d.ts", i)), "")
			}
		},
		cli: []string{"find", "*.ts"}, tool: "find", args: map[string]any{"pattern": "*.ts"},
		check: func(t *testing.T, r designResult) {
			wantContains(t, "text", r.piText(), "[30.0KB limit reached")
			want(t, "truncatedBy", r.at("details.truncation.truncatedBy"), "bytes")
		}},
	// pi: ls.
	{profile: "pi", name: "ls: Hit entry limit (500 entries)",
		files: func(t *testing.T, dir string) {
			for i := range 600 {
				writeFile(t, filepath.Join(dir, fmt.Sprintf("entry%04d", i)), "")
			}
		},
		cli: []string{"ls"}, tool: "ls", args: map[string]any{},
		check: func(t *testing.T, r designResult) {
			wantContains(t, "text", r.piText(), "entry0000\n")
			wantContains(t, "text", r.piText(), "[500 entries limit reached: the directory holds 600. Use limit=600 to list them all]")
			want(t, "entryLimitReached", r.at("details.entryLimitReached"), 500)
		}},
	{profile: "pi", name: "ls: Hit byte limit (unlikely)",
		files: func(t *testing.T, dir string) {
			for i := range 200 {
				writeFile(t, filepath.Join(dir, fmt.Sprintf("%04d%s", i, strings.Repeat("n", 200))), "")
			}
		},
		cli: []string{"ls"}, tool: "ls", args: map[string]any{},
		check: func(t *testing.T, r designResult) {
			wantContains(t, "text", r.piText(), "[30.0KB limit reached")
			want(t, "truncatedBy", r.at("details.truncation.truncatedBy"), "bytes")
		}},

	// zdx.
	{profile: "zdx", name: "Slice 1 demo: 3000-line file → 2000 lines, total_lines 3000, truncated",
		files: func(t *testing.T, dir string) { writeFile(t, filepath.Join(dir, "big.txt"), seqText(1, 3000, "%d")) },
		cli:   []string{"read", "big.txt"}, tool: "read", args: map[string]any{"path": "big.txt"},
		check: func(t *testing.T, r designResult) {
			want(t, "content", r.at("data.content"), seqText(1, 2000, "%d"))
			want(t, "fields", vals(r.at("data.lines_shown"), r.at("data.total_lines"), r.at("data.truncated")), "2000 3000 true")
			want(t, "path", r.at("data.path"), filepath.Join(r.dir, "big.txt"))
		}},
	{profile: "zdx", name: "Slice 1 demo: 1000-char line cut at 500 chars, truncated false",
		files: func(t *testing.T, dir string) {
			writeFile(t, filepath.Join(dir, "long.txt"), strings.Repeat("é", 1000)+"\n")
		},
		cli: []string{"read", "long.txt"}, tool: "read", args: map[string]any{"path": "long.txt"},
		check: func(t *testing.T, r designResult) {
			want(t, "content", r.at("data.content"), strings.Repeat("é", 500)+"\n")
			want(t, "fields", vals(r.at("data.lines_shown"), r.at("data.total_lines"), r.at("data.truncated")), "1 1 false")
		}},
	{profile: "zdx", name: "Slice 2 demo: offset 1000, limit 500 returns lines 1000-1499",
		files: func(t *testing.T, dir string) { writeFile(t, filepath.Join(dir, "big.txt"), seqText(1, 3000, "%d")) },
		cli:   []string{"read", "big.txt", "--offset", "1000", "--limit", "500"}, tool: "read", args: map[string]any{"path": "big.txt", "offset": 1000, "limit": 500},
		check: func(t *testing.T, r designResult) {
			want(t, "content", r.at("data.content"), seqText(1000, 1499, "%d"))
			want(t, "fields", vals(r.at("data.offset"), r.at("data.lines_shown"), r.at("data.total_lines"), r.at("data.truncated")), "1000 500 3000 true")
		}},
	{profile: "zdx", name: "Slice 3 demo: head -c 100000 | base64 → stdout_truncated",
		cli: []string{"bash", "head -c 75000 /dev/zero | base64"}, tool: "bash", args: map[string]any{"command": "head -c 75000 /dev/zero | base64"},
		check: func(t *testing.T, r designResult) {
			// /dev/zero instead of /dev/urandom: the same size, and the
			// same text through both transports.
			want(t, "fields", vals(r.at("data.stdout_truncated"), r.at("data.stderr_truncated"), r.at("data.stdout_total_bytes"), r.at("data.stderr_total_bytes"), r.at("data.exit_code"), r.at("data.timed_out")), "true false 101316 0 0 false")
			out, _ := r.at("data.stdout").(string)
			if len(out) > 50*1024 || !strings.HasPrefix(out, "AAAA") {
				t.Errorf("stdout is %d bytes, want the start, at most 50 KiB", len(out))
			}
		}},
	{profile: "zdx", name: "Key decision 10: offset beyond file",
		files: func(t *testing.T, dir string) { writeFile(t, filepath.Join(dir, "ten.txt"), seqText(1, 10, "%d")) },
		cli:   []string{"read", "ten.txt", "--offset", "20"}, tool: "read", args: map[string]any{"path": "ten.txt", "offset": 20},
		check: func(t *testing.T, r designResult) {
			want(t, "fields", fmt.Sprintf("%q %v %v %v", r.at("data.content"), r.at("data.lines_shown"), r.at("data.total_lines"), r.at("data.truncated")), `"" 0 10 false`)
		}},
	{profile: "zdx", name: "Key decision 11: empty file",
		files: func(t *testing.T, dir string) { writeFile(t, filepath.Join(dir, "empty.txt"), "") },
		cli:   []string{"read", "empty.txt"}, tool: "read", args: map[string]any{"path": "empty.txt"},
		check: func(t *testing.T, r designResult) {
			want(t, "fields", fmt.Sprintf("%q %v %v %v", r.at("data.content"), r.at("data.lines_shown"), r.at("data.total_lines"), r.at("data.truncated")), `"" 0 0 false`)
		}},

	// opencode.
	{profile: "opencode", name: "Desired State: 8,432 lines → first 500 and last 500, file path",
		cli: []string{"bash", "seq 1 8432"}, tool: "bash", args: map[string]any{"command": "seq 1 8432"},
		check: func(t *testing.T, r designResult) {
			want(t, "temp_file_path", r.at("data.temp_file_path"), "SPILL.log")
			out, _ := r.at("data.stdout").(string)
			head, tail, ok := strings.Cut(out, "[... 7432 lines (")
			if !ok || head != seqText(1, 500, "%d") || !strings.HasSuffix(tail, "omitted ...]\n"+seqText(7933, 8432, "%d")) {
				t.Errorf("stdout is not lines 1-500, a marker for 7432 lines, lines 7933-8432: %.100q … %.100q", out, out[max(0, len(out)-100):])
			}
			want(t, "total lines", r.at("data.stdout_truncation.total_lines"), 8432)
		}},
	{profile: "opencode", name: "Phase 1.1: over the byte limit (100 lines of 1000 bytes)",
		cli: []string{"bash", "yes $(printf 'A%.0s' $(seq 1000)) | head -n 100"}, tool: "bash",
		args: map[string]any{"command": "yes $(printf 'A%.0s' $(seq 1000)) | head -n 100"},
		check: func(t *testing.T, r designResult) {
			want(t, "temp_file_path", r.at("data.temp_file_path"), "SPILL.log")
			want(t, "fields", vals(r.at("data.stdout_truncation.truncated_by"), r.at("data.stdout_truncation.total_lines"), r.at("data.stdout_truncation.output_lines")), "bytes 100 51")
		}},
	{profile: "opencode", name: "Success Criteria: under the limits, identical and no file",
		cli: []string{"bash", "seq 1 10"}, tool: "bash", args: map[string]any{"command": "seq 1 10"},
		check: func(t *testing.T, r designResult) {
			want(t, "stdout", r.at("data.stdout"), seqText(1, 10, "%d"))
			if _, ok := r.m["data"].(map[string]any)["temp_file_path"]; ok {
				t.Errorf("temp_file_path without a cut")
			}
		}},
	{profile: "opencode", name: "Edge case: stderr persisted the same as stdout",
		cli: []string{"bash", "seq 1 3000 >&2"}, tool: "bash", args: map[string]any{"command": "seq 1 3000 >&2"},
		check: func(t *testing.T, r designResult) {
			want(t, "temp_file_path", r.at("data.temp_file_path"), "SPILL.log")
			want(t, "stderr_full_output_path", r.at("data.stderr_full_output_path"), "SPILL.log")
			out, _ := r.at("data.stderr").(string)
			if !strings.HasPrefix(out, seqText(1, 500, "%d")+"[... 2000 lines") || !strings.HasSuffix(out, seqText(2501, 3000, "%d")) {
				t.Errorf("stderr is not lines 1-500 and 2501-3000")
			}
		}},
	{profile: "opencode", name: "view: a temp file paged with offset/limit",
		files: func(t *testing.T, dir string) { writeFile(t, filepath.Join(dir, "bash.txt"), seqText(1, 3000, "%d")) },
		cli:   []string{"read", "bash.txt", "--offset", "2500", "--limit", "2"}, tool: "read", args: map[string]any{"path": "bash.txt", "offset": 2500, "limit": 2},
		check: func(t *testing.T, r designResult) {
			want(t, "content", r.at("data.content"), "2500\n2501\n")
		}},

	// macos-shell: the design's "Testing Strategy".
	{profile: "macos-shell", name: "Test 1: Binary output detection (cat /bin/ls)",
		cli: []string{"bash", "cat", "--args", "/bin/ls"}, tool: "run_command", args: map[string]any{"command": "cat", "args": []string{"/bin/ls"}},
		check: func(t *testing.T, r designResult) {
			want(t, "fields", vals(r.at("success"), r.at("exitCode"), r.at("command"), r.at("truncation.stdout.truncated"), r.at("truncation.stdout.returnedLines")), "true 0 cat /bin/ls true 0")
			wantContains(t, "warnings", vals(r.at("warnings")), "binary output detected")
		}},
	{profile: "macos-shell", name: "Test 2: Large output truncation",
		cli: []string{"bash", "seq", "--args", "1", "--args", "5000"}, tool: "run_command", args: map[string]any{"command": "seq", "args": []string{"1", "5000"}},
		check: func(t *testing.T, r designResult) {
			want(t, "fields", vals(r.at("truncation.stdout.truncated"), r.at("truncation.stdout.totalLines"), r.at("truncation.stdout.returnedLines")), "true 5000 501")
			out, _ := r.at("stdout").(string)
			if !strings.HasPrefix(out, seqText(1, 300, "%d")+"[... 4500 lines (") || !strings.HasSuffix(out, seqText(4801, 5000, "%d")) {
				t.Errorf("stdout is not 300 head lines, the marker, 200 tail lines")
			}
		}},
	{profile: "macos-shell", name: "Test 3: Long single line (minified JSON)",
		files: func(t *testing.T, dir string) {
			writeFile(t, filepath.Join(dir, "minified.json"), "{"+strings.Repeat(`"k":1,`, 5000)+"}\n")
		},
		cli: []string{"bash", "cat", "--args", "minified.json"}, tool: "run_command", args: map[string]any{"command": "cat", "args": []string{"minified.json"}},
		check: func(t *testing.T, r designResult) {
			want(t, "truncated", r.at("truncation.stdout.truncated"), true)
			out, _ := r.at("stdout").(string)
			if !strings.HasPrefix(out, `{"k":1,`) || len(out) > 10_100 {
				t.Errorf("stdout is %d bytes", len(out))
			}
		}},
	{profile: "macos-shell", name: "Test 4: Cached result with different limits",
		mcpOnly: "the cache lives in a session; each CLI command is a session of its own",
		tool:    "run_command", args: map[string]any{"command": "seq", "args": []string{"1", "600"}, "maxOutputLines": 100},
		check: func(t *testing.T, r designResult) {
			want(t, "fields", vals(r.at("truncation.stdout.totalLines"), r.at("truncation.stdout.returnedLines")), "600 101")
		}},
	{profile: "macos-shell", name: "Test 5: Error output truncation",
		cli: []string{"bash", "find", "--args", "/nonexistent", "--args", "-type", "--args", "f"}, tool: "run_command",
		args: map[string]any{"command": "find", "args": []string{"/nonexistent", "-type", "f"}},
		check: func(t *testing.T, r designResult) {
			want(t, "fields", vals(r.at("success"), r.at("exitCode")), "false 1")
			wantContains(t, "stderr", vals(r.at("stderr")), "No such file")
		}},

	// pipe.
	{profile: "pipe", name: "Filesystem Offloading: [stdout: Showing last 2000 of 8500 lines. Full output: …]",
		cli: []string{"bash", "seq -f 'line %06g' 1 8500"}, tool: "bash", args: map[string]any{"command": "seq -f 'line %06g' 1 8500"},
		check: func(t *testing.T, r designResult) {
			wantContains(t, "text", r.text, "stdout:\n"+seqText(6501, 8500, "line %06d")+"[stdout: showing lines 6501-8500 of 8500. Full output: SPILL.log")
		}},
	{profile: "pipe", name: "Filesystem Offloading: 3000 short lines, no temp file",
		cli: []string{"bash", "seq 1 3000"}, tool: "bash", args: map[string]any{"command": "seq 1 3000"},
		check: func(t *testing.T, r designResult) {
			want(t, "text", r.text, "stdout:\n"+seqText(1001, 3000, "%d")+"[stdout: showing lines 1001-3000 of 3000]\n\nexit code: 0")
		}},
	{profile: "pipe", name: "Tail Truncation: a single line over 50KB, its tail",
		cli: []string{"bash", "head -c 81920 /dev/zero | tr '\\0' q; echo END"}, tool: "bash",
		args: map[string]any{"command": "head -c 81920 /dev/zero | tr '\\0' q; echo END"},
		check: func(t *testing.T, r designResult) {
			wantContains(t, "text", r.text, "stdout:\n"+strings.Repeat("q", 50*1024-4)+"END\n[stdout: showing the last 50.0KB of line 1 (line is 80.0KB). Full output: SPILL.log")
		}},
	{profile: "pipe", name: "Sanitization: ANSI stripped, controls dropped, CRLF and CR",
		cli: []string{"bash", `printf '\033[32m✓\033[0m test passed\r\na\001b\002c\007\nabcdef\rxy\n'`}, tool: "bash",
		args: map[string]any{"command": `printf '\033[32m✓\033[0m test passed\r\na\001b\002c\007\nabcdef\rxy\n'`},
		check: func(t *testing.T, r designResult) {
			want(t, "text", r.text, "stdout:\n✓ test passed\nabc\nxycdef\n\nexit code: 0")
		}},
	{profile: "pipe", name: "Result Format: Normal completion",
		cli: []string{"bash", "echo out; echo err >&2"}, tool: "bash", args: map[string]any{"command": "echo out; echo err >&2"},
		check: func(t *testing.T, r designResult) {
			want(t, "text", r.text, "stdout:\nout\n\nstderr:\nerr\n\nexit code: 0")
		}},
	{profile: "pipe", name: "Auto-Backgrounding: backgrounded after the timeout, with its pid",
		mcpOnly: "check_pid needs the session the command runs in; a CLI command ends its session",
		tool:    "bash", args: map[string]any{"command": "echo started; sleep 30", "timeout": 300},
		check: func(t *testing.T, r designResult) {
			wantContains(t, "text", r.text, "started\n")
			wantContains(t, "text", r.text, "in the background as pid N")
			wantContains(t, "text", r.text, "kill_pid")
		}},
}

// spillPath matches a spill file's path, which differs from run to run.
var (
	spillPath = regexp.MustCompile(`/[^\s"\]]*/spillway-[^\s"\]]*\.log`)
	varying   = regexp.MustCompile(`"(duration|duration_ms|durationMs|pid|tokens|history_id|historyId)":\d+`)
	pidText   = regexp.MustCompile(`pid \d+|pid=\d+|check_pid=\d+`)
)

func normalizeDesignText(s string) string {
	s = spillPath.ReplaceAllString(s, "SPILL.log")
	s = varying.ReplaceAllString(s, `"$1":0`)
	return pidText.ReplaceAllString(s, "pid N")
}

// formatFor is the result format of a profile's examples: the design's
// own JSON where it has one.
func formatFor(profile string) string {
	if profile == "pipe" {
		return "text"
	}
	return "json"
}

func TestDesignExamples(t *testing.T) {
	profiles := map[string]bool{}
	for _, ex := range designExamples {
		profiles[ex.profile] = true
	}
	for profile := range profiles {
		t.Run(profile, func(t *testing.T) {
			t.Parallel()
			tmp := t.TempDir()
			for _, ex := range designExamples {
				if ex.profile != profile {
					continue
				}
				dir := t.TempDir()
				if ex.files != nil {
					ex.files(t, dir)
				}
				args := []string{"--profile", profile, "--format", formatFor(profile)}
				if profile == "macos-shell" {
					// The design's /bin/zsh may be missing here.
					cfg := filepath.Join(tmp, "spillway.toml")
					writeFile(t, cfg, "shell = \"bash\"\n")
					args = append(args, "--config", cfg)
				}
				t.Run(ex.name, func(t *testing.T) {
					cs := connectDesignServer(t, tmp, dir, args)
					viaMCP := normalizeDesignText(text(call(t, cs, ex.tool, ex.args)))
					if ex.mcpOnly == "" {
						viaCLI := runDesignCLI(t, tmp, dir, append(append([]string{"--model-text"}, args...), ex.cli...))
						if viaCLI != viaMCP {
							i := 0
							for i < min(len(viaCLI), len(viaMCP)) && viaCLI[i] == viaMCP[i] {
								i++
							}
							t.Errorf("CLI and MCP differ from byte %d:\nCLI …%.300q\nMCP …%.300q", i, viaCLI[max(0, i-40):], viaMCP[max(0, i-40):])
						}
						ex.check(t, decodeDesign(t, "CLI", dir, viaCLI, profile))
					}
					ex.check(t, decodeDesign(t, "MCP", dir, viaMCP, profile))
				})
			}
		})
	}
}

func decodeDesign(t *testing.T, via, dir, s, profile string) designResult {
	t.Helper()
	r := designResult{dir: dir, text: s}
	if formatFor(profile) == "json" {
		if err := json.Unmarshal([]byte(s), &r.m); err != nil {
			t.Fatalf("%s: the text is not one JSON object: %v\n%.300q", via, err, s)
		}
	}
	return r
}

// connectDesignServer starts `spillway ARGS mcp` in dir, as the CLI runs.
func connectDesignServer(t *testing.T, tmp, dir string, args []string) *mcp.ClientSession {
	t.Helper()
	cmd := exec.Command(bin, append(args, "mcp")...)
	cmd.Dir = dir
	cmd.Env = serverEnv(tmp)
	stderr := &lockedBuffer{}
	cmd.Stderr = stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).
		Connect(testContext(t), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connecting to spillway %q mcp: %v\nstderr:\n%s", args, err, stderr)
	}
	t.Cleanup(func() {
		cs.Close()
		checkStderr(t, "spillway mcp", stderr.String())
	})
	return cs
}

// runDesignCLI runs the CLI in dir and returns its stdout, normalized.
func runDesignCLI(t *testing.T, tmp, dir string, args []string) string {
	t.Helper()
	cmd := exec.CommandContext(testContext(t), bin, args...)
	cmd.Dir = dir
	cmd.Env = serverEnv(tmp)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatalf("spillway %q: %v\n%s", args, err, errb.String())
	}
	return normalizeDesignText(strings.TrimSuffix(out.String(), "\n"))
}
