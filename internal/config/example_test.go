package config

import (
	"reflect"
	"strings"
	"testing"

	"github.com/spillway-dev/spillway"
	"github.com/spillway-dev/spillway/internal/fields"
	"github.com/spillway-dev/spillway/internal/policy"
)

// The example of the default policy, read back, is the default policy:
// every value it writes is the default, and the key it leaves out
// (timeout_ms) is the default by being left out. Every key has its one
// comment.
func TestExampleIsTheDefaults(t *testing.T) {
	p := spillway.DefaultPolicy()
	doc, err := Example(p)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := ParseConfig("example.toml", []byte(doc))
	if err != nil {
		t.Fatalf("%v\n%s", err, doc)
	}
	back := mustProfile(t, cfg.Profile())
	cfg.Apply(&back)
	if !reflect.DeepEqual(back, p) {
		t.Errorf("the example read back:\n got %+v\nwant %+v\n%s", back, p, doc)
	}
	for _, line := range strings.Split(strings.TrimSpace(doc), "\n") {
		if line != "" && strings.Count(line, "# ") == 0 {
			t.Errorf("a line without its comment: %q", line)
		}
	}
	if _, ok := cfg.values["timeout_ms"]; ok {
		t.Error("the example sets timeout_ms")
	}
}

// A key with no doc tag has no comment, which Example refuses: not a
// silent gap in the README.
func TestExampleWantsEveryComment(t *testing.T) {
	keys := policy.Keys(fields.Of[struct {
		Documented int `toml:"documented" doc:"what it does"`
		Bare       int `toml:"bare"`
	}]("toml"))
	if c, ok := comment(keys[0]); !ok || c != "what it does" {
		t.Errorf("documented: %q, %v", c, ok)
	}
	if c, ok := comment(keys[1]); ok {
		t.Errorf("bare: %q, %v", c, ok)
	}
	for _, k := range policyKeys() {
		if len(k.Path) > 1 && isStreamTable(k.Path[:2]) {
			continue // [bash] names them in its comment
		}
		if _, ok := comment(k); !ok {
			t.Errorf("config key %s has no doc tag", k.Name)
		}
	}
}
