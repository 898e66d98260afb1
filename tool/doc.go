// Package tool declares the values spillway's tools take and return that
// its engines work on too: a tool's input (its parameters), its details,
// the policy of its limits, and the values they are made of.
//
// The spillway package shows each of them under the same name (an alias:
// spillway.GrepInput is tool.GrepInput), and that is where a library user
// finds them. They are declared here, below both the API and the engines
// that take and fill them in (internal/files, internal/search, …), so
// that there is one declaration of each: an engine takes and returns
// these values instead of a copy of its own with a converter between the
// two.
//
// The struct tags are the tools' declarations: a json tag names a
// parameter or a details field, doc describes it, and min, max, ceiling,
// default, enum, cli and check bound and place it; a toml tag is a config
// key. internal/fields lists the vocabulary (docs/architecture.md). Only
// the standard
// library and spillway's output package are imported here.
package tool
