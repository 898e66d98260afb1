package config

import (
	"reflect"
	"strings"
	"testing"

	"github.com/spillway-dev/spillway"
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

// A key with no comment is an error, not a silent gap in the README.
func TestExampleWantsEveryComment(t *testing.T) {
	saved := keyComments["bash.max_processes"]
	delete(keyComments, "bash.max_processes")
	defer func() { keyComments["bash.max_processes"] = saved }()
	if _, err := Example(spillway.DefaultPolicy()); err == nil || !strings.Contains(err.Error(), "bash.max_processes") {
		t.Errorf("Example without a comment: %v", err)
	}
}
