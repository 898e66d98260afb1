//go:build unix

package main

import (
	"flag"
	"fmt"
	"os"
	"strings"
)

// summary, when set, is a file each figure is added to as a
// tab-separated row — scenario, figure, value, target, ok or MISS, load
// average — so that bench/fleet.sh -scenario node can print the figures of
// several runs as one table.
var summary = flag.String("summary", "", "a file to add each figure to, a tab-separated row (bench/fleet.sh -scenario node prints them as a table)")

// record adds a figure to the summary file, if any. target "" is a figure
// with no target.
func record(scenario, figure, value, target string, ok bool) {
	if *summary == "" {
		return
	}
	mark := "ok"
	switch {
	case target == "":
		mark, target = "-", "-"
	case !ok:
		mark = "MISS"
	}
	f, err := os.OpenFile(*summary, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	defer f.Close()
	row := []string{scenario, figure, value, target, mark, loadavg()}
	for i, c := range row {
		row[i] = strings.ReplaceAll(c, "\t", " ")
	}
	fmt.Fprintln(f, strings.Join(row, "\t"))
}
