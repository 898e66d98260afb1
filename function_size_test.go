package spillway

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// maxFunctionLines is the longest a function of the module may be,
// outside tests and bench/: a function a reader cannot hold whole is one
// that hides a second idea. CI also holds each function to a cognitive
// complexity of 30 (gocognit, in .ci/run), which this test does not
// compute.
const maxFunctionLines = 100

func TestNoFunctionOverMaxLines(t *testing.T) {
	fset := token.NewFileSet()
	var long []string
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch name := d.Name(); {
			case path == ".":
			case name == "testdata" || name == "node_modules" || name == "bench" || strings.HasPrefix(name, "."):
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			start, end := fset.Position(fn.Pos()), fset.Position(fn.End())
			if n := end.Line - start.Line + 1; n > maxFunctionLines {
				long = append(long, start.String()+": "+fn.Name.Name+" is "+strconv.Itoa(n)+" lines")
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(long) > 0 {
		t.Errorf("%d functions are over %d lines; split each by what its parts do:\n%s",
			len(long), maxFunctionLines, strings.Join(long, "\n"))
	}
}
