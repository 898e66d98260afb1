package spillway_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spillway-dev/spillway"
)

// Each design's own examples, replayed through its profile's surface: the
// design's tool and parameter names in, its result fields out (--format
// json). The design's sections are named beside each example.

func surfaceToolset(t *testing.T, profile string, edit func(*spillway.Policy)) (*spillway.Toolset, string) {
	t.Helper()
	pol, err := spillway.Profile(profile)
	if err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		edit(&pol)
	}
	dir := t.TempDir()
	return bashToolset(t, spillway.Options{Policy: &pol, Cwd: dir, Format: "json"}), dir
}

// surfaceCall calls a tool by the design's name with the design's arguments and
// decodes the JSON text it returns.
func surfaceCall(t *testing.T, ts *spillway.Toolset, tool, args string) (map[string]any, spillway.Result[any]) {
	t.Helper()
	res, err := ts.Call(context.Background(), spillway.ToolCall{Name: tool, Args: json.RawMessage(args)})
	if err != nil {
		t.Fatalf("%s %s: %v", tool, args, err)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(res.Text), &m); err != nil {
		t.Fatalf("%s %s: the text is not one JSON object: %v\n%.300s", tool, args, err, res.Text)
	}
	return m, res
}

// get follows a dotted path in decoded JSON.
func get(m map[string]any, path string) any {
	var v any = m
	for _, k := range strings.Split(path, ".") {
		mm, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = mm[k]
	}
	return v
}

func TestSurfaceMacosShell(t *testing.T) {
	ts, dir := surfaceToolset(t, "macos-shell", func(p *spillway.Policy) {
		p.Cache.Commands = []string{"ls -la"}
		p.Shell = "bash" // the design's /bin/zsh may be missing here
	})
	// macos-shell's design, Testing Strategy: binary output detection.
	m, _ := surfaceCall(t, ts, "run_command", `{"command": "cat", "args": ["/bin/ls"]}`)
	if get(m, "success") != true || get(m, "truncation.stdout.truncated") != true || get(m, "truncation.stdout.returnedLines") != 0.0 ||
		!strings.Contains(fmt.Sprint(get(m, "warnings")), "binary output detected") || get(m, "command") != "cat /bin/ls" {
		t.Errorf("cat /bin/ls: %v", m)
	}
	// macos-shell's design, Testing Strategy: large output truncation, 500 stdout lines
	// by default (macos-shell's design, 1 Schema Updates), 60/40 around a marker.
	m, _ = surfaceCall(t, ts, "run_command", `{"command": "find", "args": ["/usr", "-type", "f"]}`)
	if get(m, "truncation.stdout.truncated") != true || get(m, "truncation.stdout.totalLines").(float64) <= 500 ||
		get(m, "truncation.stdout.returnedLines") != 501.0 || !strings.Contains(get(m, "stdout").(string), " lines (") {
		t.Errorf("find /usr: %v", get(m, "truncation"))
	}
	// macos-shell's design, Testing Strategy: a long single line (minified JSON).
	os.WriteFile(filepath.Join(dir, "minified.json"), []byte("{"+strings.Repeat(`"k":1,`, 5000)+"}\n"), 0o644)
	m, _ = surfaceCall(t, ts, "run_command", `{"command": "cat", "args": ["minified.json"]}`)
	if get(m, "truncation.stdout.truncated") != true || len(get(m, "stdout").(string)) > 10_100 {
		t.Errorf("minified.json: %v (stdout %d bytes)", get(m, "truncation"), len(get(m, "stdout").(string)))
	}
	// macos-shell's design, Testing Strategy: a cached result with different limits.
	for i := range 120 {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%03d", i)), nil, 0o644)
	}
	first, _ := surfaceCall(t, ts, "run_command", `{"command": "ls", "args": ["-la"], "maxOutputLines": 100}`)
	second, _ := surfaceCall(t, ts, "run_command", `{"command": "ls", "args": ["-la"], "maxOutputLines": 50}`)
	if get(first, "cached") != nil || get(first, "truncation.stdout.returnedLines") != 101.0 ||
		get(second, "cached") != true || get(second, "truncation.stdout.returnedLines") != 51.0 ||
		get(second, "truncation.stdout.totalLines") != get(first, "truncation.stdout.totalLines") {
		t.Errorf("ls -la cached:\nfirst  %v %v\nsecond %v %v", get(first, "cached"), get(first, "truncation"), get(second, "cached"), get(second, "truncation"))
	}
	// macos-shell's design, Testing Strategy: error output; maxErrorLines (macos-shell's design, 1 Schema Updates).
	m, res := surfaceCall(t, ts, "run_command", `{"command": "find", "args": ["/nonexistent", "-type", "f"], "maxErrorLines": 5}`)
	if get(m, "success") != false || get(m, "exitCode") != 1.0 || !strings.Contains(get(m, "stderr").(string), "No such file") || !res.IsError {
		t.Errorf("find /nonexistent: %v", m)
	}
	// The schema's other parameters (macos-shell's design, 1 Schema Updates): session, cwd, env,
	// includeFullOutput.
	surfaceCall(t, ts, "run_command", `{"command": "cd /tmp", "session": "s"}`)
	m, _ = surfaceCall(t, ts, "run_command", `{"command": "pwd; echo $X; seq 1 900", "session": "s", "env": {"X": "y"}, "includeFullOutput": true}`)
	if !strings.HasPrefix(get(m, "stdout").(string), "/tmp\ny\n1\n") || get(m, "truncation") != nil || get(m, "duration") == nil {
		t.Errorf("session, env, includeFullOutput: %v", m)
	}
	// The default surface is untouched: bash with spillway's names.
	if _, err := ts.Call(context.Background(), spillway.ToolCall{Name: "bash", Args: json.RawMessage(`{"command": "true", "max_lines": 3}`)}); err != nil {
		t.Errorf("bash under macos-shell: %v", err)
	}
	if _, err := ts.Call(context.Background(), spillway.ToolCall{Name: "run_command", Args: json.RawMessage(`{"command": "true", "maxOutputLines": 0}`)}); err == nil {
		t.Errorf("maxOutputLines 0 accepted")
	}
	// Outside the profile, the design's names are unknown.
	def, _ := surfaceToolset(t, "default", nil)
	if _, err := def.Call(context.Background(), spillway.ToolCall{Name: "bash", Args: json.RawMessage(`{"command": "true", "maxOutputLines": 3}`)}); err == nil {
		t.Errorf("maxOutputLines accepted by the default profile")
	}
}

func TestSurfaceZdx(t *testing.T) {
	ts, dir := surfaceToolset(t, "zdx", nil)
	// zdx's design, Slice 3: cat /dev/urandom | head -c 100000 | base64.
	m, _ := surfaceCall(t, ts, "bash", `{"command": "cat /dev/urandom | head -c 100000 | base64"}`)
	if get(m, "ok") != true || get(m, "data.stdout_truncated") != true || get(m, "data.stdout_total_bytes").(float64) < 130000 ||
		get(m, "data.stderr_truncated") != false || get(m, "data.truncated") != true || get(m, "data.exit_code") != 0.0 {
		t.Errorf("base64: %v", get(m, "data.stdout_truncated"))
	}
	// zdx's design, Slice 1: a 3000-line file.
	os.WriteFile(filepath.Join(dir, "big.txt"), []byte(seqLines(1, 3000)), 0o644)
	m, _ = surfaceCall(t, ts, "read", `{"path": "big.txt"}`)
	if get(m, "data.lines_shown") != 2000.0 || get(m, "data.total_lines") != 3000.0 || get(m, "data.truncated") != true || get(m, "data.path") == nil {
		t.Errorf("3000 lines: %v", get(m, "data"))
	}
	// zdx's design, Slice 1: a 1000-char line is cut at 500, truncated false.
	os.WriteFile(filepath.Join(dir, "long.txt"), []byte(strings.Repeat("x", 1000)+"\n"), 0o644)
	m, _ = surfaceCall(t, ts, "read", `{"path": "long.txt"}`)
	if get(m, "data.truncated") != false || len(get(m, "data.content").(string)) > 600 {
		t.Errorf("long line: %v", get(m, "data"))
	}
	// zdx's design, Slice 2: offset 1000, limit 500 returns lines 1000-1499.
	m, _ = surfaceCall(t, ts, "read", `{"path": "big.txt", "offset": 1000, "limit": 500}`)
	if c := get(m, "data.content").(string); !strings.HasPrefix(c, "1000\n") || !strings.HasSuffix(c, "1499\n") || get(m, "data.offset") != 1000.0 {
		t.Errorf("offset 1000: %v", get(m, "data.offset"))
	}
}

func TestSurfacePi(t *testing.T) {
	ts, dir := surfaceToolset(t, "pi", nil)
	// pi's design, read: 5000 lines, the line limit.
	os.WriteFile(filepath.Join(dir, "f.txt"), []byte(seqLines(1, 5000)), 0o644)
	m, _ := surfaceCall(t, ts, "read", `{"path": "f.txt"}`)
	if get(m, "details.truncation.truncatedBy") != "lines" || get(m, "details.truncation.outputLines") != 2000.0 ||
		get(m, "details.truncation.totalLines") != 5000.0 || !strings.Contains(fmt.Sprint(get(m, "content")), "Use offset=2001 to continue") {
		t.Errorf("read: %v", get(m, "details"))
	}
	// pi's design, bash: 50000 lines, the last 2000 and fullOutputPath.
	m, _ = surfaceCall(t, ts, "bash", `{"command": "seq 1 50000"}`)
	text := get(m, "content").([]any)[0].(map[string]any)["text"].(string)
	if get(m, "details.truncation.truncatedBy") != "lines" || get(m, "details.truncation.outputLines") != 2000.0 ||
		get(m, "details.fullOutputPath") == nil || !strings.Contains(text, "48001-50000 of 50000") {
		t.Errorf("bash: %v\n%.200s", get(m, "details.truncation"), text)
	}
	// pi's design, grep: matchLimitReached: 100.
	os.WriteFile(filepath.Join(dir, "m.txt"), []byte(strings.Repeat("match\n", 150)), 0o644)
	m, _ = surfaceCall(t, ts, "grep", `{"pattern": "match", "path": "m.txt"}`)
	if get(m, "details.matchLimitReached") != 100.0 {
		t.Errorf("grep: %v", get(m, "details"))
	}
	// pi's design, find: resultLimitReached: 1000.
	os.Mkdir(filepath.Join(dir, "many"), 0o755)
	for i := range 1001 {
		os.WriteFile(filepath.Join(dir, "many", fmt.Sprintf("f%04d.ts", i)), nil, 0o644)
	}
	m, _ = surfaceCall(t, ts, "find", `{"pattern": "*.ts"}`)
	if get(m, "details.resultLimitReached") != 1000.0 {
		t.Errorf("find: %v", get(m, "details"))
	}
	// pi's design, ls: entryLimitReached: 500.
	m, _ = surfaceCall(t, ts, "ls", `{"path": "many"}`)
	if get(m, "details.entryLimitReached") != 500.0 {
		t.Errorf("ls: %v", get(m, "details"))
	}
	// Under the limits, no *LimitReached at all.
	m, _ = surfaceCall(t, ts, "ls", `{}`)
	if _, ok := get(m, "details").(map[string]any)["entryLimitReached"]; ok {
		t.Errorf("ls under the limit: %v", get(m, "details"))
	}
}

func TestSurfaceOpencode(t *testing.T) {
	ts, _ := surfaceToolset(t, "opencode", nil)
	// opencode's design, Phase 3: a command over 2000 lines gives a file path that
	// holds the whole output and that view (read) pages with offset.
	m, _ := surfaceCall(t, ts, "bash", `{"command": "seq 1 3000"}`)
	path, _ := get(m, "data.temp_file_path").(string)
	data, err := os.ReadFile(path)
	if err != nil || string(data) != seqLines(1, 3000) {
		t.Fatalf("temp_file_path %q: %v", path, err)
	}
	page, _ := surfaceCall(t, ts, "read", `{"path": "`+path+`", "offset": 2500, "limit": 2}`)
	if get(page, "data.content") != "2500\n2501\n" {
		t.Errorf("view of the temp file: %v", get(page, "data"))
	}
	// Under the limits, no file and no temp_file_path (opencode's design, Success Criteria).
	m, _ = surfaceCall(t, ts, "bash", `{"command": "seq 1 10"}`)
	if _, ok := get(m, "data").(map[string]any)["temp_file_path"]; ok {
		t.Errorf("temp_file_path without a cut: %v", m)
	}
}

// seqLines is "from\n" … "to\n", as seq prints them.
func seqLines(from, to int) string {
	var b strings.Builder
	for i := from; i <= to; i++ {
		fmt.Fprintf(&b, "%d\n", i)
	}
	return b.String()
}
