// Package config reads spillway's TOML config file into a policy: each
// key checked, every problem reported at once with its line. The keys,
// their types and their bounds are the tags of spillway.Policy's fields
// (policy.Keys); nothing here names a key but profile, which picks the
// policy the others change. It is the only package that links the TOML
// parser, and only the CLI imports it: a library user who builds a policy
// in Go does not pay for it.
package config

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/pelletier/go-toml/v2"

	"github.com/spillway-dev/spillway"
	"github.com/spillway-dev/spillway/internal/policy"
)

// A Config is a checked config file: the keys it sets, each known, of the
// right type and in range.
type Config struct {
	name string
	// values holds each key the file sets, by its dotted name, as
	// policy.Key.Value gives it.
	values map[string]any
	// lines holds the line of each entry of a list key, by its dotted
	// name.
	lines map[string][]int
}

// A ConfigError is a config file that cannot be used: the key and the line
// it is on, and what is wrong.
type ConfigError struct {
	File   string
	Line   int    // 1-based; 0 if unknown
	Column int    // 1-based, for syntax errors; 0 otherwise
	Key    string // dotted, e.g. "bash.stdout.max_lines"; "" if none
	Msg    string
}

func (e *ConfigError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
		if e.Column > 0 {
			fmt.Fprintf(&b, ":%d", e.Column)
		}
	}
	b.WriteString(": ")
	if e.Key != "" {
		b.WriteString(e.Key + ": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// LoadConfig reads and checks the config file at path.
func LoadConfig(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("the config file cannot be read: %w (check --config or $SPILLWAY_CONFIG)", err)
	}
	return ParseConfig(path, data)
}

// ParseConfig checks a config file; name is how errors refer to it. Each
// problem is a *ConfigError naming the key and its line (use errors.As;
// several are joined, in line order): an unknown key or table (keys are
// matched exactly, case included), a syntax error (go-toml stops at the
// first), a value of the wrong type, a negative or zero limit, an unknown
// strategy or profile, a head_share outside 0–1.
func ParseConfig(name string, data []byte) (*Config, error) {
	c := &Config{name: name, values: map[string]any{}, lines: map[string][]int{}}
	keys := docKeys(data)
	errs := c.unknownKeys(keys)
	var doc map[string]any
	if err := toml.Unmarshal(data, &doc); err != nil {
		if len(errs) > 0 {
			return nil, joinByLine(errs)
		}
		return nil, decodeErrors(name, err, keys)
	}
	for _, k := range keys {
		key, ok := lookup(k.path)
		if !ok {
			continue
		}
		v, ok := lookupKey(doc, k.path)
		if !ok {
			continue // under a key already reported
		}
		bad := func(msg string) {
			errs = append(errs, &ConfigError{File: c.name, Line: entryLine(k, msg), Key: key.Name, Msg: msg})
		}
		x, err := value(key, v)
		if err != "" {
			bad(err)
			continue
		}
		if key.Table() {
			continue
		}
		for _, msg := range key.Check(x) {
			bad(msg)
		}
		if key.Name == profileKey {
			if p, _ := x.(string); !slices.Contains(policy.ProfileNames(), p) {
				bad(fmt.Sprintf("unknown profile %q; want one of %s", p, strings.Join(policy.ProfileNames(), ", ")))
			}
		}
		c.values[key.Name] = x
		if k.elems != nil {
			c.lines[key.Name] = k.elems
		}
	}
	if len(errs) > 0 {
		return nil, joinByLine(errs)
	}
	return c, nil
}

// entryLine is the line a message about a key is on: the line of the
// entry it names (policy.EntryPrefix), else the key's.
func entryLine(k docKey, msg string) int {
	var i int
	if _, err := fmt.Sscanf(msg, "entry %d:", &i); err == nil && i >= 1 && i <= len(k.elems) {
		return k.elems[i-1]
	}
	return k.line
}

// profileKey names the profile the file starts from: Load picks the
// policy by it, and Apply leaves it to Load.
const profileKey = "profile"

// unknownKeys reports each key or table of the document that the config
// file does not have, once, at its shortest unknown prefix.
func (c *Config) unknownKeys(keys []docKey) []error {
	var errs []error
	seen := map[string]bool{}
	for _, k := range keys {
		for i := range k.path {
			prefix := k.path[:i+1]
			if _, ok := lookup(prefix); ok {
				continue
			}
			dotted := strings.Join(prefix, ".")
			if seen[dotted] {
				break
			}
			seen[dotted] = true
			what := "key"
			if k.table && i == len(k.path)-1 {
				what = "table"
			}
			parent := prefix[:i]
			where := "the top level"
			if len(parent) > 0 {
				where = "[" + strings.Join(parent, ".") + "]"
			}
			msg := fmt.Sprintf("unknown key; %s is not a table", strings.Join(parent, "."))
			if known := knownKeys(parent); len(known) > 0 {
				msg = fmt.Sprintf("unknown %s; %s takes %s", what, where, strings.Join(known, ", "))
			}
			if elsewhere := keyElsewhere(prefix[i]); elsewhere != "" {
				msg += "; " + prefix[i] + " is a key of " + elsewhere
			}
			errs = append(errs, &ConfigError{File: c.name, Line: k.line, Key: dotted, Msg: msg})
			break
		}
	}
	return errs
}

// joinByLine joins errors, the ConfigErrors among them in line order.
func joinByLine(errs []error) error {
	var flat []error
	for _, err := range errs {
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			flat = append(flat, j.Unwrap()...)
		} else if err != nil {
			flat = append(flat, err)
		}
	}
	slices.SortStableFunc(flat, func(a, b error) int {
		return lineOf(a) - lineOf(b)
	})
	return errors.Join(flat...)
}

func lineOf(err error) int {
	var ce *ConfigError
	if errors.As(err, &ce) {
		return ce.Line
	}
	return 0
}

// Profile returns the profile the file names, or "".
func (c *Config) Profile() string {
	if c == nil {
		return ""
	}
	p, _ := c.values[profileKey].(string)
	return p
}

// Apply sets in p every value the file sets but the profile, in the order
// of the keys: [bash] sets both streams, then [bash.stdout] and
// [bash.stderr] one each. Values above a hard ceiling are held to it. A
// profile's ShownLines (opencode's 500 + 500 lines) is kept: max_lines
// here sets when output is cut.
func (c *Config) Apply(p *spillway.Policy) {
	if c == nil {
		return
	}
	for _, key := range policyKeys() {
		if x, ok := c.values[key.Name]; ok && key.Name != profileKey {
			key.Set(p, x)
			c.setSources(p, key)
		}
	}
}

// setSources records where each entry of a list key was written, in the
// Sources map of [rules] (RulesPolicy.Sources), for a key of it: a
// rule's source in a result is then "file:line".
func (c *Config) setSources(p *spillway.Policy, key policy.Key) {
	lines, ok := c.lines[key.Name]
	if !ok || len(key.Path) != 2 || key.Path[0] != "rules" {
		return
	}
	if p.Rules.Sources == nil {
		p.Rules.Sources = map[string][]string{}
	}
	src := make([]string, len(lines))
	for i, l := range lines {
		src[i] = fmt.Sprintf("%s:%d", c.name, l)
	}
	p.Rules.Sources[key.Path[1]] = src
}

// decodeErrors turns go-toml's errors (syntax, a key defined twice, a
// number too large) into ConfigErrors; keys are the document's, to name
// the key whose value go-toml could not decode.
func decodeErrors(name string, err error, keys []docKey) error {
	var de *toml.DecodeError
	if !errors.As(err, &de) {
		return &ConfigError{File: name, Msg: err.Error()}
	}
	line, col := de.Position()
	key := []string(de.Key())
	msg := strings.TrimPrefix(de.Error(), "toml: ")
	for _, k := range keys {
		if len(key) == 0 && !k.table && k.at.Line == line && k.at.Column == col {
			key = k.path
		}
	}
	if len(key) == 0 {
		return &ConfigError{File: name, Line: line, Column: col, Msg: msg}
	}
	return &ConfigError{File: name, Line: line, Key: strings.Join(key, "."), Msg: msg}
}

// Sources are where Load finds the layers above the built-in defaults.
type Sources struct {
	// Profile is --profile; it wins over the config file's profile key.
	// "" takes the file's, else "default".
	Profile string
	// ConfigPath is --config, else $SPILLWAY_CONFIG; "" for no file.
	ConfigPath string
	// TimeoutMS, when above zero, replaces the default bash timeout of the
	// profile, under the config file's timeout_ms: the MCP server's must
	// end before its clients give up on a request.
	TimeoutMS int
}

// Load builds the policy of a process: the defaults, the profile, the
// config file and the flags, in that order of precedence, each held to
// the hard ceilings. Per-call parameters come later, with the ForCall
// methods.
func Load(src Sources) (spillway.Policy, error) {
	var cfg *Config
	if src.ConfigPath != "" {
		var err error
		if cfg, err = LoadConfig(src.ConfigPath); err != nil {
			return spillway.Policy{}, err
		}
	}
	name := src.Profile
	if name == "" {
		name = cfg.Profile()
	}
	p, err := spillway.Profile(name)
	if err != nil {
		return spillway.Policy{}, fmt.Errorf("--profile: %w", err)
	}
	if src.TimeoutMS > 0 {
		p.Timeout = time.Duration(src.TimeoutMS) * time.Millisecond
	}
	cfg.Apply(&p)
	if err := p.Validate(); err != nil {
		return spillway.Policy{}, fmt.Errorf("policy: %w", err)
	}
	return p, nil
}
