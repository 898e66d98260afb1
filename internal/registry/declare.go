package registry

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spillway-dev/spillway/internal/fields"
	"github.com/spillway-dev/spillway/internal/policy"
)

// Params reads a tool's parameters from its Go input: each field with a
// json name is a parameter, declared by its tags, in the order of the
// fields. A parameter whose json tag has no omitempty is required (as
// go-sdk's schemas have it). The tags are those of internal/fields'
// vocabulary:
//
//	doc      what it does, for a model and for a person
//	cli      "positional" (a CLI argument), "-X" (a one-letter flag), or
//	         "session" (it lives across the calls of one session, which a
//	         one-shot CLI command does not have: the CLI refuses it)
//	min, max the least and the greatest value of an integer (a number or
//	         the name of a const): a value outside them is refused
//	ceiling  the most an integer is held to (a number or a name of
//	         consts): more is not an error
//	enum     the values a string takes, comma-separated
//	default  the value when the parameter is not given: a config key of
//	         the policy (whose value under the policy in force is the
//	         default; a zero default of a key whose least value is 0,
//	         "0 means no cap", is stated "none"), a number, a name of
//	         consts, or a string
//
// A String parameter whose Go type decodes itself from JSON (tool.RunRef)
// also takes a JSON integer, as its decimal string. A lower ceiling the
// policy in force puts on a parameter is code beside the tool's entry
// (PolicyCeiling), not a tag.
//
// Params panics on a tag it cannot read: the table is wrong, not a call.
func Params(policyType, input fields.Type, consts map[string]int64) []Param {
	var params []Param
	for _, f := range input.Fields {
		if _, ok := f.Tag("json"); !ok {
			continue
		}
		p := declare(f, policyType, consts)
		p.Required = !f.Has("omitempty")
		params = append(params, p)
	}
	return params
}

// declare reads one parameter from its field's tags.
func declare(f fields.Field, policyType fields.Type, consts map[string]int64) Param {
	where := f.GoName
	doc, _ := f.Tag("doc")
	p := Param{Name: f.Name, Type: paramType(f.Type), Doc: doc, field: f}
	if p.Type == ObjectList {
		for _, g := range f.Type.Elem.Fields {
			if _, ok := g.Tag("json"); !ok {
				continue
			}
			item := declare(g, policyType, consts)
			if item.Type == ObjectList {
				panic(fmt.Sprintf("registry: %s.%s: a list of objects cannot hold another", f.GoName, g.GoName))
			}
			p.Items = append(p.Items, item)
		}
	}
	if p.Type == 0 {
		panic(fmt.Sprintf("registry: %s: a parameter cannot be a %s", where, f.Type))
	}
	number := func(tag string) (int64, bool) {
		s, ok := f.Tag(tag)
		if !ok {
			return 0, false
		}
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			return n, true
		}
		if n, ok := consts[s]; ok {
			return n, true
		}
		panic(fmt.Sprintf("registry: %s: %s:%q is neither a number nor a known name", where, tag, s))
	}
	if cli, ok := f.Tag("cli"); ok {
		switch {
		case cli == "positional":
			p.Positional = true
		case len(cli) == 2 && cli[0] == '-':
			p.Short = cli[1:]
		case cli == "session":
			p.SessionOnly = true
		default:
			panic(fmt.Sprintf("registry: %s: cli:%q is neither \"positional\", \"session\" nor a short flag", where, cli))
		}
	}
	p.Min, _ = number("min")
	p.Max, _ = number("max")
	p.Ceiling, _ = number("ceiling")
	if enum, ok := f.Tag("enum"); ok {
		p.Enum = strings.Split(enum, ",")
	}
	if def, ok := f.Tag("default"); ok {
		p.Default = defaultOf(&p, def, policyType, number)
	}
	p.OrInt = p.Type == String && f.Type.DecodesJSON
	return p
}

// defaultOf reads a default tag: the name of a config key of the policy
// type (p.Config is set to it), else a number or a name of consts for an
// integer, else the string itself.
func defaultOf(p *Param, def string, policyType fields.Type, number func(string) (int64, bool)) func(any) any {
	if k, ok := configKey(policyType, def); ok {
		if k.Table() {
			panic(fmt.Sprintf("registry: %s: default:%q is a table of the policy, not a key", p.Name, def))
		}
		p.Config = def
		lo, hasMin := k.Min()
		none := hasMin && lo == 0 // 0 means no cap
		return func(pol any) any {
			v := k.Value(pol)
			if n, ok := v.(int64); ok {
				if none && n == 0 {
					return "none"
				}
				return int(n) // as a literal default is
			}
			return v
		}
	}
	var v any = def
	if p.Type == Int || p.Type == Millis {
		n, _ := number("default")
		v = int(n)
	}
	return func(any) any { return v }
}

// configKey returns the config key named name of the policy type.
func configKey(policyType fields.Type, name string) (policy.Key, bool) {
	for _, k := range policy.Keys(policyType) {
		if k.Name == name {
			return k, true
		}
	}
	return policy.Key{}, false
}

// paramType is the type of a parameter held in a field of Go type t.
func paramType(t fields.Type) ParamType {
	switch t.Kind {
	case fields.Duration:
		return Millis
	case fields.String:
		return String
	case fields.Bool:
		return Bool
	case fields.Int:
		return Int
	case fields.Slice:
		switch t.Elem.Kind {
		case fields.String:
			return StringList
		case fields.Struct:
			return ObjectList
		}
	case fields.Map:
		if t.Key.Kind == fields.String && t.Elem.Kind == fields.String {
			return StringMap
		}
	}
	return 0
}
