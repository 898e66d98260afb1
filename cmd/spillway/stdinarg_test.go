package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"
)

// apply_patch reads its patch from stdin for "-", and when no patch is
// given and stdin is not a terminal; on a terminal, no patch is bad usage.
func TestStdinArgument(t *testing.T) {
	const patch = "*** Begin Patch\n*** Add File: a.txt\n+a\n*** End Patch\n"
	const example = "spillway apply_patch - < change.patch"
	for _, c := range []struct {
		name     string
		stdin    string
		terminal bool
		args     []string
		want     string
		err      string // in the error; "" for none
		failure  bool   // exit status 1, not usage's 2
	}{
		{"argument", "ignored", false, []string{patch}, patch, "", false},
		{"dash", patch, true, []string{"-"}, patch, "", false},
		{"piped", patch, false, nil, patch, "", false},
		{"terminal", "", true, nil, "", "needs the patch, or - to read it from stdin, as in: " + example, false},
		{"empty pipe", "", false, nil, "", "read nothing from stdin", false},
		{"empty dash", "", false, []string{"-"}, "", "read nothing from stdin", false},
		{"too big", strings.Repeat("x", maxStdinArg+1), false, []string{"-"}, "", "over 16 MiB", true},
	} {
		got, err := stdinArgument("apply_patch", "the patch", example, strings.NewReader(c.stdin), c.terminal, c.args)
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: error %v, want %q", c.name, err, c.err)
		case c.err != "" && errors.As(err, new(failure)) != c.failure:
			t.Errorf("%s: %v: a failure (exit 1) is %v, want %v", c.name, err, !c.failure, c.failure)
		case c.err == "" && (len(got) != 1 || got[0] != c.want):
			t.Errorf("%s: %q, want [%q]", c.name, got, c.want)
		}
	}
	if _, err := stdinArgument("apply_patch", "the patch", example, iotest.ErrReader(errors.New("broken")), false, nil); err == nil || !errors.As(err, new(failure)) {
		t.Errorf("a stdin that fails to read: %v, want a failure", err)
	}
}

// Through the binary: a patch piped in, and one given as -, are applied;
// nothing on stdin is bad usage that says what to type.
func TestApplyPatchFromStdin(t *testing.T) {
	cli := attackCLI(t)
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		file string
	}{{[]string{"apply_patch", "-"}, "dash.txt"}, {[]string{"apply_patch"}, "piped.txt"}} {
		patch := "*** Begin Patch\n*** Add File: " + c.file + "\n+hello\n*** End Patch\n"
		r := cli.runStdinIn(t, dir, patch, c.args...)
		if r.status != 0 || !strings.Contains(r.stdout, "+hello") {
			t.Errorf("%q: status %d:\n%s%s", c.args, r.status, r.stdout, r.stderr)
		}
		if data, err := os.ReadFile(filepath.Join(dir, c.file)); err != nil || string(data) != "hello\n" {
			t.Errorf("%q: %s holds %q (%v)", c.args, c.file, data, err)
		}
	}
	if r := cli.runStdinIn(t, dir, "", "apply_patch"); r.status != 2 || !strings.Contains(r.stderr, "spillway apply_patch - < change.patch") {
		t.Errorf("nothing on stdin: status %d, want 2 with the example:\n%s", r.status, r.stderr)
	}
	if h := cli.run(t, "apply_patch", "--help").stdout; !strings.Contains(h, "as - to read it from stdin") || !strings.Contains(h, "spillway apply_patch - < change.patch") {
		t.Errorf("apply_patch --help does not say how to give the patch on stdin:\n%s", h)
	}
}
