package tool_test

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The tool package sits below the API and the engines, which both import
// it: it imports only the standard library and spillway's output package,
// so that neither reaches the other through it and a library user who
// reads its go doc meets no internal name.
func TestToolImportsOnlyOutput(t *testing.T) {
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	files := 0
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		files++
		file, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range file.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			std := !strings.Contains(strings.SplitN(path, "/", 2)[0], ".")
			if !std && path != "github.com/spillway-dev/spillway/output" {
				t.Errorf("%s imports %s: tool imports only the standard library and output", name, path)
			}
		}
	}
	if files < 3 {
		t.Errorf("%d files: the glob missed the package", files)
	}
}
