package spillway

import (
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
)

// docs/architecture.md's imports block is what `go list` says today: each
// package of the module (bench, e2e and npm aside) and the packages of
// the module it imports. A package or an import added without the block
// regenerated (-update) fails here, so the arrows never tell of code
// that has moved.
func TestArchitectureImports(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the block is Linux's imports; a platform's own files import others")
	}
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}}:{{range .Imports}} {{.}}{{end}}", "./...").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	const module = "github.com/spillway-dev/spillway"
	var b strings.Builder
	b.WriteString("```\n")
	for line := range strings.SplitSeq(strings.TrimSpace(string(out)), "\n") {
		pkg, imports, _ := strings.Cut(line, ":")
		pkg = strings.TrimPrefix(strings.TrimPrefix(pkg, module), "/")
		if pkg == "" {
			pkg = "spillway"
		}
		if strings.HasPrefix(pkg, "bench") || strings.HasPrefix(pkg, "e2e") || strings.HasPrefix(pkg, "npm") || strings.HasPrefix(pkg, "deploy") {
			continue
		}
		var ours []string
		for _, imp := range strings.Fields(imports) {
			if imp == module {
				ours = append(ours, "spillway")
			} else if rest, ok := strings.CutPrefix(imp, module+"/"); ok {
				ours = append(ours, rest)
			}
		}
		if len(ours) == 0 {
			b.WriteString(pkg + "\n")
			continue
		}
		b.WriteString(pkg + " → " + strings.Join(ours, ", ") + "\n")
	}
	b.WriteString("```\n")
	want := b.String()

	const path, begin, end = "docs/architecture.md", "<!-- imports: begin -->\n", "<!-- imports: end -->"
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	before, rest, ok1 := strings.Cut(string(doc), begin)
	got, after, ok2 := strings.Cut(rest, end)
	if !ok1 || !ok2 {
		t.Fatalf("%s has no %q … %q block", path, begin, end)
	}
	if got == want {
		return
	}
	if *update {
		if err := os.WriteFile(path, []byte(before+begin+want+end+after), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s's imports are stale: run `go test . -run TestArchitectureImports -update` and commit it. Want:\n%s", path, want)
}
