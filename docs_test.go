package spillway

import (
	"flag"
	"os"
	"testing"

	"github.com/spillway-dev/spillway/internal/registry"
)

var update = flag.Bool("update", false, "rewrite docs/tools.md from the tools table, and the README's config example from spillway.Policy")

// docs/tools.md is generated from the tools table; this test fails when it
// is stale, and -update rewrites it.
func TestToolsDoc(t *testing.T) {
	want := registry.Doc(registry.Tools[Policy](), DefaultPolicy())
	if *update {
		if err := os.WriteFile("docs/tools.md", []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile("docs/tools.md")
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Fatal("docs/tools.md is stale: run `go test . -run TestToolsDoc -update` and commit it")
	}
}
