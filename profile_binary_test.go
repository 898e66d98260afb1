package spillway_test

import (
	"os"
	"strings"
	"testing"

	"github.com/spillway-dev/spillway"
)

// Under macos-shell a NUL in the first 1000 characters of a stream makes
// it binary, as the design's isBinaryOutput says ("nullBytes > 0"); every
// other profile keeps spillway's rule, for which a few stray NULs are
// dropped from text. Both streams follow the profile's rule.
func TestProfileMacosShellNULIsBinary(t *testing.T) {
	const in = "text\x00with\x00null\x00bytes"
	for _, c := range []struct {
		profile string
		binary  bool
	}{{"macos-shell", true}, {"default", false}, {"pipe", false}} {
		t.Run(c.profile, func(t *testing.T) {
			ts, dir := profileToolset(t, c.profile)
			if err := os.WriteFile(dir+"/in.dat", []byte(in), 0o644); err != nil {
				t.Fatal(err)
			}
			r := bashRun(t, ts, spillway.BashInput{Command: "cat in.dat; cat in.dat >&2"})
			for name, s := range map[string]struct {
				content string
				d       spillway.StreamDetails
			}{"stdout": {r.Content, r.Details.Stdout}, "stderr": {r.Details.Stderr.Shown, r.Details.Stderr}} {
				if s.d.Binary != c.binary {
					t.Errorf("%s: binary %v, want %v", name, s.d.Binary, c.binary)
				}
				if c.binary {
					if s.content != "" || !strings.Contains(r.Text, "binary output: 20 bytes. Full output: "+s.d.FullOutputPath) {
						t.Errorf("%s: content %q, text %q", name, s.content, r.Text)
					}
					if b, err := os.ReadFile(s.d.FullOutputPath); err != nil || string(b) != in {
						t.Errorf("%s: spill file %q holds %q (%v), want the raw bytes", name, s.d.FullOutputPath, b, err)
					}
				} else if s.content != "textwithnullbytes" {
					t.Errorf("%s: content %q, want the text without its NULs", name, s.content)
				}
			}
		})
	}
}
