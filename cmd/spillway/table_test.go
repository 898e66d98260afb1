package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"github.com/spillway-dev/spillway"
	"github.com/spillway-dev/spillway/internal/config"
	"github.com/spillway-dev/spillway/internal/registry"
	"github.com/spillway-dev/spillway/schema"
)

// Every surface of a tool is made from the tools table, and this test
// fails when one drifts from it: each parameter appears in the MCP input
// schema, as a CLI argument or flag, and under its config key, with the
// same default and bounds, and nothing appears there that the table lacks.
// (docs/tools.md is checked whole by the root package's TestToolsDoc, and
// the Go inputs by TestToolsTableMatchesTheGoInputs.)
func TestSurfacesMatchTheTable(t *testing.T) {
	pi, err := spillway.Profile("pi")
	if err != nil {
		t.Fatal(err)
	}
	odd := spillway.DefaultPolicy()
	odd.Read.MaxLines, odd.Grep.Limit, odd.Timeout, odd.Bash.Stdout.MaxBytes = 77, 33, 4321*time.Millisecond, 999
	for name, p := range map[string]spillway.Policy{"default": spillway.DefaultPolicy(), "pi": pi, "changed": odd} {
		t.Run(name, func(t *testing.T) {
			checkMCP(t, p)
			checkCLI(t, p)
		})
	}
	checkConfigKeys(t)
}

func checkMCP(t *testing.T, p spillway.Policy) {
	defs := schema.Tools(p)
	if len(defs) != len(registry.Tools()) {
		t.Fatalf("MCP lists %d tools, the table %d", len(defs), len(registry.Tools()))
	}
	for i, tool := range registry.Tools() {
		raw, err := json.Marshal(defs[i].InputSchema)
		if err != nil {
			t.Fatal(err)
		}
		var schema struct {
			Properties map[string]map[string]any `json:"properties"`
			Required   []string                  `json:"required"`
			Additional *bool                     `json:"additionalProperties"`
		}
		if err := json.Unmarshal(raw, &schema); err != nil {
			t.Fatal(err)
		}
		if defs[i].Name != tool.Name || schema.Additional == nil || *schema.Additional {
			t.Errorf("MCP tool %d is %s (closed %v), the table's %s", i, defs[i].Name, schema.Additional, tool.Name)
		}
		var names, required []string
		for _, prm := range tool.Params {
			names = append(names, prm.Name)
			if prm.Required {
				required = append(required, prm.Name)
			}
			s, ok := schema.Properties[prm.Name]
			if !ok {
				t.Errorf("MCP %s lacks %s", tool.Name, prm.Name)
				continue
			}
			wantType := map[registry.ParamType]string{registry.String: "string", registry.Int: "integer", registry.Millis: "integer",
				registry.Bool: "boolean", registry.StringList: "array", registry.StringMap: "object", registry.ObjectList: "array"}[prm.Type]
			if s["type"] != wantType {
				t.Errorf("MCP %s.%s: type %v, want %s", tool.Name, prm.Name, s["type"], wantType)
			}
			if _, ok := s["default"]; ok {
				t.Errorf("MCP %s.%s has a default: a client would apply it over the policy", tool.Name, prm.Name)
			}
			desc, _ := s["description"].(string)
			if prm.Default != nil && !strings.Contains(desc, fmt.Sprintf("Default: %v.", prm.Default(p))) {
				t.Errorf("MCP %s.%s: %q does not state the default %v", tool.Name, prm.Name, desc, prm.Default(p))
			}
			if prm.Type == registry.Int || prm.Type == registry.Millis {
				if s["minimum"] != float64(prm.Min) {
					t.Errorf("MCP %s.%s: minimum %v, want %d", tool.Name, prm.Name, s["minimum"], prm.Min)
				}
				if max, ok := s["maximum"]; ok != (prm.Max != 0) || ok && max != float64(prm.Max) {
					t.Errorf("MCP %s.%s: maximum %v, want %d", tool.Name, prm.Name, max, prm.Max)
				}
				if prm.Ceiling != 0 && !strings.Contains(desc, fmt.Sprintf("At most %d.", prm.Ceiling)) {
					t.Errorf("MCP %s.%s: %q does not state the ceiling %d", tool.Name, prm.Name, desc, prm.Ceiling)
				}
			}
			if enum, _ := json.Marshal(s["enum"]); len(prm.Enum) > 0 && string(enum) != mustJSON(prm.Enum) {
				t.Errorf("MCP %s.%s: enum %s, want %v", tool.Name, prm.Name, enum, prm.Enum)
			}
		}
		for name := range schema.Properties {
			if !slices.Contains(names, name) {
				t.Errorf("MCP %s has %s, which the table lacks", tool.Name, name)
			}
		}
		if !slices.Equal(schema.Required, required) {
			t.Errorf("MCP %s requires %v, the table %v", tool.Name, schema.Required, required)
		}
	}
}

func checkCLI(t *testing.T, p spillway.Policy) {
	root := newRootCmd()
	for _, tool := range registry.Tools() {
		if tool.MCPOnly {
			// Its hidden command only says what to do instead.
			if cmd, _, err := root.Find([]string{tool.Name}); err == nil && cmd != root && (!cmd.Hidden || cmd.RunE(cmd, nil) == nil) {
				t.Errorf("%s is MCP only, yet a CLI command", tool.Name)
			}
			continue
		}
		cmd, _, err := root.Find([]string{tool.Name})
		if err != nil || cmd.Name() != tool.Name {
			t.Errorf("no CLI command %s: %v", tool.Name, err)
			continue
		}
		setDefaults(cmd, tool, p)
		var flags, args []string
		for _, prm := range tool.Params {
			if prm.Positional {
				args = append(args, strings.ToUpper(prm.Name))
				continue
			}
			flags = append(flags, flagName(prm))
			f := cmd.Flags().Lookup(flagName(prm))
			if f == nil {
				t.Errorf("CLI %s lacks --%s", tool.Name, flagName(prm))
				continue
			}
			if prm.Default != nil && f.DefValue != fmt.Sprint(prm.Default(p)) {
				t.Errorf("CLI %s --%s: default %q, want %v", tool.Name, f.Name, f.DefValue, prm.Default(p))
			}
			if b := prm.Bounds(); !strings.Contains(f.Usage, b) {
				t.Errorf("CLI %s --%s: %q does not state the bounds %q", tool.Name, f.Name, f.Usage, b)
			}
			if f.Shorthand != prm.Short {
				t.Errorf("CLI %s --%s: shorthand %q, want %q", tool.Name, f.Name, f.Shorthand, prm.Short)
			}
		}
		cmd.LocalFlags().VisitAll(func(f *pflag.Flag) {
			if f.Name != "help" && !slices.Contains(flags, f.Name) {
				t.Errorf("CLI %s has --%s, which the table lacks", tool.Name, f.Name)
			}
		})
		if got := strings.Fields(cmd.Use)[1:]; !slices.Equal(unbracket(got), args) {
			t.Errorf("CLI %s takes %v, the table %v", tool.Name, got, args)
		}
	}
}

func unbracket(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = strings.Trim(a, "[]")
	}
	return out
}

// checkConfigKeys sets each parameter's config key in a file and checks
// that the default the table states follows it.
func checkConfigKeys(t *testing.T) {
	for _, tool := range registry.Tools() {
		for _, prm := range tool.Params {
			if prm.Config == "" {
				continue
			}
			def := spillway.DefaultPolicy()
			v, ok := prm.Default(def).(int)
			if prm.Default(def) == "none" {
				// A limit the policy does not set (max_tokens).
				v, ok = 0, true
			}
			if !ok {
				t.Errorf("%s.%s: config key %s for a default that is not an integer", tool.Name, prm.Name, prm.Config)
				continue
			}
			want := v + 7
			file := filepath.Join(t.TempDir(), "c.toml")
			dot := strings.LastIndexByte(prm.Config, '.')
			doc := fmt.Sprintf("%s = %d\n", prm.Config, want)
			if dot > 0 {
				doc = fmt.Sprintf("[%s]\n%s = %d\n", prm.Config[:dot], prm.Config[dot+1:], want)
			}
			if err := os.WriteFile(file, []byte(doc), 0o644); err != nil {
				t.Fatal(err)
			}
			p, err := config.Load(config.Sources{ConfigPath: file})
			if err != nil {
				t.Errorf("%s.%s: config key %s: %v", tool.Name, prm.Name, prm.Config, err)
				continue
			}
			if got := prm.Default(p); got != want {
				t.Errorf("%s.%s: with %s = %d the default is %v", tool.Name, prm.Name, prm.Config, want, got)
			}
		}
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
