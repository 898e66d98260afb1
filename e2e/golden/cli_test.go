package golden

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// profiles are the names --profile takes (spillway --help lists them).
var profiles = []string{"default", "pi", "zdx", "opencode", "macos-shell", "pipe", "claude-code"}

// cliCase is one run of the binary: its arguments after the global flags.
type cliCase struct {
	name string
	args []string
}

// cliCases run under every profile, as text and as --format json: each
// tool, a cut result of each kind, and an error.
var cliCases = []cliCase{
	{"bash-ok", []string{"bash", "echo out; echo err >&2"}},
	{"bash-cut", []string{"bash", "seq 1 12000"}},
	{"bash-long-line", []string{"bash", "cat long.txt"}},
	{"read-big", []string{"read", "big.txt"}},
	{"read-window", []string{"read", "--offset", "100", "--limit", "5", "--line-numbers", "big.txt"}},
	{"grep-limit", []string{"grep", "match", "matches.txt"}},
	{"find-limit", []string{"find", "--limit", "5", "*.txt"}},
	{"ls-limit", []string{"ls", "--limit", "3", "many"}},
	{"err-read-missing", []string{"read", "missing.txt"}},
}

// defaultCases run under the default profile only, as text and as
// --format json: the variants of each tool and more errors.
var defaultCases = []cliCase{
	{"bash-exit", []string{"bash", "echo before; exit 3"}},
	{"bash-cut-stderr", []string{"bash", "seq 1 3000 >&2; echo done"}},
	{"bash-max-lines", []string{"bash", "--max-lines", "10", "seq 1 100"}},
	{"bash-args", []string{"bash", "--args", "%s|", "--args", "a b", "--args", "$HOME", "printf"}},
	{"bash-session-env-cwd", []string{"bash", "--session", "s1", "--cwd", "src", "--env", "G=1", "pwd; echo G=$G"}},
	// These two wait for a file no one makes, so that the timeout and the
	// end of the one-shot session always find them running.
	{"bash-timeout", []string{"bash", "--timeout", "100", "until [ -e {root}/never ]; do sleep 0.05; done"}},
	{"bash-background", []string{"bash", "--run-in-background", "until [ -e {root}/never ]; do sleep 0.05; done"}},
	{"read", []string{"read", "hello.txt"}},
	{"read-long-line", []string{"read", "long.txt"}},
	{"read-image", []string{"read", "pixel.png"}},
	{"grep", []string{"grep", "needle"}},
	{"grep-files", []string{"grep", "--output-mode", "files_with_matches", "needle"}},
	{"find", []string{"find", "*.go"}},
	{"ls", []string{"ls"}},
	{"err-read-dir", []string{"read", "emptydir"}},
	{"err-read-binary", []string{"read", "bin.dat"}},
	{"err-grep-regexp", []string{"grep", "("}},
	{"err-check-unknown-pid", []string{"bash", "--check-pid", "999999"}},
	{"err-kill-unknown-pid", []string{"bash", "--kill-pid", "999999"}},
}

// cliOnce are cases that need not run under every profile: usage errors,
// the --json flag, a root, a client, and the help of each command.
var cliOnce = []cliCase{
	{"json-flag/bash-cut", []string{"--json", "bash", "seq 1 3000"}},
	{"json-flag/bash-exit", []string{"--json", "bash", "echo x; exit 2"}},
	{"json-flag/read-window", []string{"--json", "read", "--offset", "10", "--limit", "3", "big.txt"}},
	{"json-flag/read-image", []string{"--json", "read", "pixel.png"}},
	{"json-flag/grep", []string{"--json", "grep", "needle"}},
	{"json-flag/find", []string{"--json", "find", "*.md"}},
	{"json-flag/ls", []string{"--json", "ls", "src"}},
	{"json-flag/err-read-missing", []string{"--json", "read", "missing.txt"}},
	{"root/read-outside", []string{"--root", "{fx}", "read", "/etc/hostname"}},
	{"root/read-dotdot", []string{"--root", "{fx}", "read", "../x.txt"}},
	{"root/ls-outside", []string{"--root", "{fx}", "ls", "/"}},
	{"root/bash-pwd", []string{"--root", "{fx}", "bash", "pwd"}},
	{"client/codex-bash-cut", []string{"--client", "codex", "bash", "seq 1 12000"}},
	{"client/claude-bash-cut", []string{"--client", "claude", "bash", "seq 1 12000"}},
	{"client/gemini-read-big", []string{"--client", "gemini", "read", "big.txt"}},
	{"usage/bash-no-command", []string{"bash"}},
	{"usage/bash-bad-flag", []string{"bash", "--nope", "true"}},
	{"usage/bash-max-lines-zero", []string{"bash", "--max-lines", "0", "true"}},
	{"usage/bash-two-modes", []string{"bash", "--check-pid", "1", "true"}},
	{"usage/read-bad-offset", []string{"read", "--offset", "0", "hello.txt"}},
	{"usage/find-bad-type", []string{"find", "--type", "pipe", "*"}},
	{"usage/bad-profile", []string{"--profile", "nope", "ls"}},
	{"usage/bad-format", []string{"--format", "xml", "ls"}},
	{"usage/unknown-command", []string{"jobs"}},
	{"help/root", []string{"--help"}},
	{"help/bash", []string{"bash", "--help"}},
	{"help/read", []string{"read", "--help"}},
	{"help/grep", []string{"grep", "--help"}},
	{"help/find", []string{"find", "--help"}},
	{"help/ls", []string{"ls", "--help"}},
	{"help/mcp", []string{"mcp", "--help"}},
	{"help/serve", []string{"serve", "--help"}},
	{"help/schema", []string{"schema", "--help"}},
	{"schema/anthropic", []string{"schema", "--format", "anthropic"}},
	{"schema/openai", []string{"schema", "--format", "openai"}},
	{"schema/mcp-typed", []string{"schema", "--typed-results"}},
}

func TestCLI(t *testing.T) {
	e := setup(t)
	type job struct {
		name string
		args []string
	}
	var jobs []job
	for _, p := range profiles {
		for _, format := range []string{"text", "json"} {
			cases := cliCases
			if p == "default" {
				cases = append(cases[:len(cases):len(cases)], defaultCases...)
			}
			for _, c := range cases {
				args := append([]string{"--profile", p, "--format", format}, c.args...)
				jobs = append(jobs, job{"cli/" + p + "/" + format + "/" + c.name, args})
			}
		}
		jobs = append(jobs, job{"cli/schema/mcp-" + p, []string{"--profile", p, "schema"}})
	}
	for _, c := range cliOnce {
		jobs = append(jobs, job{"cli/" + c.name, c.args})
	}
	// The cases are independent processes that mostly wait, so they run
	// several at a time; each is checked on its own.
	results := make([]string, len(jobs))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 8)
	for i, j := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			results[i] = e.runCLI(t, j.args)
		}()
	}
	wg.Wait()
	for i, j := range jobs {
		check(t, j.name, results[i])
	}
}

// runCLI runs the binary in the fixture and returns the case's record:
// the command line, the exit status, stdout and stderr, normalized.
func (e env) runCLI(t *testing.T, args []string) string {
	t.Helper()
	args = slices.Clone(args)
	for i, a := range args {
		args[i] = strings.NewReplacer("{fx}", e.fixture, "{root}", e.root).Replace(a)
	}
	cmd := exec.Command(e.bin, args...)
	cmd.Dir = e.fixture
	cmd.Env = e.environ()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	status := 0
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		status = exit.ExitCode()
	case err != nil:
		t.Errorf("spillway %q: %v", args, err)
	}
	var b strings.Builder
	b.WriteString("$ spillway")
	for _, a := range args {
		b.WriteString(" " + shellQuote(a))
	}
	fmt.Fprintf(&b, "\nexit status: %d\n--- stdout\n%s", status, stdout.String())
	if stderr.Len() > 0 {
		fmt.Fprintf(&b, "--- stderr\n%s", stderr.String())
	}
	return newNormalizer(e).finish(b.String(), modelTexts(stdout.String())...)
}

// modelTexts are the candidates for the text a CLI result's token count
// counts: what it printed, without its last newline, or the "text" of
// --json.
func modelTexts(stdout string) []string {
	texts := []string{stdout, strings.TrimSuffix(stdout, "\n")}
	var v struct {
		Text *string `json:"text"`
	}
	if json.Unmarshal([]byte(stdout), &v) == nil && v.Text != nil {
		texts = append(texts, *v.Text)
	}
	return texts
}

func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:*") == "" {
		return s
	}
	return strconv.Quote(s)
}
