package policy

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spillway-dev/spillway/internal/fields"
	"github.com/spillway-dev/spillway/output"
)

type stream struct {
	Lines int `toml:"lines" min:"1" ceiling:"lines"`
	Cut   int `toml:"cut" min:"0"`
	Shown int // no key
}

type sample struct {
	Name    string        `toml:"name" check:"shell"`
	Wait    time.Duration `toml:"wait_ms" min:"1" ceiling:"int32"`
	Budget  int           `toml:"budget" check:"budget"`
	Out     stream        `toml:"out,shared"`
	Err     stream        `toml:"err,shared"`
	Merge   bool          `toml:"merge"`
	List    []string      `toml:"list,omitempty" check:"commands"`
	Unnamed int
}

func TestKeys(t *testing.T) {
	var names []string
	for _, k := range Keys(fields.Of[sample]("toml")) {
		names = append(names, k.Name+"/"+strings.Repeat("*", len(k.Fields)))
	}
	// A table's values before its tables; the keys out and err share come
	// first in the enclosing table, each setting both fields.
	want := []string{"name/*", "wait_ms/*", "budget/*", "lines/**", "cut/**", "merge/*", "list/*",
		"out/*", "out.lines/*", "out.cut/*", "err/*", "err.lines/*", "err.cut/*"}
	if !slices.Equal(names, want) {
		t.Errorf("keys %q,\nwant %q", names, want)
	}
}

func key(t *testing.T, name string) Key {
	t.Helper()
	for _, k := range Keys(fields.Of[sample]("toml")) {
		if k.Name == name {
			return k
		}
	}
	t.Fatalf("no key %s", name)
	return Key{}
}

func TestKeySetAndValue(t *testing.T) {
	var s sample
	v := &s
	key(t, "lines").Set(v, int64(50))
	key(t, "err.lines").Set(v, int64(1<<40)) // held to LinesCeiling
	key(t, "wait_ms").Set(v, int64(1500))
	key(t, "list").Set(v, []string{})
	if s.Out.Lines != 50 || s.Err.Lines != LinesCeiling || s.Wait != 1500*time.Millisecond || s.List != nil {
		t.Errorf("set: %+v", s)
	}
	if got := key(t, "wait_ms").Value(v); got != int64(1500) {
		t.Errorf("wait_ms reads %v (%T), want 1500 ms", got, got)
	}
	if got := key(t, "name").Value(v); got != "" {
		t.Errorf("name reads %v", got)
	}
}

func TestKeyCheck(t *testing.T) {
	for _, tt := range []struct {
		key  string
		x    any
		want string
	}{
		{"lines", int64(0), "must be at least 1, not 0"},
		{"lines", int64(1), ""},
		{"cut", int64(-2), "must not be negative, not -2 (0 means no cap)"},
		{"name", " ", `is empty; want a shell such as "bash"`},
		{"budget", int64(100), "100 is below 2000, which the notices and spill paths alone may need; want 0 (no budget) or at least 2000"},
		{"budget", int64(0), ""},
		{"list", []string{"ls", " * ", ""}, "entry 2 is empty; want a command such as \"git status\" (a trailing * matches any command that starts with the rest)|entry 3 is empty"},
	} {
		got := strings.Join(key(t, tt.key).Check(tt.x), "|")
		if tt.want == "" && got != "" || !strings.HasPrefix(got, tt.want) {
			t.Errorf("%s = %v: %q, want %q", tt.key, tt.x, got, tt.want)
		}
	}
	// output.Limits carries the stream keys' own checks.
	keys := Keys(fields.Of[struct {
		L output.Limits `toml:"l"`
	}]("toml"))
	for _, k := range keys {
		switch k.Name {
		case "l.strategy":
			if got := k.Check("middle"); len(got) != 1 || got[0] != `"middle" is not a strategy; want head, tail or head_tail` {
				t.Errorf("strategy: %q", got)
			}
		case "l.head_share":
			if got := k.Check(1.5); len(got) != 1 || got[0] != "must be a number from 0 to 1, not 1.5" {
				t.Errorf("head_share: %q", got)
			}
		}
	}
}

// A key's bounds come from its field's min and ceiling tags; a key a
// table shares has its fields' bounds.
func TestKeyBounds(t *testing.T) {
	for _, tt := range []struct {
		key      string
		min, max int64
	}{
		{"wait_ms", 1, 1<<31 - 1},
		{"lines", 1, LinesCeiling}, // the key the table shares
		{"err.cut", 0, -1},
	} {
		k := key(t, tt.key)
		if lo, ok := k.Min(); !ok || lo != tt.min {
			t.Errorf("%s: min %d, %v", tt.key, lo, ok)
		}
		if hi, ok := k.Ceiling(); ok != (tt.max >= 0) || ok && hi != tt.max {
			t.Errorf("%s: ceiling %d, %v", tt.key, hi, ok)
		}
	}
}
