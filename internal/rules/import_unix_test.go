//go:build unix

package rules

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A rules file that is not a regular file, or too large, is an import
// failure named at once: nothing waits on it or reads it whole, and the
// import goes on.
func TestImportFailures(t *testing.T) {
	cases := map[string]func(t *testing.T, f string){
		"fifo": func(t *testing.T, f string) {
			if err := syscall.Mkfifo(f, 0o644); err != nil {
				t.Skip(err)
			}
		},
		"directory": func(t *testing.T, f string) { os.MkdirAll(f, 0o755) },
		"dangling":  func(t *testing.T, f string) { os.Symlink(filepath.Join(filepath.Dir(f), "nothing"), f) },
		"device": func(t *testing.T, f string) {
			if err := os.Symlink("/dev/zero", f); err != nil {
				t.Skip(err)
			}
		},
		"too large": func(t *testing.T, f string) {
			writeFile(t, f, `{"permissions":{"deny":["`+strings.Repeat("x", MaxRuleFileBytes)+`"]}}`)
		},
		"not json":    func(t *testing.T, f string) { writeFile(t, f, `{"permissions": {`) },
		"wrong shape": func(t *testing.T, f string) { writeFile(t, f, `{"permissions": {"allow": "Bash"}}`) },
	}
	for name, make := range cases {
		t.Run(name, func(t *testing.T) {
			home := t.TempDir()
			f := filepath.Join(home, ".claude", "settings.json")
			os.MkdirAll(filepath.Dir(f), 0o755)
			make(t, f)
			writeFile(t, filepath.Join(home, ".codex", "rules", "a.rules"), `prefix_rule(pattern=["rm"], decision="forbidden")`)
			im := Import([]string{"claude-code", "codex"}, Places{Home: home})
			if len(im.Failures) != 1 || !strings.Contains(im.Failures[0].Error(), "~/.claude/settings.json") {
				t.Fatalf("failures: %v", im.Failures)
			}
			set := &Set{Default: Allow, Rules: im.Rules}
			if d := set.Check("ls").Decision; d != Ask {
				t.Errorf("ls under an import failure: %s, want ask", d)
			}
			if d := set.Check("rm x").Decision; d != Deny {
				t.Errorf("the next file's deny rule: %s, want deny", d)
			}
			kinds := map[FileKind]bool{}
			for _, r := range im.FileRules {
				if r.Failure != "" && r.Decision == Ask && r.Pattern == "" {
					kinds[r.Kind] = true
				}
			}
			if len(kinds) != 3 {
				t.Errorf("file rules: %+v, want an ask of every kind", im.FileRules)
			}
		})
	}
}
