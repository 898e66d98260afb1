package spillway_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// A script under pipefail and set -e that assigns the output of a
// pipeline ending in head fails when the command before head writes
// more than head reads: it dies of SIGPIPE (141), and the pipeline's
// status is that. Each bench script reads its pipelines to the end.
func TestBenchScriptsSurviveSIGPIPE(t *testing.T) {
	scripts, _ := filepath.Glob("bench/*.sh")
	cut := regexp.MustCompile(`^\s*\w+=\$\(.*\|\s*head\b`)
	n := 0
	for _, s := range scripts {
		data, err := os.ReadFile(s)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(data), "pipefail") {
			continue
		}
		n++
		for i, line := range strings.Split(string(data), "\n") {
			if cut.MatchString(line) {
				t.Errorf("%s:%d: %s: head closes the pipe early, and pipefail makes the SIGPIPE (141) the assignment's failure", s, i+1, strings.TrimSpace(line))
			}
		}
	}
	if n == 0 {
		t.Fatal("no bench script under pipefail")
	}
}
