//go:build unix

package spillway_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spillway-dev/spillway"
)

// CallInfo.Stdin is the command's stdin, read by the command itself; the
// caller's file stays open.
func TestBashInputFile(t *testing.T) {
	ts := bashToolset(t, spillway.Options{})
	p := filepath.Join(t.TempDir(), "in")
	os.WriteFile(p, []byte("one\ntwo\n"), 0o644)
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ctx := spillway.WithCallInfo(context.Background(), spillway.CallInfo{Stdin: f})
	r, err := ts.Bash(ctx, spillway.BashInput{Command: "read a; read b; echo $b $a"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(r.Text, "two one") {
		t.Errorf("%q", r.Text)
	}
	if _, err := f.Stat(); err != nil {
		t.Errorf("the caller's file was closed: %v", err)
	}
	// Without it, stdin is /dev/null.
	if r := bashRun(t, ts, spillway.BashInput{Command: "read a; echo [$a]"}); !strings.Contains(r.Text, "[]") {
		t.Errorf("%q", r.Text)
	}
}
