package spillway

import (
	"flag"
	"os"
	"reflect"
	"regexp"
	"testing"

	"github.com/spillway-dev/spillway/internal/registry"
)

var update = flag.Bool("update", false, "rewrite docs/tools.md from the tools table, and the README's config example from spillway.Policy")

// docs/tools.md is generated from the tools table; this test fails when it
// is stale, and -update rewrites it.
func TestToolsDoc(t *testing.T) {
	want := registry.Doc(registry.Tools(), DefaultPolicy())
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

// Every Toolset method that docs/tools.md names exists: the names come from
// the handlers the tools table binds, not from words written beside them.
func TestToolsDocNamesMethodsThatExist(t *testing.T) {
	doc, err := os.ReadFile("docs/tools.md")
	if err != nil {
		t.Fatal(err)
	}
	named := regexp.MustCompile(`Toolset\.([A-Za-z_]\w*)`).FindAllSubmatch(doc, -1)
	if len(named) == 0 {
		t.Fatal("docs/tools.md names no Toolset method")
	}
	ts := reflect.TypeFor[*Toolset]()
	for _, m := range named {
		if _, ok := ts.MethodByName(string(m[1])); !ok {
			t.Errorf("docs/tools.md names Toolset.%s, which does not exist", m[1])
		}
	}
}
