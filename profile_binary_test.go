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

// Binary by region: under the default profile, 300 bytes of binary
// between lines of text no longer hide the text: the lines before and
// after show, the binary run is one notice line, and binary_bytes gives
// its size. Every seed profile keeps its seed's rule (the stream judged
// whole from its start, here binary).
func TestBinaryByRegionDefaultProfile(t *testing.T) {
	blob := make([]byte, 300)
	for i := range blob {
		blob[i] = byte(i*7+1) ^ byte(i>>3)
	}
	blob[0] = 0x01
	in := "start\nsecond line\n" + string(blob) + "\nend\nlast line\n"
	for _, profile := range []string{"default", "pi", "zdx", "opencode", "macos-shell", "pipe"} {
		t.Run(profile, func(t *testing.T) {
			ts, dir := profileToolset(t, profile)
			if err := os.WriteFile(dir+"/in.dat", []byte(in), 0o644); err != nil {
				t.Fatal(err)
			}
			r := bashRun(t, ts, spillway.BashInput{Command: "cat in.dat"})
			d := r.Details.Stdout
			if profile != "default" {
				if !d.Binary || d.BinaryBytes != 0 || strings.Contains(r.Text, "start") {
					t.Errorf("%s keeps its seed's rule: binary %v, binary_bytes %d, text %q", profile, d.Binary, d.BinaryBytes, r.Text)
				}
				return
			}
			want := "start\nsecond line\n[binary output: 300 bytes not shown; pipe the command through xxd to see them]\nend\nlast line\n"
			if d.Binary || d.BinaryBytes != 300 || r.Content != want {
				t.Errorf("binary %v, binary_bytes %d, content %q\nwant %q", d.Binary, d.BinaryBytes, r.Content, want)
			}
		})
	}
}
