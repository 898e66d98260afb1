package fields

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"testing"
)

// TestDeclarationsUseTheVocabulary reads the tags of the declarations
// (the tool package's inputs, details and policies, spillway.Policy and
// the output package's limits) from their source and fails on a key that
// is not in Vocabulary, json or toml.
func TestDeclarationsUseTheVocabulary(t *testing.T) {
	var files []string
	for _, glob := range []string{"../../tool/*.go", "../../policy.go", "../../output/*.go"} {
		m, err := filepath.Glob(glob)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	allowed := append([]string{"json", "toml"}, Vocabulary...)
	seen := map[string]bool{}
	fset := token.NewFileSet()
	for _, name := range files {
		if filepath.Ext(name) != ".go" || len(name) > 8 && name[len(name)-8:] == "_test.go" {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			field, ok := n.(*ast.Field)
			if !ok || field.Tag == nil {
				return true
			}
			tag, err := strconv.Unquote(field.Tag.Value)
			if err != nil {
				t.Fatalf("%s: %v", fset.Position(field.Pos()), err)
			}
			for _, key := range tagKeys(tag) {
				seen[key] = true
				if !slices.Contains(allowed, key) {
					t.Errorf("%s: tag key %q is not in the vocabulary %v", fset.Position(field.Pos()), key, Vocabulary)
				}
				if _, ok := reflect.StructTag(tag).Lookup(key); !ok {
					t.Errorf("%s: tag %q does not parse", fset.Position(field.Pos()), tag)
				}
			}
			return true
		})
	}
	if len(Vocabulary) > 8 {
		t.Errorf("the vocabulary has %d keys; at most 8", len(Vocabulary))
	}
	if !seen["doc"] || !seen["json"] || !seen["toml"] {
		t.Errorf("the declarations were not read: keys seen %v", seen)
	}
}

// tagKeys lists the keys of a struct tag in the conventional format.
func tagKeys(tag string) []string {
	var keys []string
	for tag != "" {
		i := 0
		for i < len(tag) && tag[i] == ' ' {
			i++
		}
		tag = tag[i:]
		i = 0
		for i < len(tag) && tag[i] > ' ' && tag[i] != ':' && tag[i] != '"' {
			i++
		}
		if i == 0 || i+1 >= len(tag) || tag[i] != ':' || tag[i+1] != '"' {
			break
		}
		keys = append(keys, tag[:i])
		rest := tag[i+1:]
		qv, err := strconv.QuotedPrefix(rest)
		if err != nil {
			break
		}
		tag = rest[len(qv):]
	}
	return keys
}
