package spillway_test

import (
	"context"
	"strings"
	"testing"

	"github.com/spillway-dev/spillway"
	"github.com/spillway-dev/spillway/internal/testfs"
)

// TestAttackHistoryOnAFullDisk: on a full disk the result said "Full
// output could not be saved", but history then called the partial spill
// file "full output".
func TestAttackHistoryOnAFullDisk(t *testing.T) {
	dir := testfs.Small(t, "64k")
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
