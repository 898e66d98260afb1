package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Rules files built to hang or exhaust the server: a FIFO, /dev/zero, a
// settings file of 2 million deny entries, and Codex rules files that
// ask for gigabytes or spend minutes in string methods. Each is an
// import failure that names the file: the command is answered (ask)
// within 10 s, and the process's peak resident size, its evaluator
// children's included, stays under 300 MB, as /usr/bin/time measures it
// (the rusage of a child this test starts itself would carry the test
// process's own: Go starts it sharing this process's memory until exec).
func TestRulesFileBombs(t *testing.T) {
	timeBin, err := exec.LookPath("/usr/bin/time")
	if err != nil {
		t.Skip("needs /usr/bin/time to measure the peak resident size")
	}
	c := newBashCLI(t)
	var big strings.Builder
	big.WriteString(`{"permissions": {"deny": [`)
	for i := range 2_000_000 {
		if i > 0 {
			big.WriteByte(',')
		}
		fmt.Fprintf(&big, `"Bash(x%d)"`, i)
	}
	big.WriteString("]}}")
	bombs := []struct {
		name, file string
		make       func(t *testing.T, f string)
	}{
		{"fifo", ".claude/settings.json", func(t *testing.T, f string) {
			if err := syscall.Mkfifo(f, 0o644); err != nil {
				t.Fatal(err)
			}
		}},
		{"dev-zero", ".claude/settings.json", func(t *testing.T, f string) { os.Symlink("/dev/zero", f) }},
		{"2M-entries", ".claude/settings.json", func(t *testing.T, f string) { os.WriteFile(f, []byte(big.String()), 0o644) }},
		{"starlark-memory", ".codex/rules/a.rules", func(t *testing.T, f string) {
			os.WriteFile(f, []byte("a = \"a\" * (1 << 28)\nb = a + a\nc = b + b\nd = c + c\n"), 0o644)
		}},
		{"starlark-replace", ".codex/rules/a.rules", func(t *testing.T, f string) {
			os.WriteFile(f, []byte("s = \"ab\" * 100000\ndef f():\n  for i in range(100000000):\n    x = s.replace(\"a\", \"bb\")\nf()\n"), 0o644)
		}},
		{"starlark-split", ".codex/rules/a.rules", func(t *testing.T, f string) {
			os.WriteFile(f, []byte("s = \"a \" * 1000000\ndef f():\n  for i in range(100000000):\n    x = s.split(\" \")\nf()\n"), 0o644)
		}},
	}
	for _, b := range bombs {
		t.Run(b.name, func(t *testing.T) {
			home := t.TempDir()
			f := filepath.Join(home, b.file)
			os.MkdirAll(filepath.Dir(f), 0o755)
			b.make(t, f)
			cfg := filepath.Join(t.TempDir(), "c.toml")
			os.WriteFile(cfg, []byte("[rules]\nimport = [\"claude-code\", \"codex\"]\n"), 0o644)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			rssFile := filepath.Join(t.TempDir(), "rss")
			cmd := exec.CommandContext(ctx, timeBin, "-f", "%M", "-o", rssFile, c.bin, "--config", cfg, "rules", "check", "ls")
			cmd.Env = append(c.env, "HOME="+home, "CODEX_HOME=", "CLAUDE_CONFIG_DIR=", "XDG_STATE_HOME="+filepath.Join(home, "state"))
			cmd.Dir = home
			start := time.Now()
			out, err := cmd.Output()
			took := time.Since(start)
			// ask is exit status 3 (time(1) passes it on).
			if exit := new(exec.ExitError); err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 3) {
				t.Fatalf("%v\n%s", err, out)
			}
			kb, err := os.ReadFile(rssFile)
			if err != nil {
				t.Fatal(err)
			}
			// time(1) puts "Command exited with non-zero status 3" before
			// the figure.
			words := strings.Fields(string(kb))
			if len(words) == 0 {
				t.Fatalf("/usr/bin/time wrote nothing")
			}
			rss, err := strconv.Atoi(words[len(words)-1])
			if err != nil {
				t.Fatalf("/usr/bin/time wrote %q", kb)
			}
			rss >>= 10 // KB to MB
			t.Logf("%s: %v, peak RSS %d MB", b.name, took.Round(time.Millisecond), rss)
			if !strings.HasPrefix(string(out), "ask") || !strings.Contains(string(out), "~/"+b.file) {
				t.Errorf("not an import failure naming the file:\n%s", out)
			}
			if took > 10*time.Second {
				t.Errorf("answered in %v, want under 10 s", took)
			}
			if rss >= 300 {
				t.Errorf("peak RSS %d MB, want under 300", rss)
			}
		})
	}
}
