package spillway_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/spillway-dev/spillway"
)

func TestBashHistoryLists(t *testing.T) {
	ts := bashToolset(t, spillway.Options{})
	r1 := bashRun(t, ts, spillway.BashInput{Command: "seq 1 5000"})
	r2 := bashRun(t, ts, spillway.BashInput{Command: "echo small; exit 3", Session: "s"})
	r3 := bashRun(t, ts, spillway.BashInput{Command: "printf", Args: []string{"%s", "a b"}})
	all := historyRecords(t, ts, spillway.HistoryInput{})
	if len(all) != 3 {
		t.Fatalf("history: %+v", all)
	}
	for i, r := range []spillway.Result[spillway.BashDetails]{r1, r2, r3} {
		if all[i].ID != r.Details.HistoryID || all[i].ID != i+1 {
			t.Errorf("record %d has id %d, the result said %d", i, all[i].ID, r.Details.HistoryID)
		}
	}
	h := all[0]
	if h.Command != "seq 1 5000" || h.Stdout.TotalLines != 5000 || h.Stdout.FullOutputPath != r1.Details.Stdout.FullOutputPath ||
		h.Stdout.FullOutputPath == "" || *h.ExitCode != 0 || h.Running || h.Cwd == "" {
		t.Errorf("record 1: %+v", h)
	}
	if all[1].Session != "s" || *all[1].ExitCode != 3 || all[1].Stdout.FullOutputPath != "" || all[1].Stdout.TotalBytes != 6 {
		t.Errorf("record 2: %+v", all[1])
	}
	if all[2].Command != "printf" || strings.Join(all[2].Args, "|") != "%s|a b" {
		t.Errorf("record 3: %+v", all[2])
	}
	for _, c := range []struct {
		f    spillway.HistoryInput
		want []int
	}{
		{spillway.HistoryInput{Session: "s"}, []int{2}},
		{spillway.HistoryInput{Status: "failed"}, []int{2}},
		{spillway.HistoryInput{Status: "ok"}, []int{1, 3}},
		{spillway.HistoryInput{Status: "running"}, nil},
		{spillway.HistoryInput{Limit: 2}, []int{2, 3}},
	} {
		var got []int
		for _, r := range historyRecords(t, ts, c.f) {
			got = append(got, r.ID)
		}
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%+v: %v, want %v", c.f, got, c.want)
		}
	}
}

// historyRecords lists the history that passes in.
func historyRecords(t *testing.T, ts *spillway.Toolset, in spillway.HistoryInput) []spillway.HistoryRecord {
	t.Helper()
	r, err := ts.History(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	return r.Details.Records
}
