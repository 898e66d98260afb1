package spillway

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

// server.json is the entry of the MCP registry (docs/install.md): it must
// be valid under the schema the registry publishes, kept in
// testdata/mcp-registry with its source, and name the npm package that
// npm/ builds, with the arguments that start the server.

// registrySchema returns the registry's schema, resolved for validation.
func registrySchema(t *testing.T) *jsonschema.Resolved {
	t.Helper()
	var s jsonschema.Schema
	readJSON(t, "testdata/mcp-registry/server.schema.json", &s)
	rs, err := s.Resolve(nil)
	if err != nil {
		t.Fatalf("resolving the registry's schema: %v", err)
	}
	return rs
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func TestServerJSON(t *testing.T) {
	rs := registrySchema(t)
	var entry map[string]any
	readJSON(t, "server.json", &entry)
	if err := rs.Validate(entry); err != nil {
		t.Fatalf("server.json is not valid under the registry's schema: %v", err)
	}
	if got, want := entry["$schema"], rs.Schema().ID; got != want {
		t.Errorf("server.json names the schema %v; the one kept in testdata is %v", got, want)
	}

	// The same entry as the registry reads it, field by field.
	var server struct {
		Name     string
		Version  string
		Packages []struct {
			RegistryType     string
			Identifier       string
			Version          string
			Transport        struct{ Type string }
			PackageArguments []struct {
				Type  string
				Value string
			}
		}
	}
	readJSON(t, "server.json", &server)
	var pkg struct {
		Name    string
		MCPName string `json:"mcpName"`
		Bin     map[string]string
	}
	readJSON(t, "npm/spillway/package.json", &pkg)

	if len(server.Packages) != 1 {
		t.Fatalf("server.json lists %d packages, want the npm package alone", len(server.Packages))
	}
	p := server.Packages[0]
	if p.RegistryType != "npm" || p.Identifier != pkg.Name {
		t.Errorf("server.json's package is %s %q; npm/ builds %q", p.RegistryType, p.Identifier, pkg.Name)
	}
	// The registry proves ownership of an npm package by its mcpName.
	if pkg.MCPName != server.Name {
		t.Errorf("npm/spillway/package.json has mcpName %q, want the registry name %q", pkg.MCPName, server.Name)
	}
	if p.Version != server.Version {
		t.Errorf("the npm package's version %q differs from the entry's %q: publish them together", p.Version, server.Version)
	}
	if p.Transport.Type != "stdio" {
		t.Errorf("transport %q, want stdio", p.Transport.Type)
	}
	var args []string
	for _, a := range p.PackageArguments {
		if a.Type != "positional" {
			t.Errorf("package argument of type %q: the binary takes the subcommand as a positional argument", a.Type)
		}
		args = append(args, a.Value)
	}
	if strings.Join(args, " ") != "mcp" {
		t.Errorf("package arguments %q, want the subcommand that serves stdio, mcp", args)
	}
	if pkg.Bin["spillway"] == "" {
		t.Errorf("npm/spillway/package.json has no spillway bin: npx would not know what to run")
	}
}

// The validator must refuse entries the registry refuses; otherwise a pass
// above says nothing.
func TestServerJSONSchemaRefuses(t *testing.T) {
	rs := registrySchema(t)
	for name, change := range map[string]func(e map[string]any){
		"no name":              func(e map[string]any) { delete(e, "name") },
		"name without slash":   func(e map[string]any) { e["name"] = "spillway" },
		"description too long": func(e map[string]any) { e["description"] = strings.Repeat("x", 101) },
		"package version latest": func(e map[string]any) {
			e["packages"].([]any)[0].(map[string]any)["version"] = "latest"
		},
		"unknown transport": func(e map[string]any) {
			e["packages"].([]any)[0].(map[string]any)["transport"] = map[string]any{"type": "pipe"}
		},
		"positional argument without value": func(e map[string]any) {
			e["packages"].([]any)[0].(map[string]any)["packageArguments"] = []any{map[string]any{"type": "positional"}}
		},
	} {
		t.Run(name, func(t *testing.T) {
			var entry map[string]any
			readJSON(t, "server.json", &entry)
			change(entry)
			if err := rs.Validate(entry); err == nil {
				t.Error("the schema accepted it")
			}
		})
	}
}
