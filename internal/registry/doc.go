package registry

import (
	"fmt"
	"github.com/spillway-dev/spillway/internal/fields"
	"strings"

	"github.com/spillway-dev/spillway/output"
)

// Doc renders docs/tools.md from the tools table: each tool's
// description under the policy p (the default one), its parameters with
// their types, defaults, bounds, config keys and CLI forms, and its
// details.
func Doc(tools []Tool, p any) string {
	var b strings.Builder
	b.WriteString("# Tools\n\n")
	b.WriteString("<!-- Generated from tools.go by `go test . -run TestToolsDoc -update`. Do not edit. -->\n\n")
	b.WriteString("spillway's " + Summary(tools) + " — as a model sees them (MCP), as a Go program calls them (the\n" +
		"`Toolset` methods, whose inputs have one field per parameter, named by its json tag) and\n" +
		"as a person runs them (`spillway TOOL`, one flag per parameter in kebab case; " + strings.Join(jobTools(tools), ", ") +
		"\nare MCP only: a one-shot CLI command is a session that ends with it, so it has no jobs or\nhistory to show). Defaults\n" +
		"are those of the default profile; a config key, where one is named, changes the default\n" +
		"(docs/profiles.md gives each profile's). A value past a parameter's ceiling is held to\n" +
		"it; one outside its other bounds is refused. A call that cannot be made (bad arguments,\n" +
		"a missing file, an unknown job) is an error; what a command did is in its result.\n")
	b.WriteString("\nEvery result's details say what was left out in a truncation object:\n\n")
	for _, d := range details(fields.Of[output.Truncation]("json"), "") {
		fmt.Fprintf(&b, "- `%s`: %s\n", d.name, d.doc)
	}
	for _, t := range tools {
		fmt.Fprintf(&b, "\n## %s — %s\n\n", t.Name, t.Title)
		if t.MCPOnly {
			b.WriteString("MCP only (and `Toolset` in Go): the CLI has no `spillway " + t.Name + "` command.\n\n")
		}
		b.WriteString(t.Describe(p))
		b.WriteString("\n\n")
		b.WriteString(paramTableHeader)
		for _, prm := range t.Params {
			b.WriteString(paramRow(prm, p, !t.MCPOnly))
		}
		if t.Notes != "" {
			b.WriteString("\n" + t.Notes)
		}
		b.WriteString("\nDetails:\n\n")
		for _, d := range details(t.Details(), "") {
			if d.doc != "" {
				fmt.Fprintf(&b, "- `%s`: %s\n", d.name, d.doc)
			}
		}
	}
	return b.String()
}

// paramTableHeader heads the table of a tool's parameters.
const paramTableHeader = "| parameter | type | default | bounds | config key | CLI | meaning |\n|---|---|---|---|---|---|---|\n"

// paramRow is the row of parameter prm, with the default the policy p
// gives it.
func paramRow(prm Param, p any, onCLI bool) string {
	def := ""
	if prm.Default != nil {
		def = fmt.Sprintf("`%v`", prm.Default(p))
	}
	cfg := ""
	if prm.Config != "" {
		cfg = "`" + prm.Config + "`"
	}
	cli := "`--" + strings.ReplaceAll(prm.Name, "_", "-") + "`"
	switch {
	case !onCLI:
		cli = "—"
	case prm.SessionOnly:
		cli = "— (MCP only: it acts on an earlier call of the session)"
	case prm.Positional:
		cli = strings.ToUpper(prm.Name)
	case prm.Short != "":
		cli += ", `-" + prm.Short + "`"
	}
	doc := prm.Doc
	if prm.Required {
		doc = "Required. " + doc
	}
	return fmt.Sprintf("| `%s` | %s | %s | %s | %s | %s | %s |\n", prm.Name, prm.Type, def, prm.Bounds(), cfg, cli,
		strings.ReplaceAll(doc, "|", `\|`))
}

// A detail is a field of a details type: its JSON name, dotted under the
// object that holds it, and its doc tag.
type detail struct{ name, doc string }

// details lists the fields of a details type, and the fields of its
// objects ("stdout.truncation"); the common truncation object is described
// once.
func details(t fields.Type, prefix string) []detail {
	t, _ = t.Deref()
	var ds []detail
	for _, f := range t.Fields {
		if _, ok := f.Tag("json"); !ok {
			continue
		}
		doc, _ := f.Tag("doc")
		ds = append(ds, detail{prefix + f.Name, doc})
		ft, _ := f.Type.Deref()
		if ft.Kind == fields.Struct && f.Name != "truncation" && prefix == "" {
			ds = append(ds, details(ft, prefix+f.Name+".")...)
		}
	}
	return ds
}
