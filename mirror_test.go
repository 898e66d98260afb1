package spillway_test

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A struct of an engine (internal/…) that has the fields of an API struct
// under the same names, or the same fields renamed, is a second copy of
// one idea: a converter sits between the two, and a field added to one is
// missed in the other. An engine takes the API's values (or a small
// interface they satisfy) instead.
//
// S mirrors R when they share at least three field names and those are at
// least two thirds of the smaller struct's fields (by name), or when both
// have at least three fields of the same types, taken as a multiset (the
// same fields renamed). Field types are compared as written, without their
// package.
//
// The API's structs are the root's and those of the tool package, which
// the root shows under the same names (spillway.BashInput is
// tool.BashInput): both are named as the API shows them.
//
// knownMirrors are those that remain; each is a debt. A mirror not listed
// fails, and so does a listed one that is gone (take it off the list).
var knownMirrors = []string{
	// The audit log's hashes of a change: three strings, like
	// WriteInput's, but not a copy of it; the API value it stands for is
	// tool.FileChange, whose other fields the audit record leaves out.
	"internal/ops.FileHashes ~ WriteInput",
	// The console's answer to a question: the choice, the channel and the
	// hash of the project's rule files as they were shown; three strings
	// like WriteInput's by coincidence, standing for no API value.
	"internal/console.Answer ~ WriteInput",
}

func TestNoEngineStructMirrorsTheAPI(t *testing.T) {
	api := append(structsIn(t, ".", false), structsIn(t, "tool", false)...)
	var engines []structFields
	err := filepath.WalkDir("internal", func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if d.Name() == "testdata" {
			return filepath.SkipDir
		}
		engines = append(engines, structsIn(t, path, true)...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(api) < 20 || len(engines) < 20 {
		t.Fatalf("%d API structs and %d engine structs: the walk missed the packages", len(api), len(engines))
	}
	var found []string
	for _, s := range engines {
		for _, r := range api {
			if why := mirrors(s, r); why != "" {
				pair := s.name + " ~ " + r.name
				found = append(found, pair)
				if !slices.Contains(knownMirrors, pair) {
					t.Errorf("%s mirrors the API's %s (%s): take the API's value instead", s.name, r.name, why)
				}
			}
		}
	}
	for _, pair := range knownMirrors {
		if !slices.Contains(found, pair) {
			t.Errorf("%s is no longer a mirror: take it off knownMirrors", pair)
		}
	}
	t.Logf("%d mirrors remain", len(found))
}

// mirrors says why s has the fields of r, "" when it does not.
func mirrors(s, r structFields) string {
	var shared []string
	for _, f := range s.fields {
		if slices.ContainsFunc(r.fields, func(g field) bool { return g.name == f.name }) {
			shared = append(shared, f.name)
		}
	}
	if smaller := min(len(s.fields), len(r.fields)); len(shared) >= 3 && 3*len(shared) >= 2*smaller {
		return "the fields " + strings.Join(shared, ", ")
	}
	if len(s.fields) >= 3 && len(s.fields) == len(r.fields) && slices.Equal(s.types(), r.types()) {
		return "the same types: " + strings.Join(s.types(), ", ")
	}
	return ""
}

type field struct{ name, typ string }

type structFields struct {
	name   string // internal/search.Query, or BashInput in the root or in tool
	fields []field
}

// types lists the fields' types, sorted.
func (s structFields) types() []string {
	var ts []string
	for _, f := range s.fields {
		ts = append(ts, f.typ)
	}
	slices.Sort(ts)
	return ts
}

// structsIn lists the struct types declared in the non-test files of the
// package in dir: all of them, or only the exported ones.
func structsIn(t *testing.T, dir string, unexported bool) []structFields {
	t.Helper()
	fset := token.NewFileSet()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var out []structFields
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(file, func(n ast.Node) bool {
			spec, ok := n.(*ast.TypeSpec)
			if !ok {
				return true
			}
			st, ok := spec.Type.(*ast.StructType)
			if !ok || !unexported && !spec.Name.IsExported() {
				return true
			}
			s := structFields{name: spec.Name.Name}
			if dir != "." && dir != "tool" {
				s.name = filepath.ToSlash(dir) + "." + s.name
			}
			for _, f := range st.Fields.List {
				typ := typeString(fset, f.Type)
				if len(f.Names) == 0 {
					s.fields = append(s.fields, field{typ, typ})
				}
				for _, n := range f.Names {
					s.fields = append(s.fields, field{n.Name, typ})
				}
			}
			out = append(out, s)
			return true
		})
	}
	return out
}

// typeString is a type as written, without the packages it names:
// shell.Totals and Totals are one type to this test.
func typeString(fset *token.FileSet, expr ast.Expr) string {
	var b bytes.Buffer
	if err := printer.Fprint(&b, fset, expr); err != nil {
		return fmt.Sprint(expr)
	}
	s := b.String()
	for {
		i := strings.IndexByte(s, '.')
		if i < 0 {
			return s
		}
		j := i
		for j > 0 && (isIdent(s[j-1])) {
			j--
		}
		s = s[:j] + s[i+1:]
	}
}

func isIdent(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
