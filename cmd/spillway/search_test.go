package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The grep and find commands through the built binary: flags, text,
// --json and exit statuses (0 success, 1 is_error, 2 bad usage).
func TestGrepFindCommands(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "spillway")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	tree := filepath.Join(dir, "tree")
	for name, content := range map[string]string{
		"src/a.go":      "package a\n// TODO one\nfunc A() {}\n",
		"src/b_test.go": "package a\n// todo two\n",
		"notes.md":      "TODO three\n",
		".gitignore":    "build/\n",
		"build/x.go":    "// TODO ignored\n",
	} {
		p := filepath.Join(tree, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := func(args ...string) (string, int) {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Dir = tree
		cmd.Env = append(os.Environ(), "TMPDIR="+dir)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		cmd.WaitDelay = 30 * time.Second
		err := cmd.Run()
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return out.String(), exit.ExitCode()
		}
		if err != nil {
			t.Fatal(err)
		}
		return out.String(), 0
	}
	cases := []struct {
		args   []string
		want   string
		status int
	}{
		{[]string{"grep", "TODO"}, "notes.md:1: TODO three\nsrc/a.go:2: // TODO one\n", 0},
		{[]string{"grep", "-i", "todo", "src", "--glob", "*_test.go"}, "src/b_test.go:2: // todo two\n", 0},
		{[]string{"grep", "--ignore-case", "--output-mode", "count", "todo"}, "notes.md:1\nsrc/a.go:1\nsrc/b_test.go:1\n", 0},
		{[]string{"grep", "--literal", "A()", "--context", "1"}, "src/a.go-2- // TODO one\nsrc/a.go:3: func A() {}\n", 0},
		{[]string{"grep", "TODO", "--limit", "1"}, "notes.md:1: TODO three\n\n[1 match limit reached: at least 2 found. Run spillway grep TODO --limit 2 for more, or refine pattern]\n", 0},
		{[]string{"grep", "absent"}, "No matches found\n", 0},
		{[]string{"grep", "(?=x)"}, "grep: invalid regex", 1},
		{[]string{"grep"}, "spillway grep needs PATTERN, as in: spillway grep 'func main' .", 2},
		{[]string{"find", "*.go"}, "src/a.go\nsrc/b_test.go\n", 0},
		{[]string{"find", "*", "--type", "dir"}, "src/\n", 0},
		{[]string{"find", "*", "src", "--limit", "1"}, "src/a.go\n\n[1 result limit reached: 2 found. Run spillway find '*' src --limit 2 to list them all]\n", 0},
		// A value the parameter does not take is bad usage, as in every
		// command: the tools table bounds each flag.
		{[]string{"find", "*", "--type", "block"}, `find: parameter "type": want one of any, file, dir, got "block"`, 2},
	}
	for _, c := range cases {
		out, status := run(c.args...)
		if status != c.status || (c.status == 0 && out != c.want) || (c.status != 0 && !strings.Contains(out, c.want)) {
			t.Errorf("spillway %q: status %d, output %q; want %d, %q", c.args, status, out, c.status, c.want)
		}
	}

	out, status := run("grep", "--json", "--output-mode", "files_with_matches", "TODO")
	var res struct {
		Text    string `json:"text"`
		IsError bool   `json:"is_error"`
		Details struct {
			MatchCount        int  `json:"match_count"`
			FileCount         int  `json:"file_count"`
			MatchLimitReached bool `json:"match_limit_reached"`
			Truncation        struct {
				Truncated bool `json:"truncated"`
			} `json:"truncation"`
		} `json:"details"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || status != 0 {
		t.Fatalf("--json: %v, status %d: %s", err, status, out)
	}
	if res.Text != "notes.md\nsrc/a.go" || res.Details.FileCount != 2 || res.IsError {
		t.Errorf("--json result %+v", res)
	}
}
