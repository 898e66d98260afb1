package spillway

import (
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"testing"

	"github.com/spillway-dev/spillway/internal/registry"
)

var update = flag.Bool("update", false, "rewrite docs/tools.md from the tools table, and the README's config example from spillway.Policy")

// docs/tools.md is generated from the tools table; this test fails when it
// is stale, and -update rewrites it.
func TestToolsDoc(t *testing.T) {
	want := registry.Doc(registry.Tools(), DefaultPolicy().WithinBudget()) // the limits the tools apply
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
// The other docs and the README are held to the same.
func TestToolsDocNamesMethodsThatExist(t *testing.T) {
	docs, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	ts := reflect.TypeFor[*Toolset]()
	for _, name := range append(docs, "README.md") {
		doc, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		named := regexp.MustCompile(`Toolset\.([A-Za-z_]\w*)`).FindAllSubmatch(doc, -1)
		if len(named) == 0 && name == "docs/tools.md" {
			t.Fatal("docs/tools.md names no Toolset method")
		}
		for _, m := range named {
			if _, ok := ts.MethodByName(string(m[1])); !ok {
				t.Errorf("%s names Toolset.%s, which does not exist", name, m[1])
			}
		}
	}
}
