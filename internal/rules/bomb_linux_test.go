package rules

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Rules files built to exhaust the server: each is an import failure
// that names the file, answered well within ChildTime, and the memory
// goes to the evaluator, never to this process.
func TestCodexBombs(t *testing.T) {
	bombs := map[string]struct{ src, want string }{
		"memory":     {"a = \"a\" * (1 << 28)\nb = a + a\nc = b + b\n", "memory"},
		"replace":    {"s = \"ab\" * 100000\ndef f():\n  for i in range(100000000):\n    x = s.replace(\"a\", \"bb\")\nf()\n", "stopped"},
		"split":      {"s = \"a \" * 1000000\ndef f():\n  for i in range(100000000):\n    x = s.split(\" \")\nf()\n", "stopped"},
		"fstring":    {"x = 1\nprefix_rule(pattern=[f\"git{x}\"])\n", "a.rules:2"},
		"annotation": {"def f(x: str) -> str:\n  return x\nprefix_rule(pattern=[f(\"git\")])\n", "a.rules:1"},
	}
	for name, b := range bombs {
		t.Run(name, func(t *testing.T) {
			home := t.TempDir()
			writeFile(t, filepath.Join(home, ".codex", "rules", "a.rules"), b.src)
			writeFile(t, filepath.Join(home, ".codex", "rules", "b.rules"), `prefix_rule(pattern=["rm"], decision="forbidden")`)
			var before syscall.Rusage
			syscall.Getrusage(syscall.RUSAGE_SELF, &before)
			start := time.Now()
			im := Import([]string{"codex"}, Places{Home: home})
			took := time.Since(start)
			var after syscall.Rusage
			syscall.Getrusage(syscall.RUSAGE_SELF, &after)
			if len(im.Failures) != 1 || !strings.Contains(im.Failures[0].Error(), "~/.codex/rules/a.rules") || !strings.Contains(im.Failures[0].Error(), b.want) {
				t.Fatalf("failures: %v", im.Failures)
			}
			set := &Set{Rules: im.Rules}
			if d := set.Check("rm x").Decision; d != Deny {
				t.Errorf("the next file's rule: %s", d)
			}
			if d := set.Check("ls").Decision; d != Ask {
				t.Errorf("ls under the failure: %s", d)
			}
			// ru_maxrss is in kilobytes on Linux.
			if grew := after.Maxrss - before.Maxrss; grew > 100<<10 {
				t.Errorf("this process grew by %d KB", grew)
			}
			t.Logf("%s: %v, %s", name, took.Round(time.Millisecond), im.Failures[0])
		})
	}
}
