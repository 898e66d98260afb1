package config

import (
	"slices"

	"github.com/pelletier/go-toml/v2/unstable"
)

// A docKey is a key or table header of a document, with its line.
type docKey struct {
	path  []string
	line  int
	table bool // a [table] or [[array table]] header
	// at is where a key's value starts: go-toml places there an error
	// in the value (a number too large) without naming the key.
	at unstable.Position
	// elems are the lines of the entries of an array value, so that an
	// entry can be named by its own line.
	elems []int
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
	v := e.Value()
	k := docKey{path: path, line: keyLine(p, e.Key()), at: p.Shape(v.Raw).Start}
	if v.Kind == unstable.Array {
		it := v.Children()
		for it.Next() {
			k.elems = append(k.elems, p.Shape(it.Node().Raw).Start.Line)
		}
	}
	keys = append(keys, k)
	if v.Kind == unstable.InlineTable {
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

// lookupKey finds the value at path in a decoded document.
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
