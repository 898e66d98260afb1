package output

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// unusedButAPI are exported names no other package of the module names,
// kept because a caller of what they do needs them.
var unusedButAPI = []string{
	"ErrClosed",           // what Write returns after Close: errors.Is needs it
	"Failure",             // the element type FailureSection returns
	"BinaryMostlyNonText", // the zero BinaryRule, named for Options.Binary
	"EstimateTokens",      // the estimate the root's docs define max_tokens by
	"IsFailureLine",       // what the root's docs define a failure line by
}

// The package's exported surface is what the module's other packages call:
// a helper exported and used only here is a second way to reach the same
// thing, and a name nothing outside needs is one the package cannot change.
func TestExportedNamesAreCalledOutside(t *testing.T) {
	exported := map[string]bool{}
	fset := token.NewFileSet()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil && d.Name.IsExported() {
					exported[d.Name.Name] = true
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						if s.Name.IsExported() {
							exported[s.Name.Name] = true
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							if n.IsExported() {
								exported[n.Name] = true
							}
						}
					}
				}
			}
		}
	}
	if len(exported) < 10 {
		t.Fatalf("%d exported names: the parse missed the package", len(exported))
	}
	used := map[string]bool{}
	err = filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); n == "testdata" || n == "node_modules" || strings.HasPrefix(n, ".") && path != ".." || path == "." {
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
		local := ""
		for _, imp := range f.Imports {
			if imp.Path.Value == `"github.com/spillway-dev/spillway/output"` {
				local = "output"
				if imp.Name != nil {
					local = imp.Name.Name
				}
			}
		}
		if local == "" {
			return nil
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok && id.Name == local {
					used[sel.Sel.Name] = true
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for name := range exported {
		if !used[name] && !slices.Contains(unusedButAPI, name) {
			t.Errorf("output.%s is exported but no other package calls it: unexport it", name)
		}
	}
	for _, name := range unusedButAPI {
		if used[name] {
			t.Errorf("output.%s is called outside now: take it off unusedButAPI", name)
		}
	}
}
