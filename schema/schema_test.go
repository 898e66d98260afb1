package schema

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spillway-dev/spillway"
	"github.com/spillway-dev/spillway/internal/fields"
)

type inner struct {
	N int `json:"n" doc:"a number"`
}

type Embedded struct {
	E string `json:"e"`
}

type sample struct {
	Embedded
	Code    *int              `json:"code" doc:"the code"`
	Name    string            `json:"name,omitempty"`
	Skip    string            `json:"-"`
	In      inner             `json:"in"`
	Ptr     *inner            `json:"ptr,omitempty"`
	List    []string          `json:"list"`
	Env     map[string]string `json:"env"`
	Ratio   float64           `json:"ratio"`
	hidden  int               //lint:ignore U1000 an unexported field, which the schema must leave out
	NoTagOK bool
}

func TestOutputSchemaFollowsJSONTags(t *testing.T) {
	s := outputSchema(fields.Of[sample]("json"))
	data, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	props := got["properties"].(map[string]any)
	var names []string
	for _, p := range s.Props {
		names = append(names, p.Name)
	}
	if want := []string{"e", "code", "name", "in", "ptr", "list", "env", "ratio", "NoTagOK"}; !slices.Equal(names, want) {
		t.Errorf("properties %v, want %v (in field order, embedded flattened, - and unexported left out)", names, want)
	}
	if typ := props["code"].(map[string]any)["type"]; !reflect.DeepEqual(typ, []any{"integer", "null"}) {
		t.Errorf("*int type = %v, want [integer null]", typ)
	}
	if d := props["code"].(map[string]any)["description"]; d != "the code" {
		t.Errorf("description = %v", d)
	}
	in := props["in"].(map[string]any)
	if in["type"] != "object" || in["properties"].(map[string]any)["n"].(map[string]any)["description"] != "a number" {
		t.Errorf("nested struct schema = %v", in)
	}
	if _, ok := props["ptr"].(map[string]any)["anyOf"]; !ok {
		t.Errorf("pointer to struct is not nullable: %v", props["ptr"])
	}
	if props["list"].(map[string]any)["type"] != "array" || props["env"].(map[string]any)["type"] != "object" ||
		props["ratio"].(map[string]any)["type"] != "number" {
		t.Errorf("list/env/ratio schemas: %v %v %v", props["list"], props["env"], props["ratio"])
	}
	req := got["required"].([]any)
	for _, r := range req {
		if r == "name" || r == "ptr" {
			t.Errorf("omitempty field %v is required", r)
		}
	}
	if !slices.Contains(req, any("code")) {
		t.Errorf("required = %v, want code in it", req)
	}
}

func TestToolDefinitions(t *testing.T) {
	p := spillway.DefaultPolicy()
	p.Read.MaxLines = 1234
	p.Bash.Stdout.MaxBytes = 10 * 1024
	p.Timeout = 60 * time.Second
	tools := Tools(p)
	if len(tools) == 0 || tools[0].Name != "bash" {
		t.Fatalf("tools start with %v, want bash first", tools)
	}
	for _, tool := range tools {
		for _, s := range []any{tool.InputSchema, tool.OutputSchema} {
			data, err := json.Marshal(s)
			if err != nil {
				t.Fatalf("%s: %v", tool.Name, err)
			}
			var m map[string]any
			if err := json.Unmarshal(data, &m); err != nil || m["type"] != "object" {
				t.Errorf("%s: schema is not an object schema: %s", tool.Name, data)
			}
		}
		in := tool.InputSchema.(object)
		if !in.Closed {
			t.Errorf("%s: input schema allows unknown parameters", tool.Name)
		}
		for _, prop := range in.Props {
			if d, _ := prop.Schema.(map[string]any)["description"].(string); d == "" {
				t.Errorf("%s.%s has no description", tool.Name, prop.Name)
			}
			if _, ok := prop.Schema.(map[string]any)["default"]; ok {
				// The SDK would apply it and override the policy.
				t.Errorf("%s.%s has a default", tool.Name, prop.Name)
			}
		}
		writes := map[string]bool{"bash": true, "write_stdin": true, "edit": true, "write": true, "apply_patch": true}
		if tool.ReadOnly == writes[tool.Name] {
			t.Errorf("%s: ReadOnly = %v", tool.Name, tool.ReadOnly)
		}
	}
	byName := map[string]Tool{}
	for _, tool := range tools {
		byName[tool.Name] = tool
	}
	if d := byName["bash"].Description; !strings.Contains(d, "10.0KB") || !strings.Contains(d, "60000") {
		t.Errorf("the bash description does not state the policy's limits:\n%s", d)
	}
	if d := byName["read"].Description; !strings.Contains(d, "1234 lines") {
		t.Errorf("the read description does not state the policy's limit:\n%s", d)
	}
	// Every details field the tools return is described for the model.
	for _, tool := range tools {
		for _, prop := range tool.OutputSchema.(object).Props {
			described := false
			switch s := prop.Schema.(type) {
			case map[string]any:
				_, described = s["description"]
			case object:
				described = s.Description != ""
			}
			if !described {
				t.Errorf("%s details field %q has no description (its doc tag)", tool.Name, prop.Name)
			}
		}
	}
}
