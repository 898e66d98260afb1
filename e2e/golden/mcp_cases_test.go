package golden

import (
	"testing"
)

// TestMCP drives `spillway mcp` sessions: every profile as text and as
// --format json with the core script, the default profile with the full
// one, and a few sessions for what one flag or client changes.
func TestMCP(t *testing.T) {
	e := setup(t)
	for _, p := range profiles {
		for _, format := range []string{"text", "json"} {
			t.Run(p+"/"+format, func(t *testing.T) {
				t.Parallel()
				s := e.newSession(t, p+"-"+format, "golden", "--profile", p, "--format", format)
				s.script(p == "default")
			})
		}
	}
	t.Run("typed-results", func(t *testing.T) {
		t.Parallel()
		s := e.newSession(t, "typed-results", "golden", "--typed-results")
		s.script(false)
	})
	t.Run("rooted", func(t *testing.T) {
		t.Parallel()
		s := e.newSession(t, "rooted", "golden", "--root", e.fixture)
		s.call("read-inside", "read", map[string]any{"path": e.fixture + "/hello.txt"})
		s.call("err-read-outside", "read", map[string]any{"path": "/etc/hostname"})
		s.call("err-read-dotdot", "read", map[string]any{"path": "../outside.txt"})
		s.call("err-ls-outside", "ls", map[string]any{"path": "/"})
		s.call("err-grep-outside", "grep", map[string]any{"pattern": "x", "path": "/etc"})
		s.call("err-find-outside", "find", map[string]any{"pattern": "*", "path": ".."})
		s.call("err-read-symlink-out", "read", map[string]any{"path": "link.txt"})
		s.call("bash-pwd", "bash", map[string]any{"command": "pwd"})
	})
	// An MCP client's name fits results to what that client shows the
	// model (docs/mcp.md).
	for _, client := range []string{"claude-code", "codex", "gemini-cli"} {
		t.Run("client/"+client, func(t *testing.T) {
			t.Parallel()
			s := e.newSession(t, "client-"+client, client)
			s.call("bash-cut", "bash", map[string]any{"command": "seq 1 12000"})
			s.call("read-big", "read", map[string]any{"path": "big.txt"})
			s.call("grep-limit", "grep", map[string]any{"pattern": "match", "path": "matches.txt"})
		})
	}
	t.Run("macos-shell-names", func(t *testing.T) {
		t.Parallel()
		s := e.newSession(t, "macos-shell-names", "golden", "--profile", "macos-shell", "--format", "json")
		s.call("run-command", "run_command", map[string]any{"command": "seq 1 100; seq 1 50 >&2", "maxOutputLines": 5, "maxErrorLines": 3})
		s.call("run-command-full", "run_command", map[string]any{"command": "seq 1 3000", "includeFullOutput": true})
		s.call("run-command-exit", "run_command", map[string]any{"command": "echo no >&2; exit 9"})
	})
}

// script is the calls a session makes, in order: each tool, cut results,
// a named session, background jobs, history, and errors. full adds the
// variants of each (modes, parameters, more errors).
func (s *mcpSession) script(full bool) {
	t := s.t
	t.Helper()
	s.listTools()
	s.call("bash-ok", "bash", map[string]any{"command": "echo out; echo err >&2"})
	s.call("bash-exit", "bash", map[string]any{"command": "echo before; exit 3"})
	s.call("bash-cut", "bash", map[string]any{"command": "seq 1 12000"})
	s.call("bash-long-line", "bash", map[string]any{"command": "cat long.txt"})
	if full {
		s.call("bash-max-lines", "bash", map[string]any{"command": "seq 1 100", "max_lines": 10})
		s.call("bash-max-bytes-stderr", "bash", map[string]any{"command": "seq 1 3000 >&2; echo done", "max_bytes": 200})
		s.call("bash-full-output", "bash", map[string]any{"command": "seq 1 3000", "full_output": true})
		s.call("bash-args", "bash", map[string]any{"command": "printf", "args": []string{"%s|", "a b", "$HOME"}})
		s.call("bash-cwd-env", "bash", map[string]any{"command": "pwd; echo $G", "cwd": "src", "env": map[string]string{"G": "1"}})
		s.call("bash-binary", "bash", map[string]any{"command": "cat bin.dat"})
	}
	s.call("session-set", "bash", map[string]any{"command": "cd src && export GOLDEN_VAR=v1", "session": "s1"})
	s.call("session-use", "bash", map[string]any{"command": "pwd; echo $GOLDEN_VAR", "session": "s1"})

	// A background job that prints when the test tells it to, so that
	// each result sees exactly one step whatever the machine's load.
	job := s.call("job-start", "bash", map[string]any{
		"command":           s.waitFor("a0") + "; echo one; " + s.waitFor("a") + "; echo two; " + s.waitFor("b") + "; exit 4",
		"run_in_background": true,
	})
	pid := pidOf(t, job)
	s.signal("a0")
	s.call("job-check-one", "bash", map[string]any{"check_pid": pid, "timeout": 30000})
	s.signal("a")
	s.call("job-check-two", "bash", map[string]any{"check_pid": pid, "timeout": 30000})
	s.call("jobs-running", "jobs", map[string]any{})
	s.signal("b")
	// No output comes after "two", so this check returns at the end.
	s.call("job-check-exit", "bash", map[string]any{"check_pid": pid, "timeout": 30000})
	s.call("jobs-exited", "jobs", map[string]any{})

	// A job stopped with kill_pid, once its first line is out.
	kill := s.call("kill-start", "bash", map[string]any{
		"command":           s.waitFor("k") + "; echo alive; " + s.waitFor("never"),
		"run_in_background": true,
	})
	kpid := pidOf(t, kill)
	s.signal("k")
	s.call("kill-check", "bash", map[string]any{"check_pid": kpid, "timeout": 30000})
	s.call("kill", "bash", map[string]any{"kill_pid": kpid})

	// A command that reads stdin twice, answered with write_stdin: the
	// first answer returns when it waits again, the second when it ends.
	in := s.call("stdin-start", "bash", map[string]any{
		"command": "read a; echo got:$a; read b; echo got:$b",
		"stdin":   true,
	})
	ipid := pidOf(t, in)
	s.call("write-stdin", "write_stdin", map[string]any{"pid": ipid, "input": "hello\n", "timeout": 30000})
	s.call("write-stdin-close", "write_stdin", map[string]any{"pid": ipid, "input": "bye\n", "close_stdin": true, "timeout": 30000})

	if full {
		// A command that outlives its timeout moves to the background;
		// it prints nothing, so neither result depends on timing.
		slow := s.call("timeout-backgrounded", "bash", map[string]any{
			"command": s.waitFor("c") + "; exit 5",
			"timeout": 200,
		})
		spid := pidOf(t, slow)
		s.signal("c")
		s.call("timeout-check", "bash", map[string]any{"check_pid": spid, "timeout": 30000})

		s.call("tty", "bash", map[string]any{"command": "printf 'on a tty\\n'; test -t 1 && echo yes", "tty": true})
		state := "cat " + s.sync + "/state"
		s.write("state", "a\nb\nc\n")
		s.call("diff-with-first", "bash", map[string]any{"command": state, "diff_with": "last"})
		s.write("state", "a\nB\nc\nd\n")
		s.call("diff-with-last", "bash", map[string]any{"command": state, "diff_with": "last"})
	}

	s.call("history", "history", map[string]any{})
	s.call("history-entry", "history", map[string]any{"id": 1})
	s.call("history-entry-cut", "history", map[string]any{"id": 3, "max_lines": 6, "strategy": "tail"})
	if full {
		s.call("history-session", "history", map[string]any{"session": "s1"})
		s.call("history-failed", "history", map[string]any{"status": "failed", "limit": 2})
		s.call("history-entry-pattern", "history", map[string]any{"id": 3, "pattern": "^1199[0-9]$"})
		s.call("history-entry-offset", "history", map[string]any{"id": 3, "offset": 500, "max_lines": 3, "stream": "stdout"})
		s.call("history-entry-stderr", "history", map[string]any{"id": 1, "stream": "stderr"})
	}

	if full {
		// After the history lists: whether the history names the spill
		// file of a result cut by max_tokens varies from run to run.
		s.call("bash-max-tokens", "bash", map[string]any{"command": "seq 1 1000", "max_tokens": 50})
		s.call("read", "read", map[string]any{"path": "hello.txt"})
	}
	s.call("read-big", "read", map[string]any{"path": "big.txt"})
	s.call("read-window", "read", map[string]any{"path": "big.txt", "offset": 4990, "limit": 20, "line_numbers": true})
	s.call("read-long-line", "read", map[string]any{"path": "long.txt", "limit": 1})
	if full {
		s.call("read-char-offset", "read", map[string]any{"path": "long.txt", "offset": 1, "char_offset": 5990})
		s.call("read-image", "read", map[string]any{"path": "pixel.png"})
		s.call("read-utf8", "read", map[string]any{"path": "utf8.txt"})
		s.call("read-crlf", "read", map[string]any{"path": "crlf.txt"})
		s.call("read-empty", "read", map[string]any{"path": "empty.txt"})
		s.call("read-symlink", "read", map[string]any{"path": "link.txt"})
		s.call("grep", "grep", map[string]any{"pattern": "needle"})
		s.call("grep-context", "grep", map[string]any{"pattern": "NEEDLE", "ignore_case": true, "context": 1, "glob": "*.md"})
		s.call("grep-literal", "grep", map[string]any{"pattern": "Needle = \"", "literal": true})
		s.call("grep-files", "grep", map[string]any{"pattern": "needle", "output_mode": "files_with_matches"})
		s.call("grep-count", "grep", map[string]any{"pattern": "match", "output_mode": "count"})
		s.call("grep-wide-line", "grep", map[string]any{"pattern": "needle", "path": "wide.txt"})
		s.call("grep-none", "grep", map[string]any{"pattern": "no such text anywhere"})
	}
	s.call("grep-limit", "grep", map[string]any{"pattern": "match", "path": "matches.txt"})
	if full {
		s.call("find", "find", map[string]any{"pattern": "*.go"})
		s.call("find-path", "find", map[string]any{"pattern": "docs/**/*.md"})
		s.call("find-dirs", "find", map[string]any{"pattern": "**", "type": "dir"})
	}
	s.call("find-limit", "find", map[string]any{"pattern": "*.txt", "limit": 5})
	if full {
		s.call("ls", "ls", map[string]any{})
	}
	s.call("ls-limit", "ls", map[string]any{"path": "many", "limit": 3})

	s.call("err-unknown-tool", "nope", map[string]any{})
	s.call("err-bash-no-command", "bash", map[string]any{})
	s.call("err-read-missing", "read", map[string]any{"path": "missing.txt"})
	s.call("err-history-unknown-id", "history", map[string]any{"id": 999})
	if full {
		s.call("err-bash-two-modes", "bash", map[string]any{"command": "true", "kill_pid": 1})
		s.call("err-bash-bad-type", "bash", map[string]any{"command": 5})
		s.call("err-bash-unknown-param", "bash", map[string]any{"command": "true", "nope": 1})
		s.call("err-bash-max-lines-zero", "bash", map[string]any{"command": "true", "max_lines": 0})
		s.call("err-bash-bad-session", "bash", map[string]any{"command": "true", "session": "a b"})
		s.call("err-check-unknown-pid", "bash", map[string]any{"check_pid": 999999})
		s.call("err-write-stdin-unknown-pid", "write_stdin", map[string]any{"pid": 999999, "input": "x"})
		s.call("err-read-dir", "read", map[string]any{"path": "emptydir"})
		s.call("err-read-binary", "read", map[string]any{"path": "bin.dat"})
		s.call("err-read-offset-past-end", "read", map[string]any{"path": "hello.txt", "offset": 50})
		s.call("err-grep-regexp", "grep", map[string]any{"pattern": "("})
		s.call("err-find-bad-type", "find", map[string]any{"pattern": "*", "type": "pipe"})
		s.call("err-ls-missing", "ls", map[string]any{"path": "nope"})
		s.call("err-ls-file", "ls", map[string]any{"path": "hello.txt"})
		s.call("err-history-bad-status", "history", map[string]any{"status": "weird"})
		s.call("err-jobs-param", "jobs", map[string]any{"nope": true})
	}
	s.call("jobs-end", "jobs", map[string]any{})
}
