package registry

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spillway-dev/spillway/internal/fields"
	"github.com/spillway-dev/spillway/internal/policy"
)

// Params reads a tool's parameters from its Go input: each field with a
// json name is a parameter, declared by its tags, in the order of the
// fields.
//
//	json     the parameter's name
//	doc      what it does, for a model and for a person
//	cli      "positional" (a CLI argument), "-X" (a one-letter flag), or
//	         "session" (it lives across the calls of one session, which a
//	         one-shot CLI command does not have: the CLI refuses it)
//	param    "required", or "orint" (a string that also takes an integer)
//	min, max, ceiling   bounds of an integer, as numbers or names of consts
//	under    a field of the policy (a duration, in ms) that lowers the ceiling
//	enum     the values a string takes, comma-separated
//	config   the config key whose value is the default
//	zero     how a zero default is stated ("none")
//	default  the default when no config key sets it (a number, a name of
//	         consts, or a string)
//
// Params panics on a tag it cannot read: the table is wrong, not a call.
func Params(policyType, input fields.Type, consts map[string]int64) []Param {
	var params []Param
	fields.Walk(input, "json", func(f fields.Field) bool {
		params = append(params, declare(f, policyType, consts))
		return false
	})
	return params
}

// declare reads one parameter from its field's tags.
func declare(f fields.Field, policyType fields.Type, consts map[string]int64) Param {
	where := f.GoName
	p := Param{Name: f.Name, Type: paramType(f.Type), Doc: f.Tag.Get("doc"), index: f.Index, goType: f.Type}
	if p.Type == ObjectList {
		fields.Walk(f.Type.Elem(), "json", func(g fields.Field) bool {
			item := declare(g, policyType, consts)
			if item.Type == ObjectList {
				panic(fmt.Sprintf("registry: %s.%s: a list of objects cannot hold another", f.GoName, g.GoName))
			}
			p.Items = append(p.Items, item)
			return false
		})
	}
	if p.Type == 0 {
		panic(fmt.Sprintf("registry: %s: a parameter cannot be a %s", where, f.Type))
	}
	number := func(tag string) (int64, bool) {
		s, ok := f.Tag.Lookup(tag)
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
	if cli, ok := f.Tag.Lookup("cli"); ok {
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
	if opts, ok := f.Tag.Lookup("param"); ok {
		switch opts {
		case "required":
			p.Required = true
		case "orint":
			p.OrInt = true
		default:
			panic(fmt.Sprintf("registry: %s: unknown param option %q", where, opts))
		}
	}
	p.Min, _ = number("min")
	p.Max, _ = number("max")
	p.Ceiling, _ = number("ceiling")
	if enum, ok := f.Tag.Lookup("enum"); ok {
		p.Enum = strings.Split(enum, ",")
	}
	if under, ok := f.Tag.Lookup("under"); ok {
		sf, ok := policyType.FieldByName(under)
		if k := sf.Type.Kind(); !ok || k != fields.Int && k != fields.Duration {
			panic(fmt.Sprintf("registry: %s: under:%q names no integer field of the policy", where, under))
		}
		p.PolicyCeiling = func(pol any) int64 {
			switch v := fields.Get(pol, sf.Index).(type) {
			case time.Duration:
				return v.Milliseconds()
			case int64:
				return v
			}
			return 0
		}
	}
	zero, stateZero := f.Tag.Lookup("zero")
	if key, ok := f.Tag.Lookup("config"); ok {
		k := configKey(policyType, key)
		if k.Table() {
			panic(fmt.Sprintf("registry: %s: config:%q is not a key of the policy", where, key))
		}
		p.Config = key
		p.Default = func(pol any) any {
			v := k.Value(pol)
			if n, ok := v.(int64); ok {
				if stateZero && n == 0 {
					return zero
				}
				return int(n) // as a literal default is
			}
			return v
		}
	}
	if def, ok := f.Tag.Lookup("default"); ok {
		if p.Config != "" {
			panic(fmt.Sprintf("registry: %s: a default and a config key: the key's value is the default", where))
		}
		var v any = def
		if p.Type == Int || p.Type == Millis {
			n, _ := number("default")
			v = int(n)
		}
		p.Default = func(any) any { return v }
	}
	return p
}

// configKey returns the config key named name of the policy type.
func configKey(policyType fields.Type, name string) policy.Key {
	for _, k := range policy.Keys(policyType) {
		if k.Name == name {
			return k
		}
	}
	panic(fmt.Sprintf("registry: config:%q is not a key of the policy", name))
}

// paramType is the type of a parameter held in a field of Go type t.
func paramType(t fields.Type) ParamType {
	switch t.Kind() {
	case fields.Duration:
		return Millis
	case fields.String:
		return String
	case fields.Bool:
		return Bool
	case fields.Int:
		return Int
	case fields.Slice:
		switch t.Elem().Kind() {
		case fields.String:
			return StringList
		case fields.Struct:
			return ObjectList
		}
	case fields.Map:
		if t.Key().Kind() == fields.String && t.Elem().Kind() == fields.String {
			return StringMap
		}
	}
	return 0
}
