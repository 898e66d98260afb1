package spillway_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/spillway-dev/spillway"
)

// TestAttackHistoryOnAFullDisk: on a full disk the result said "Full
// output could not be saved", but history then called the partial spill
// file "full output".
func TestAttackHistoryOnAFullDisk(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to mount a small file system")
	}
	dir := t.TempDir()
	if err := unix.Mount("tmpfs", dir, "tmpfs", 0, "size=64k"); err != nil {
		t.Skipf("cannot mount a tmpfs: %v", err)
	}
	t.Cleanup(func() { unix.Unmount(dir, unix.MNT_DETACH) })
	p := spillway.DefaultPolicy()
	p.Spill.Dir = dir
	ts := bashToolset(t, spillway.Options{Policy: &p})
	r := bashRun(t, ts, spillway.BashInput{Command: "seq 1 200000"})
	if !strings.Contains(r.Text, "Full output could not be saved: ") || strings.Contains(r.Text, ".spillway-new-") {
		t.Fatalf("the result on a full disk: %s", r.Text[max(0, len(r.Text)-400):])
	}
	h, err := ts.History(context.Background(), spillway.HistoryInput{})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(h.Text, ", full output: ") || !strings.Contains(h.Text, "full output could not be saved: ") ||
		h.Details.Records[0].Stdout.SpillError == "" {
		t.Errorf("history calls the partial file the full output:\n%s", h.Text)
	}
}
