package policy

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/spillway-dev/spillway/internal/fields"
	"github.com/spillway-dev/spillway/internal/rules"
	"github.com/spillway-dev/spillway/output"
)

// A Key is one key of the config file, found by walking the toml tags of
// spillway.Policy: a field, or a key that a table shares with its
// sub-tables (bash's strategy sets the one of both streams).
type Key struct {
	// Name is the dotted key, "bash.stdout.max_lines"; Path its parts.
	Name string
	Path []string
	// Type is the Go type of the fields the key sets.
	Type fields.Type
	// Fields are the fields the key sets in a value of the walked type:
	// one, or one a stream for a key of [bash].
	Fields []fields.Field
	// Omitempty leaves the key out of a written file when it is empty.
	Omitempty bool
}

// Table reports whether the key is a table.
func (k Key) Table() bool { return k.Type.Kind == fields.Struct }

// tag returns the value of a tag of the key's field.
func (k Key) tag(key string) (string, bool) { return k.Fields[0].Tag(key) }

var keysOf sync.Map // the type's name → []Key

// Keys lists the keys of the config file of the struct type t
// (spillway.Policy, described by its toml tags), depth first in the order
// of the fields, a table's values before its tables: the order in which
// a file is applied (a key bash shares before bash.stdout's own) and
// written.
func Keys(t fields.Type) []Key {
	if keys, ok := keysOf.Load(t.Name); ok {
		return keys.([]Key)
	}
	keys := buildKeys(t)
	keysOf.Store(t.Name, keys)
	return keys
}

type keyNode struct {
	key      Key
	children []*keyNode
}

func buildKeys(t fields.Type) []Key {
	root := &keyNode{}
	nodes := map[string]*keyNode{"": root}
	add := func(path []string, f fields.Field) {
		name := strings.Join(path, ".")
		if n, ok := nodes[name]; ok {
			n.key.Fields = append(n.key.Fields, f)
			return
		}
		n := &keyNode{key: Key{Name: name, Path: path, Type: f.Type, Fields: []fields.Field{f}, Omitempty: f.Has("omitempty")}}
		nodes[name] = n
		parent := nodes[strings.Join(path[:len(path)-1], ".")]
		parent.children = append(parent.children, n)
	}
	var walk func(fs []fields.Field)
	walk = func(fs []fields.Field) {
		for _, f := range fs {
			if f.Has("shared") {
				// The table's keys are the enclosing table's too, set on
				// every field that shares them.
				outer := f.Path[:len(f.Path)-1]
				var share func(gs []fields.Field)
				share = func(gs []fields.Field) {
					for _, g := range gs {
						add(append(slices.Clone(outer), g.Path[len(outer)+1:]...), g)
						share(g.Type.Fields)
					}
				}
				share(f.Type.Fields)
			}
			add(f.Path, f)
			walk(f.Type.Fields)
		}
	}
	walk(t.Fields)
	var keys []Key
	var flatten func(*keyNode)
	flatten = func(n *keyNode) {
		for _, c := range n.children {
			if !c.key.Table() {
				keys = append(keys, c.key)
			}
		}
		for _, c := range n.children {
			if c.key.Table() {
				keys = append(keys, c.key)
				flatten(c)
			}
		}
	}
	flatten(root)
	return keys
}

// Value returns the key's value in v, a value of the walked type (or a
// pointer to one), as the config file writes it: an integer as int64 (a
// duration in milliseconds), a float64, a string, a bool or a []string.
// Of a key bash shares, it is stdout's.
func (k Key) Value(v any) any {
	x := k.Fields[0].Get(v)
	if d, ok := x.(time.Duration); ok {
		return d.Milliseconds()
	}
	return x
}

// Set sets every field of the key in the value p points to to x, a value
// as Value returns it, an integer held to the key's ceiling.
func (k Key) Set(p any, x any) {
	if n, ok := x.(int64); ok {
		if m, ok := k.Ceiling(); ok {
			n = min(n, m)
		}
		x = n
		if k.Type.Kind == fields.Duration {
			x = time.Duration(n) * time.Millisecond
		}
	}
	if list, ok := x.([]string); ok && len(list) == 0 {
		x = []string(nil) // an empty list is no list
	}
	for _, f := range k.Fields {
		if err := f.Set(p, x); err != nil {
			panic(fmt.Sprintf("policy: key %s: %v", k.Name, err)) // the caller checked x against the key's type
		}
	}
}

// Min is the least an integer key may be, from its min tag.
func (k Key) Min() (int64, bool) {
	s, ok := k.tag("min")
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil
}

// Ceiling is the most an integer key may be, from its ceiling tag: a larger
// value is held to it.
func (k Key) Ceiling() (int64, bool) {
	c, _ := k.tag("ceiling")
	switch c {
	case "lines":
		return LinesCeiling, true
	case "stream":
		return StreamCeiling, true
	case "int32":
		return math.MaxInt32, true
	}
	return 0, false
}

// EntryPrefix starts the message about entry i (0-based) of a list key;
// the config file finds the entry's own line by it.
func EntryPrefix(i int) string { return fmt.Sprintf("entry %d: ", i+1) }

// Check reports what is wrong with x, a value of the key as Value returns
// it, against the key's min and check tags: nothing when it can be used.
// The config file's errors and Policy.Validate say the same.
func (k Key) Check(x any) []string {
	var bad []string
	if lo, ok := k.Min(); ok {
		if n, ok := x.(int64); ok && n < lo {
			if lo == 0 {
				bad = append(bad, fmt.Sprintf("must not be negative, not %d (0 means no cap)", n))
			} else {
				bad = append(bad, fmt.Sprintf("must be at least %d, not %d", lo, n))
			}
		}
	}
	name, _ := k.tag("check")
	if check, ok := checks[name]; ok {
		bad = append(bad, check(x)...)
	} else if name != "" {
		panic(fmt.Sprintf("policy: key %s: no check named %q", k.Name, name))
	}
	return bad
}

// checks are the checks a config key's check tag names, each of a value
// as Key.Value gives it.
var checks = map[string]func(x any) []string{
	"shell": func(x any) []string {
		if s, _ := x.(string); strings.TrimSpace(s) == "" {
			return []string{`is empty; want a shell such as "bash"`}
		}
		return nil
	},
	"budget": func(x any) []string {
		if n, _ := x.(int64); n != 0 && n < MinResultBudget {
			return []string{fmt.Sprintf("%d is below %d, which the notices and spill paths alone may need; want 0 (no budget) or at least %d", n, MinResultBudget, MinResultBudget)}
		}
		return nil
	},
	"strategy": func(x any) []string {
		s, _ := x.(string)
		switch output.Strategy(s) {
		case output.Head, output.Tail, output.HeadTail:
			return nil
		}
		return []string{fmt.Sprintf("%q is not a strategy; want head, tail or head_tail", s)}
	},
	"share": func(x any) []string {
		if f, _ := x.(float64); !(f >= 0 && f <= 1) {
			return []string{fmt.Sprintf("must be a number from 0 to 1, not %v", f)}
		}
		return nil
	},
	"decision":          decision(false),
	"decision_or_unset": decision(true),
	"patterns": entries(func(p string) string {
		if rules.IsFileEntry(p) {
			return "" // Read(…), Edit(…), Write(…): the file tools'
		}
		if _, err := rules.ParsePattern(p); err != nil {
			return err.Error()
		}
		return ""
	}),
	"import": entries(func(name string) string {
		if !slices.Contains(rules.Imports, name) {
			return fmt.Sprintf("%q is not a tool whose rules spillway reads; want %s", name, strings.Join(rules.Imports, " or "))
		}
		return ""
	}),
	"dirs":  entries(absolute),
	"files": entries(absolute),
	"programs": func(x any) []string {
		var bad []string
		list, _ := x.([]string)
		for i, name := range list {
			switch {
			case strings.TrimSpace(name) == "" || strings.ContainsAny(name, "/ \t"):
				bad = append(bad, fmt.Sprintf("entry %d, %q, is not a program's name; want a name such as \"ssh\", found on the system's own directories", i+1, name))
			case Interpreter(name):
				bad = append(bad, fmt.Sprintf("entry %d, %q, is an interpreter, which runs whatever script it is given: its prompts cannot be verified", i+1, name))
			}
		}
		return bad
	},
	"unverified": func(x any) []string {
		if s, _ := x.(string); s != "warn" && s != "refuse" {
			return []string{fmt.Sprintf("%q: want \"warn\" (the page says the program is not the system's) or \"refuse\" (no page)", s)}
		}
		return nil
	},
	"commands": func(x any) []string {
		var bad []string
		list, _ := x.([]string)
		for i, cmd := range list {
			if strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(cmd), "*")) == "" {
				bad = append(bad, fmt.Sprintf("entry %d is empty; want a command such as \"git status\" (a trailing * matches any command that starts with the rest)", i+1))
			}
		}
		return bad
	},
}

// decision checks a decision: allow, ask or deny, or "" where unset is
// allowed.
func decision(unset bool) func(x any) []string {
	return func(x any) []string {
		if s, _ := x.(string); s != "allow" && s != "ask" && s != "deny" && !(unset && s == "") {
			return []string{fmt.Sprintf("%q is not a decision; want allow, ask or deny", s)}
		}
		return nil
	}
}

// entries checks each entry of a list with what, whose non-empty answer
// is said of the entry (EntryPrefix).
func entries(what func(string) string) func(x any) []string {
	return func(x any) []string {
		var bad []string
		list, _ := x.([]string)
		for i, e := range list {
			if why := what(e); why != "" {
				bad = append(bad, EntryPrefix(i)+why)
			}
		}
		return bad
	}
}

// absolute checks a path of a list of folders or files.
func absolute(p string) string {
	if !filepath.IsAbs(p) && !strings.HasPrefix(p, "~/") {
		return fmt.Sprintf("%q is not an absolute path; want one such as \"/home/me/src/project\" or \"~/src/project\"", p)
	}
	return ""
}

// interpreters are the programs that run a script or a command line they
// are given: a prompt they show comes from whatever they run.
var interpreters = []string{"sh", "bash", "dash", "zsh", "ksh", "mksh", "fish", "csh", "tcsh", "busybox",
	"python", "perl", "ruby", "node", "nodejs", "deno", "bun", "php", "lua", "luajit", "tclsh", "wish", "expect",
	"osascript", "pwsh", "awk", "gawk", "mawk", "env", "java", "Rscript", "julia", "guile", "racket", "sbcl", "ocaml"}

// Interpreter reports whether the program name runs scripts: one of
// interpreters, or one of them with a version (python3, python3.11,
// perl5.36, lua5.4).
func Interpreter(name string) bool {
	base := strings.TrimRight(name, "0123456789.-")
	return slices.Contains(interpreters, name) || slices.Contains(interpreters, base)
}
