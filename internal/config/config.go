// Package config reads spillway's TOML config file into a policy: each
// key checked, every problem reported at once with its line. It is the
// only package that links the TOML parser, and only the CLI imports it: a
// library user who builds a policy in Go does not pay for it.
package config

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"

	"github.com/spillway-dev/spillway"
	"github.com/spillway-dev/spillway/internal/policy"
	"github.com/spillway-dev/spillway/output"
)

// The keys of the config file, as go-toml decodes them. A nil
// pointer is a key the file does not set.
type fileKeys struct {
	Profile   *string `toml:"profile"`
	Shell     *string `toml:"shell"`
	TimeoutMS *int64  `toml:"timeout_ms"`
	// ResultBudget is the per-result budget in characters (0: none).
	ResultBudget *int64     `toml:"result_budget"`
	Spill        *spillKeys `toml:"spill"`
	Bash         *bashKeys  `toml:"bash"`
	Read         *readKeys  `toml:"read"`
	Grep         *grepKeys  `toml:"grep"`
	Find         *findKeys  `toml:"find"`
	Ls           *lsKeys    `toml:"ls"`
	Cache        *cacheKeys `toml:"cache"`
}

type cacheKeys struct {
	Commands []string `toml:"commands,omitempty"`
	TTLMS    *int64   `toml:"ttl_ms"`
}

type spillKeys struct {
	Dir         *string `toml:"dir"`
	MaxBytes    *int64  `toml:"max_bytes"`
	BudgetBytes *int64  `toml:"budget_bytes"`
	KeepNamedMS *int64  `toml:"keep_named_ms"`
}

type streamKeys struct {
	Strategy     *string  `toml:"strategy"`
	HeadShare    *float64 `toml:"head_share"`
	MaxLines     *int64   `toml:"max_lines"`
	MaxBytes     *int64   `toml:"max_bytes"`
	MaxLineChars *int64   `toml:"max_line_chars"`
	MaxTokens    *int64   `toml:"max_tokens"`
}

type bashKeys struct {
	streamKeys
	MergeStreams *bool       `toml:"merge_streams"`
	MaxProcesses *int64      `toml:"max_processes"`
	Stdout       *streamKeys `toml:"stdout"`
	Stderr       *streamKeys `toml:"stderr"`
}

type readKeys struct {
	MaxLines     *int64 `toml:"max_lines"`
	MaxBytes     *int64 `toml:"max_bytes"`
	MaxLineChars *int64 `toml:"max_line_chars"`
	MaxTokens    *int64 `toml:"max_tokens"`
}

type grepKeys struct {
	Limit        *int64 `toml:"limit"`
	MaxBytes     *int64 `toml:"max_bytes"`
	MaxLineChars *int64 `toml:"max_line_chars"`
	MaxTokens    *int64 `toml:"max_tokens"`
}

type findKeys struct {
	Limit     *int64 `toml:"limit"`
	MaxBytes  *int64 `toml:"max_bytes"`
	MaxTokens *int64 `toml:"max_tokens"`
}

type lsKeys struct {
	Limit     *int64 `toml:"limit"`
	MaxBytes  *int64 `toml:"max_bytes"`
	MaxTokens *int64 `toml:"max_tokens"`
}

// A Config is a checked config file: the keys it sets, each known, of the
// right type and in range.
type Config struct {
	name string
	keys fileKeys
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
		return nil, fmt.Errorf("config: %w (check --config or $SPILLWAY_CONFIG)", err)
	}
	return ParseConfig(path, data)
}

// ParseConfig checks a config file; name is how errors refer to it. Each
// problem is a *ConfigError naming the key and its line (use errors.As;
// several are joined, in line order): an unknown key or table (keys are
// matched exactly, case included), a syntax error or a value of the wrong
// type (go-toml stops at the first), a negative or zero limit, an unknown
// strategy or profile, a head_share outside 0–1.
func ParseConfig(name string, data []byte) (*Config, error) {
	c := &Config{name: name}
	keys := docKeys(data)
	unknown := c.unknownKeys(keys)
	// Values of the wrong type are found key by key and left out of the
	// decode, so that they are listed with every other problem: go-toml
	// would stop at the first.
	var doc map[string]any
	if err := toml.Unmarshal(data, &doc); err != nil {
		if len(unknown) > 0 {
			return nil, joinByLine(unknown)
		}
		// Decoded into the keys, the error names the key it is on.
		if e := toml.NewDecoder(bytes.NewReader(data)).Decode(&c.keys); e != nil {
			err = e
		}
		return nil, decodeErrors(name, err)
	}
	mistyped := c.typeErrors(doc, keys)
	for _, k := range keys {
		if _, ok := keyType(k.path); !ok {
			deleteKey(doc, k.path)
		}
	}
	clean, err := toml.Marshal(doc)
	if err == nil {
		err = toml.NewDecoder(bytes.NewReader(clean)).Decode(&c.keys)
	}
	if err != nil {
		return nil, joinByLine(append(append(unknown, mistyped...), decodeErrors(name, err)))
	}
	lines := make(map[string]int, len(keys))
	for _, k := range keys {
		lines[strings.Join(k.path, ".")] = k.line
	}
	errs := append(unknown, mistyped...)
	for _, err := range c.check(lines) {
		// A value under a key spelt in another case was decoded (go-toml
		// matches fields regardless of case) and has no line: its key is
		// reported unknown already.
		if len(unknown) == 0 || lineOf(err) > 0 {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return nil, joinByLine(errs)
	}
	return c, nil
}

// unknownKeys reports each key or table of the document that the config
// file does not have, once, at its shortest unknown prefix.
func (c *Config) unknownKeys(keys []docKey) []error {
	var errs []error
	seen := map[string]bool{}
	for _, k := range keys {
		for i := range k.path {
			prefix := k.path[:i+1]
			if _, ok := keyType(prefix); ok {
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
	if c == nil || c.keys.Profile == nil {
		return ""
	}
	return *c.keys.Profile
}

// Apply sets in p every value the file sets. Values above a hard ceiling
// are held to it. [bash] sets both streams, [bash.stdout] and
// [bash.stderr] one each, over [bash]. A profile's ShownLines (opencode's
// 500 + 500 lines) is kept: max_lines here sets when output is cut.
func (c *Config) Apply(p *spillway.Policy) {
	if c == nil {
		return
	}
	k := c.keys
	setString(&p.Shell, k.Shell)
	if k.TimeoutMS != nil {
		p.Timeout = millis(min(*k.TimeoutMS, math.MaxInt32))
	}
	if k.ResultBudget != nil {
		p.ResultBudget = int(min(*k.ResultBudget, math.MaxInt32))
	}
	if s := k.Spill; s != nil {
		setString(&p.Spill.Dir, s.Dir)
		if s.MaxBytes != nil {
			p.Spill.MaxBytes = *s.MaxBytes
		}
		if s.BudgetBytes != nil {
			p.Spill.BudgetBytes = *s.BudgetBytes
		}
		if s.KeepNamedMS != nil {
			p.Spill.KeepNamed = millis(*s.KeepNamedMS)
		}
	}
	if b := k.Bash; b != nil {
		b.streamKeys.apply(&p.Bash.Stdout)
		b.streamKeys.apply(&p.Bash.Stderr)
		if b.Stdout != nil {
			b.Stdout.apply(&p.Bash.Stdout)
		}
		if b.Stderr != nil {
			b.Stderr.apply(&p.Bash.Stderr)
		}
		if b.MergeStreams != nil {
			p.Bash.MergeStreams = *b.MergeStreams
		}
		setInt(&p.Bash.MaxProcesses, b.MaxProcesses, math.MaxInt32)
	}
	if r := k.Read; r != nil {
		setInt(&p.Read.MaxLines, r.MaxLines, spillway.LinesCeiling)
		setInt(&p.Read.MaxBytes, r.MaxBytes, spillway.StreamCeiling)
		setInt(&p.Read.MaxLineChars, r.MaxLineChars, spillway.StreamCeiling)
		setInt(&p.Read.MaxTokens, r.MaxTokens, spillway.StreamCeiling)
	}
	if g := k.Grep; g != nil {
		setInt(&p.Grep.Limit, g.Limit, spillway.LinesCeiling)
		setInt(&p.Grep.MaxBytes, g.MaxBytes, spillway.StreamCeiling)
		setInt(&p.Grep.MaxLineChars, g.MaxLineChars, spillway.StreamCeiling)
		setInt(&p.Grep.MaxTokens, g.MaxTokens, spillway.StreamCeiling)
	}
	if f := k.Find; f != nil {
		setInt(&p.Find.Limit, f.Limit, spillway.LinesCeiling)
		setInt(&p.Find.MaxBytes, f.MaxBytes, spillway.StreamCeiling)
		setInt(&p.Find.MaxTokens, f.MaxTokens, spillway.StreamCeiling)
	}
	if l := k.Ls; l != nil {
		setInt(&p.Ls.Limit, l.Limit, spillway.LinesCeiling)
		setInt(&p.Ls.MaxBytes, l.MaxBytes, spillway.StreamCeiling)
		setInt(&p.Ls.MaxTokens, l.MaxTokens, spillway.StreamCeiling)
	}
	if c := k.Cache; c != nil {
		if c.Commands != nil {
			p.Cache.Commands = nil // an empty list caches nothing, as no list does
			if len(c.Commands) > 0 {
				p.Cache.Commands = c.Commands
			}
		}
		if c.TTLMS != nil {
			p.Cache.TTL = millis(min(*c.TTLMS, math.MaxInt32))
		}
	}
}

func (s streamKeys) apply(l *output.Limits) {
	if s.Strategy != nil {
		l.Strategy = output.Strategy(*s.Strategy)
	}
	if s.HeadShare != nil {
		l.HeadShare = *s.HeadShare
	}
	setInt(&l.MaxLines, s.MaxLines, spillway.LinesCeiling)
	setInt(&l.MaxBytes, s.MaxBytes, spillway.StreamCeiling)
	setInt(&l.MaxLineChars, s.MaxLineChars, spillway.StreamCeiling)
	setInt(&l.MaxTokens, s.MaxTokens, spillway.StreamCeiling)
}

// millis is a config file's count of milliseconds.
func millis(n int64) time.Duration { return time.Duration(n) * time.Millisecond }

func setString(dst *string, v *string) {
	if v != nil {
		*dst = *v
	}
}

func setInt(dst *int, v *int64, ceiling int) {
	if v != nil {
		*dst = int(min(*v, int64(ceiling)))
	}
}

// check reports every value out of range, with its line.
func (c *Config) check(lines map[string]int) []error {
	var errs []error
	bad := func(key, format string, args ...any) {
		errs = append(errs, &ConfigError{File: c.name, Line: lines[key], Key: key, Msg: fmt.Sprintf(format, args...)})
	}
	atLeast := func(key string, v *int64, lo int64) {
		if v != nil && *v < lo {
			if lo == 0 {
				bad(key, "must not be negative, not %d (0 means no cap)", *v)
			} else {
				bad(key, "must be at least %d, not %d", lo, *v)
			}
		}
	}
	k := c.keys
	if k.Profile != nil {
		if _, err := policy.Profile(*k.Profile); err != nil || *k.Profile == "" {
			bad("profile", "unknown profile %q; want one of %s", *k.Profile, strings.Join(policy.ProfileNames(), ", "))
		}
	}
	if k.Shell != nil && strings.TrimSpace(*k.Shell) == "" {
		bad("shell", "is empty; want a shell such as \"bash\"")
	}
	atLeast("timeout_ms", k.TimeoutMS, 1)
	if b := k.ResultBudget; b != nil && *b != 0 && *b < policy.MinResultBudget {
		bad("result_budget", "%d is below %d, which the notices and spill paths alone may need; want 0 (no budget) or at least %d", *b, policy.MinResultBudget, policy.MinResultBudget)
	}
	if c := k.Cache; c != nil {
		atLeast("cache.ttl_ms", c.TTLMS, 1)
		for i, cmd := range c.Commands {
			if strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(cmd), "*")) == "" {
				bad("cache.commands", "entry %d is empty; want a command such as \"git status\" (a trailing * matches any command that starts with the rest)", i+1)
			}
		}
	}
	if s := k.Spill; s != nil {
		atLeast("spill.max_bytes", s.MaxBytes, 1)
		atLeast("spill.budget_bytes", s.BudgetBytes, 1)
		atLeast("spill.keep_named_ms", s.KeepNamedMS, 1)
	}
	stream := func(prefix string, s *streamKeys) {
		if s == nil {
			return
		}
		if s.Strategy != nil {
			switch output.Strategy(*s.Strategy) {
			case output.Head, output.Tail, output.HeadTail:
			default:
				bad(prefix+"strategy", "%q is not a strategy; want head, tail or head_tail", *s.Strategy)
			}
		}
		if s.HeadShare != nil && !(*s.HeadShare >= 0 && *s.HeadShare <= 1) {
			bad(prefix+"head_share", "must be a number from 0 to 1, not %v", *s.HeadShare)
		}
		atLeast(prefix+"max_lines", s.MaxLines, 1)
		atLeast(prefix+"max_bytes", s.MaxBytes, 1)
		atLeast(prefix+"max_line_chars", s.MaxLineChars, 0)
		atLeast(prefix+"max_tokens", s.MaxTokens, 0)
	}
	if b := k.Bash; b != nil {
		stream("bash.", &b.streamKeys)
		stream("bash.stdout.", b.Stdout)
		stream("bash.stderr.", b.Stderr)
		atLeast("bash.max_processes", b.MaxProcesses, 0)
	}
	if r := k.Read; r != nil {
		atLeast("read.max_lines", r.MaxLines, 1)
		atLeast("read.max_bytes", r.MaxBytes, 1)
		atLeast("read.max_line_chars", r.MaxLineChars, 0)
		atLeast("read.max_tokens", r.MaxTokens, 0)
	}
	if g := k.Grep; g != nil {
		atLeast("grep.limit", g.Limit, 1)
		atLeast("grep.max_bytes", g.MaxBytes, 1)
		atLeast("grep.max_line_chars", g.MaxLineChars, 0)
		atLeast("grep.max_tokens", g.MaxTokens, 0)
	}
	if f := k.Find; f != nil {
		atLeast("find.limit", f.Limit, 1)
		atLeast("find.max_bytes", f.MaxBytes, 1)
		atLeast("find.max_tokens", f.MaxTokens, 0)
	}
	if l := k.Ls; l != nil {
		atLeast("ls.limit", l.Limit, 1)
		atLeast("ls.max_bytes", l.MaxBytes, 1)
		atLeast("ls.max_tokens", l.MaxTokens, 0)
	}
	return errs
}

// A docKey is a key or table header of a document, with its line.
type docKey struct {
	path  []string
	line  int
	table bool // a [table] or [[array table]] header
}

// docKeys lists the keys and table headers of a document in order, as far
// as it parses (a syntax error is go-toml's to report).
func docKeys(doc []byte) []docKey {
	var keys []docKey
	var p unstable.Parser
	p.Reset(doc)
	var table []string
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			table = keyParts(e.Key())
			keys = append(keys, docKey{path: table, line: keyLine(&p, e.Key()), table: true})
		case unstable.KeyValue:
			keys = walkKeyValue(&p, table, e, keys)
		}
	}
	return keys
}

func walkKeyValue(p *unstable.Parser, prefix []string, e *unstable.Node, keys []docKey) []docKey {
	path := append(slices.Clone(prefix), keyParts(e.Key())...)
	keys = append(keys, docKey{path: path, line: keyLine(p, e.Key())})
	if v := e.Value(); v.Kind == unstable.InlineTable {
		it := v.Children()
		for it.Next() {
			keys = walkKeyValue(p, path, it.Node(), keys)
		}
	}
	return keys
}

func keyParts(it unstable.Iterator) []string {
	var parts []string
	for it.Next() {
		parts = append(parts, string(it.Node().Data))
	}
	return parts
}

func keyLine(p *unstable.Parser, it unstable.Iterator) int {
	if !it.Next() {
		return 0
	}
	return p.Shape(it.Node().Raw).Start.Line
}

// typeErrors reports each known key of doc whose value has the wrong
// type, and deletes it from doc.
func (c *Config) typeErrors(doc map[string]any, keys []docKey) []error {
	var errs []error
	for _, k := range keys {
		t, ok := keyType(k.path)
		if !ok {
			continue
		}
		v, ok := lookupKey(doc, k.path)
		if !ok {
			continue // under a key already reported
		}
		if got := tomlKind(v); !kindFits(t.Kind(), got) {
			errs = append(errs, &ConfigError{File: c.name, Line: k.line, Key: strings.Join(k.path, "."),
				Msg: fmt.Sprintf("want %s, not %s", keyKind(k.path), article(got))})
			deleteKey(doc, k.path)
		}
	}
	return errs
}

// tomlKind names the TOML type of a decoded value as go-toml's errors do.
func tomlKind(v any) string {
	switch v.(type) {
	case int64:
		return "integer"
	case float64:
		return "float"
	case string:
		return "string"
	case bool:
		return "boolean"
	case map[string]any:
		return "table"
	case []any:
		return "array"
	default:
		return "date or time"
	}
}

// kindFits reports whether a TOML value of kind got decodes into a Go
// value of kind want (an integer is a number too).
func kindFits(want reflect.Kind, got string) bool {
	switch want {
	case reflect.Int64:
		return got == "integer"
	case reflect.Float64:
		return got == "integer" || got == "float"
	case reflect.String:
		return got == "string"
	case reflect.Bool:
		return got == "boolean"
	case reflect.Struct:
		return got == "table"
	case reflect.Slice:
		return got == "array"
	}
	return false
}

func lookupKey(doc map[string]any, path []string) (any, bool) {
	var v any = doc
	for _, part := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		if v, ok = m[part]; !ok {
			return nil, false
		}
	}
	return v, true
}

func deleteKey(doc map[string]any, path []string) {
	if len(path) == 0 {
		return
	}
	parent, ok := lookupKey(doc, path[:len(path)-1])
	if m, isMap := parent.(map[string]any); ok && isMap {
		delete(m, path[len(path)-1])
	}
}

// decodeErrors turns go-toml's errors into ConfigErrors that say what to do.
func decodeErrors(name string, err error) error {
	var de *toml.DecodeError
	if !errors.As(err, &de) {
		return &ConfigError{File: name, Msg: err.Error()}
	}
	line, col := de.Position()
	key := []string(de.Key())
	msg := strings.TrimPrefix(de.Error(), "toml: ")
	if m := typeMismatch.FindStringSubmatch(msg); m != nil {
		if want := keyKind(key); want != "" {
			return &ConfigError{File: name, Line: line, Key: strings.Join(key, "."),
				Msg: fmt.Sprintf("want %s, not %s", want, article(m[1]))}
		}
	}
	if len(key) == 0 {
		return &ConfigError{File: name, Line: line, Column: col, Msg: msg}
	}
	return &ConfigError{File: name, Line: line, Key: strings.Join(key, "."), Msg: msg}
}

var typeMismatch = regexp.MustCompile(`^cannot decode TOML ([a-z ]+) into `)

// keyKind says what the key at path takes ("an integer", "a table", …), or
// "" for a key that does not exist.
func keyKind(path []string) string {
	t, ok := keyType(path)
	if !ok {
		return ""
	}
	switch t.Kind() {
	case reflect.Int64:
		return "an integer"
	case reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Struct:
		return "a table"
	case reflect.Slice:
		return "an array of strings"
	}
	return ""
}

func article(kind string) string {
	if strings.IndexAny(kind[:1], "aeiou") == 0 {
		return "an " + kind
	}
	return "a " + kind
}

// keyType is the Go type (pointers removed) of the key at path.
func keyType(path []string) (reflect.Type, bool) {
	t := reflect.TypeFor[fileKeys]()
	for _, part := range path {
		f, ok := field(t, part)
		if !ok {
			return nil, false
		}
		t = f
	}
	return t, true
}

// field finds the key named name in the struct t, embedded structs
// included.
func field(t reflect.Type, name string) (reflect.Type, bool) {
	if t.Kind() != reflect.Struct {
		return nil, false
	}
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous {
			if ft, ok := field(f.Type, name); ok {
				return ft, true
			}
			continue
		}
		if tag, _, _ := strings.Cut(f.Tag.Get("toml"), ","); tag == name {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			return ft, true
		}
	}
	return nil, false
}

// knownKeys lists the keys of the table at path, in the order of the Policy's fields.
func knownKeys(path []string) []string {
	t, ok := keyType(path)
	if !ok || t.Kind() != reflect.Struct {
		return nil
	}
	var keys []string
	var walk func(reflect.Type)
	walk = func(t reflect.Type) {
		for i := range t.NumField() {
			f := t.Field(i)
			if f.Anonymous {
				walk(f.Type)
				continue
			}
			tag, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
			keys = append(keys, tag)
		}
	}
	walk(t)
	return keys
}

// TOML renders p as a config file that sets every key; read back with
// ParseConfig and applied to spillway.Profile(p.Profile), it gives p again
// (SpillWhen and ShownLines come from the profile, not from the file).
func TOML(p spillway.Policy) ([]byte, error) {
	i64 := func(v int) *int64 { x := int64(v); return &x }
	str := func(s string) *string { return &s }
	stream := func(l output.Limits) *streamKeys {
		hs := l.HeadShare
		return &streamKeys{Strategy: str(string(l.Strategy)), HeadShare: &hs,
			MaxLines: i64(l.MaxLines), MaxBytes: i64(l.MaxBytes), MaxLineChars: i64(l.MaxLineChars), MaxTokens: i64(l.MaxTokens)}
	}
	merge, procs := p.Bash.MergeStreams, int64(p.Bash.MaxProcesses)
	maxB, budget, keep := p.Spill.MaxBytes, p.Spill.BudgetBytes, p.Spill.KeepNamed.Milliseconds()
	k := fileKeys{
		Profile:      str(p.Profile),
		Shell:        str(p.Shell),
		TimeoutMS:    i64(int(p.Timeout.Milliseconds())),
		ResultBudget: i64(p.ResultBudget),
		Spill:        &spillKeys{Dir: str(p.Spill.Dir), MaxBytes: &maxB, BudgetBytes: &budget, KeepNamedMS: &keep},
		Bash:         &bashKeys{MergeStreams: &merge, MaxProcesses: &procs, Stdout: stream(p.Bash.Stdout), Stderr: stream(p.Bash.Stderr)},
		Read:         &readKeys{MaxLines: i64(p.Read.MaxLines), MaxBytes: i64(p.Read.MaxBytes), MaxLineChars: i64(p.Read.MaxLineChars), MaxTokens: i64(p.Read.MaxTokens)},
		Grep:         &grepKeys{Limit: i64(p.Grep.Limit), MaxBytes: i64(p.Grep.MaxBytes), MaxLineChars: i64(p.Grep.MaxLineChars), MaxTokens: i64(p.Grep.MaxTokens)},
		Find:         &findKeys{Limit: i64(p.Find.Limit), MaxBytes: i64(p.Find.MaxBytes), MaxTokens: i64(p.Find.MaxTokens)},
		Ls:           &lsKeys{Limit: i64(p.Ls.Limit), MaxBytes: i64(p.Ls.MaxBytes), MaxTokens: i64(p.Ls.MaxTokens)},
		Cache:        &cacheKeys{Commands: p.Cache.Commands, TTLMS: i64(int(p.Cache.TTL.Milliseconds()))},
	}
	return toml.Marshal(k)
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
		p.Timeout = millis(int64(src.TimeoutMS))
	}
	cfg.Apply(&p)
	if err := p.Validate(); err != nil {
		return spillway.Policy{}, fmt.Errorf("policy: %w", err)
	}
	return p, nil
}
