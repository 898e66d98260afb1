package ops

import (
	"os"
	"regexp"
	"runtime"
	"slices"
	"testing"
	"time"
)

// docs/operations.md names every metric served, and serves every metric
// it names.
func TestMetricsDocumented(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the process's metrics from /proc are on Linux only")
	}
	doc, err := os.ReadFile("../../docs/operations.md")
	if err != nil {
		t.Fatal(err)
	}
	var named []string
	for _, m := range regexp.MustCompile("`((?:spillway|go|process)_[a-z_]+)`").FindAllSubmatch(doc, -1) {
		named = append(named, string(m[1]))
	}
	m := testMetrics()
	m.Call(Call{Tool: "ls", Duration: time.Millisecond})
	var served []string
	for name := range parse(t, scrape(t, m)) {
		served = append(served, name)
	}
	for _, name := range named {
		if !slices.Contains(served, name) {
			t.Errorf("docs/operations.md names %s, which is not served", name)
		}
	}
	for _, name := range served {
		if !slices.Contains(named, name) {
			t.Errorf("%s is served but not in docs/operations.md", name)
		}
	}
}
