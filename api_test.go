package spillway_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/spillway-dev/spillway/internal/registry"
)

// go doc shows the API whole: no exported name shows a type or value of
// an internal package (in a field, a signature or a constant's value),
// which go doc would show by a name the reader cannot look up, and an
// exported alias names a type of the public tool package, whose go doc
// shows its fields (the engines take those values too).
func TestAPIShowsNoInternalName(t *testing.T) {
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, problem := range internalNames(file) {
			t.Errorf("%s: %s", fset.Position(problem.Pos()), problem)
		}
	}
}

// A problem is an exported name that shows an internal one.
type problem struct {
	ast.Node
	what string
}

func (p problem) String() string { return p.what }

// internalNames lists the exported declarations of file that show a name
// of an internal package, or are aliases of another type than the tool
// package's of the same name.
func internalNames(file *ast.File) []problem {
	internal := map[string]bool{} // the internal packages the file imports, by local name
	toolPkg := ""                 // the tool package's local name, if the file imports it
	for _, imp := range file.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		local := path[strings.LastIndex(path, "/")+1:]
		if imp.Name != nil {
			local = imp.Name.Name
		}
		switch {
		case strings.Contains(path, "/internal/"):
			internal[local] = true
		case path == "github.com/spillway-dev/spillway/tool":
			toolPkg = local
		}
	}
	// shown returns the first name of an internal package under node.
	shown := func(node ast.Node) string {
		var found string
		ast.Inspect(node, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok && found == "" {
				if x, ok := sel.X.(*ast.Ident); ok && internal[x.Name] {
					found = x.Name + "." + sel.Sel.Name
				}
			}
			return found == ""
		})
		return found
	}
	var out []problem
	add := func(node ast.Node, format string, args ...any) {
		out = append(out, problem{node, fmt.Sprintf(format, args...)})
	}
	for _, decl := range file.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if !d.Name.IsExported() || (d.Recv != nil && !exportedRecv(d.Recv)) {
				continue
			}
			if x := shown(d.Type); x != "" {
				add(d, "%s shows %s in its signature", d.Name.Name, x)
			}
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch s := spec.(type) {
				case *ast.TypeSpec:
					if !s.Name.IsExported() {
						continue
					}
					if s.Assign.IsValid() {
						if sel, ok := s.Type.(*ast.SelectorExpr); !ok || toolPkg == "" || !isIdentNamed(sel.X, toolPkg) || sel.Sel.Name != s.Name.Name {
							add(s, "type %s is an alias of another than tool.%s: go doc shows no fields of it", s.Name.Name, s.Name.Name)
						}
					}
					st, ok := s.Type.(*ast.StructType)
					if !ok {
						if x := shown(s.Type); x != "" {
							add(s, "type %s shows %s", s.Name.Name, x)
						}
						continue
					}
					for _, f := range st.Fields.List {
						if len(f.Names) > 0 && !f.Names[0].IsExported() {
							continue
						}
						if x := shown(f.Type); x != "" {
							add(f, "type %s shows %s in a field", s.Name.Name, x)
						}
					}
				case *ast.ValueSpec:
					if exported(s.Names) {
						if x := shown(s); x != "" {
							add(s, "%s shows %s", s.Names[0].Name, x)
						}
					}
				}
			}
		}
	}
	return out
}

// isIdentNamed reports whether x is the identifier name.
func isIdentNamed(x ast.Expr, name string) bool {
	id, ok := x.(*ast.Ident)
	return ok && id.Name == name
}

func exported(names []*ast.Ident) bool {
	for _, n := range names {
		if n.IsExported() {
			return true
		}
	}
	return false
}

func exportedRecv(recv *ast.FieldList) bool {
	t := recv.List[0].Type
	if star, ok := t.(*ast.StarExpr); ok {
		t = star.X
	}
	id, ok := t.(*ast.Ident)
	return ok && id.IsExported()
}

// The API is what a library user calls or fills in: go doc -short lists
// 50 lines today, of which 16 are the tools' own inputs and details (of
// each tool's own method; history's RerenderDetails counts among the
// rest). A new tool brings its input and its details, and nothing else:
// the lines beside them stay at most 38, and none of them is the table's machinery
// (the MCP server and the CLI read the tools from internal/registry and
// the schema package). A call's extras are one type and one function
// (CallInfo, WithCallInfo), never fields of an input or more context
// functions. The person's console reads two views of a session, its
// jobs as they run (JobWatch) and its open secret pages (SecretPrompt):
// a new surface, not a tool, so they count here.
func TestAPIIsSmall(t *testing.T) {
	out, err := exec.Command("go", "doc", "-short", ".").Output()
	if err != nil {
		t.Skipf("go doc: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	toolTypes := map[string]bool{}
	for _, tool := range registry.Tools() {
		toolTypes[typeName(tool.Input.String())] = true
		if tool.Name == "bash" {
			// bash's input holds check_pid and kill_pid; CheckJob and
			// KillJob, which they call, take them alone in Go.
			toolTypes["CheckJobInput"], toolTypes["KillJobInput"] = true, true
		}
		toolTypes[typeName(tool.Details().String())] = true
	}
	var others []string
	for _, l := range lines {
		if f := strings.Fields(l); len(f) > 1 && f[0] == "type" && toolTypes[f[1]] {
			continue
		}
		others = append(others, l)
	}
	// 39: ProjectTrust, what a Go asker is shown before the person
	// trusts a project's rules, is the last line added.
	if len(others) > 39 {
		t.Errorf("go doc -short lists %d lines besides the tools' %d inputs and details, want at most 39:\n%s",
			len(others), len(toolTypes), strings.Join(others, "\n"))
	}
	t.Logf("go doc -short: %d lines, %d of them the tools' inputs and details", len(lines), len(lines)-len(others))
	for _, name := range []string{"Tool", "Param", "ParamType", "Method", "String", "Int", "Run", "ParamNames",
		"LookupTool", "Tools", "SeedTools", "SeedParams", "DetailDoc", "KeyNames", "PeerTools", "PeerParams", "ToolsSummary",
		"ProfileNames", "BashProgress", "URLAsker", "WithURLAsker"} {
		for _, l := range lines {
			f := strings.Fields(strings.TrimSpace(l))
			if len(f) > 1 && strings.TrimSuffix(strings.SplitN(f[1], "(", 2)[0], "[D") == name {
				t.Errorf("the API still shows %s: %s", name, l)
			}
		}
	}
}

// typeName is a type's name without its package: spillway.ReadInput and
// tool.BashInput (which the API shows as spillway.BashInput) are
// ReadInput and BashInput.
func typeName(s string) string { return s[strings.LastIndex(s, ".")+1:] }

// Reflection is read in one place: internal/fields, which the readers of
// declarations (the registry, the config keys, the schemas) go through.
// Another package that imports reflect writes a second reader of types.
func TestOnlyFieldsImportsReflect(t *testing.T) {
	var importers []string
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		file, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, imp := range file.Imports {
			if imp.Path.Value == `"reflect"` {
				importers = append(importers, path)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range importers {
		if filepath.Dir(path) != filepath.Join("internal", "fields") {
			t.Errorf("%s imports reflect: read types through internal/fields", path)
		}
	}
	if len(importers) == 0 || len(importers) > 2 {
		t.Errorf("%d files import reflect, want 1 or 2 (internal/fields): %q", len(importers), importers)
	}
}
