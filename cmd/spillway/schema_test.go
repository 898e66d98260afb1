package main

import (
	"encoding/json"
	"github.com/spillway-dev/spillway"
	"testing"
)

func TestToolDefinitionShapes(t *testing.T) {
	tools := spillway.DefaultPolicy()
	want := []string{"bash", "write_stdin", "jobs", "read", "grep", "find", "ls", "edit", "write", "apply_patch", "history"}
	for _, tc := range []struct {
		format string
		// pick returns name, description and input schema of one entry.
		pick func(map[string]any) (string, string, map[string]any)
		list func(any) []any
	}{
		{"mcp", func(m map[string]any) (string, string, map[string]any) {
			if m["annotations"] == nil || m["outputSchema"] != nil {
				t.Errorf("mcp %v: no annotations, or an output schema without --typed-results", m["name"])
			}
			return jsonString(m["name"]), jsonString(m["description"]), jsonObject(m["inputSchema"])
		}, func(v any) []any { return jsonObject(v)["tools"].([]any) }},
		{"anthropic", func(m map[string]any) (string, string, map[string]any) {
			return jsonString(m["name"]), jsonString(m["description"]), jsonObject(m["input_schema"])
		}, func(v any) []any { return v.([]any) }},
		{"openai", func(m map[string]any) (string, string, map[string]any) {
			if m["type"] != "function" {
				t.Errorf("openai entry type %v", m["type"])
			}
			f := jsonObject(m["function"])
			return jsonString(f["name"]), jsonString(f["description"]), jsonObject(f["parameters"])
		}, func(v any) []any { return v.([]any) }},
	} {
		defs, err := toolDefinitions(tools, tc.format, false)
		if err != nil {
			t.Fatal(err)
		}
		data, err := json.Marshal(defs)
		if err != nil {
			t.Fatal(err)
		}
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			t.Fatal(err)
		}
		entries := tc.list(v)
		if len(entries) != len(want) {
			t.Fatalf("%s: %d tools, want %d", tc.format, len(entries), len(want))
		}
		for i, e := range entries {
			name, desc, schema := tc.pick(jsonObject(e))
			if name != want[i] || desc == "" || schema["type"] != "object" || schema["properties"] == nil {
				t.Errorf("%s tool %d: name %q, %d chars of description, schema %v", tc.format, i, name, len(desc), schema)
			}
		}
	}
	if _, err := toolDefinitions(tools, "gemini", false); err == nil {
		t.Error("an unknown format was accepted")
	}
}

// With typed results, each tool declares the schema of {text, details}.
func TestTypedToolDefinitions(t *testing.T) {
	defs, err := toolDefinitions(spillway.DefaultPolicy(), "mcp", true)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(defs)
	var v map[string]any
	json.Unmarshal(data, &v)
	for _, e := range v["tools"].([]any) {
		m := jsonObject(e)
		props := jsonObject(jsonObject(m["outputSchema"])["properties"])
		if props["text"] == nil || jsonObject(props["details"])["properties"] == nil {
			t.Errorf("%v: typed output schema %v, want text and details", m["name"], m["outputSchema"])
		}
	}
}

func jsonString(v any) string         { s, _ := v.(string); return s }
func jsonObject(v any) map[string]any { m, _ := v.(map[string]any); return m }
