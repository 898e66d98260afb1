package rules

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
)

var updateDocs = flag.Bool("update-docs", false, "rewrite the variable tables of docs/rules.md from the code")

// variableDocs renders the two lists as docs/rules.md shows them,
// between its markers.
func variableDocs() (bash, programs string) {
	var a strings.Builder
	n := 0
	for _, v := range variables {
		if !v.Bash {
			continue
		}
		if n > 0 {
			if n%6 == 0 {
				a.WriteString(",\n")
			} else {
				a.WriteString(", ")
			}
		}
		name := v.Name
		if v.Prefix {
			name += "*"
		}
		fmt.Fprintf(&a, "`%s`", name)
		n++
	}
	a.WriteString(".\n")
	var b strings.Builder
	b.WriteString("| Variable | Read by | Why it is listed |\n|---|---|---|\n")
	for _, v := range variables {
		if v.Bash {
			continue
		}
		name := v.Name
		if v.Prefix {
			name += "*"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", name, v.Programs, v.Why)
	}
	return a.String(), b.String()
}

const docsPath = "../../docs/rules.md"

// TestVariableTableInDocs holds docs/rules.md's two lists to the table
// the checker uses: run with -update-docs to rewrite them.
func TestVariableTableInDocs(t *testing.T) {
	doc, err := os.ReadFile(docsPath)
	if err != nil {
		t.Fatal(err)
	}
	bash, programs := variableDocs()
	text := string(doc)
	for _, sec := range []struct{ marker, want string }{{"variables:bash", bash}, {"variables:programs", programs}} {
		open, end := "<!-- "+sec.marker+" -->\n", "<!-- /"+sec.marker+" -->"
		i, j := strings.Index(text, open), strings.Index(text, end)
		if i < 0 || j < i {
			t.Fatalf("docs/rules.md has no %s … %s section", open, end)
		}
		got := text[i+len(open) : j]
		if got != sec.want {
			if *updateDocs {
				text = text[:i+len(open)] + sec.want + text[j:]
				continue
			}
			t.Errorf("docs/rules.md's %s list differs from the code's; run go test ./internal/rules -run TestVariableTableInDocs -update-docs\ngot:\n%s\nwant:\n%s", sec.marker, got, sec.want)
		}
	}
	if *updateDocs {
		if err := os.WriteFile(docsPath, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// Every entry of either list is ask in every form of assignment, and an
// allow rule on the builtin does not lift it.
func TestListedVariablesEveryForm(t *testing.T) {
	s := setOf(t, Allow, corpusRules(t, Allow, "read *", "printf *", "mapfile *", "unset *", "wait *", "env *"))
	forms := []string{
		"%s=x ls", "%s=x", "export %s=x", "export %s", "declare %s=x", "declare -g %s=x", "typeset %s=x", "local %s=x",
		"read %s <<< x", "read -r -a %s <<< x", "mapfile %s < f", "readarray -t %s < f", "printf -v %s x",
		"for %s in x; do :; done", "wait -p %s", "coproc %s { cat; }", ": ${%s=x}", ": ${%s:=x}", "(( %s = 1 ))",
		"unset %s", "env %s=x ls", "env -u %s ls", "exec {%s}>/dev/null",
	}
	for _, v := range variables {
		name := v.Name
		if v.Prefix {
			name += "X"
		}
		if !isVarName(name) {
			continue
		}
		for _, f := range forms {
			in := fmt.Sprintf(f, name)
			if got := s.Check(in); got.Decision == Allow {
				t.Errorf("%q is allowed;%s", in, partsText(got))
			}
		}
	}
	// The same forms of a variable on neither list are allowed.
	for _, f := range forms {
		in := fmt.Sprintf(f, "myvar")
		if got := s.Check(in); got.Decision != Allow {
			t.Errorf("%q = %v;%s", in, got.Decision, partsText(got))
		}
	}
}

func isVarName(s string) bool { return syntaxName(s) }
