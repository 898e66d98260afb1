package spillway

import (
	"context"
	"fmt"

	"github.com/spillway-dev/spillway/internal/registry"
	"github.com/spillway-dev/spillway/internal/render"
	"github.com/spillway-dev/spillway/tool"
)

// GrepInput is a search of file contents: the grep tool's parameters
// (tool.GrepInput).
type GrepInput = tool.GrepInput

// GrepDetails are the structured details of a grep result
// (tool.GrepDetails).
type GrepDetails = tool.GrepDetails

// grepEntry declares the grep tool: its parameters are the fields of
// GrepInput, by their json tags.
var grepEntry = entry{Tool: registry.Tool{
	Name:     "grep",
	Title:    "Search file contents",
	ReadOnly: true,
	Describe: describe(describeGrep),
	CLI: registry.CLI{
		Short: "Search file contents, as the model would get it",
		Long: `grep searches the files below PATH (default: the current directory) for
an RE2 regular expression, in-process: .gitignore, .ignore and
.git/info/exclude are honoured at every level, .git and binary files are
skipped, other hidden files are searched. Results come in path order, then
line order: "path:LINE: text", context lines "path-LINE- text".`,
		Example: `  spillway grep 'func main' .
  spillway grep -i todo ./src --glob '*.go'`,
	},
}, run: handle((*Toolset).Grep)}

// FindInput is a search by name: the find tool's parameters
// (tool.FindInput).
type FindInput = tool.FindInput

// FindDetails are the structured details of a find result
// (tool.FindDetails).
type FindDetails = tool.FindDetails

// findEntry declares the find tool: its parameters are the fields of
// FindInput, by their json tags.
var findEntry = entry{Tool: registry.Tool{
	Name:     "find",
	Title:    "Find files by name",
	ReadOnly: true,
	Describe: describe(describeFind),
	CLI: registry.CLI{
		Short: "Find files by glob, as the model would get it",
		Long: `find lists the paths below PATH (default: the current directory) that
match a glob: without "/" it matches the name at any depth ("*_test.go"),
with "/" the path relative to PATH ("src/**/*.ts"). Ignore files are
honoured as by grep; results are sorted and directories end in "/".`,
		Example: `  spillway find '*_test.go'
  spillway find 'src/**/*.ts' ./web`,
	},
}, run: handle((*Toolset).Find)}

// Grep searches file contents for a regular expression (or a literal
// string), honouring ignore files, in path then line order. No match is
// a result ("No matches found"); a bad pattern is an error.
func (t *Toolset) Grep(ctx context.Context, in GrepInput) (Result[GrepDetails], error) {
	if err := check("grep", &in); err != nil {
		return Result[GrepDetails]{}, err
	}
	if err := t.open(); err != nil {
		return Result[GrepDetails]{}, err
	}
	res, err := grepFiles(ctx, t.search, in)
	if err != nil {
		return Result[GrepDetails]{}, clipError(err, in.Pattern, in.Path, in.Glob)
	}
	res.Text = t.finish(res.Text, &res.Details.Tokens, func() any { return res.Details }, render.Field{Name: "content", Value: res.Content})
	return res, nil
}

// Find lists the files and directories whose name (or relative path)
// matches a glob, honouring ignore files, sorted.
func (t *Toolset) Find(ctx context.Context, in FindInput) (Result[FindDetails], error) {
	if err := check("find", &in); err != nil {
		return Result[FindDetails]{}, err
	}
	if err := t.open(); err != nil {
		return Result[FindDetails]{}, err
	}
	res, err := findFiles(ctx, t.search, in)
	if err != nil {
		return Result[FindDetails]{}, clipError(err, in.Pattern, in.Path)
	}
	res.Text = t.finish(res.Text, &res.Details.Tokens, func() any { return res.Details }, render.Field{Name: "content", Value: res.Content})
	return res, nil
}

// describeGrep is grep's description for the model under p: what it does, the
// limits p puts on it and how to get at what it cut.
func describeGrep(p Policy) string {
	g := p.Grep
	return fmt.Sprintf("Search file contents with a regular expression (RE2 syntax: no backreferences or "+
		"lookaround; `literal: true` searches for a plain string). Searches `path` (a file, or a directory recursively; "+
		"default the working directory), skipping what .gitignore/.ignore exclude, `.git/` and binary files; other hidden "+
		"files are searched. `glob` keeps only matching paths (`*.go`, `src/**/*.ts`).\n\n"+
		"output_mode `content` (default) prints `path:LINE: text`, with `context` lines around each match as "+
		"`path-LINE- text` and groups separated by `--`; `files_with_matches` prints one path per line; `count` prints "+
		"matches per file. At most `limit` matches (default %d) and %s of text%s%s. When the limit is reached the notice says so: raise `limit` or "+
		"narrow the pattern or path. Results are in path order, then line order. No match is not an error.",
		g.Limit, size(g.MaxBytes), tokenCap(" and", g.MaxTokens), lineCap("; lines over %d chars are cut (`read` the file at that line for all of it)", g.MaxLineChars))
}

// describeFind is find's description for the model under p: what it does, the
// limits p puts on it and how to get at what it cut.
func describeFind(p Policy) string {
	f := p.Find
	return fmt.Sprintf("Find files and directories by glob (`**` matches any depth). A pattern without `/` "+
		"matches the file name at any depth (`*.go`, `Makefile`); with `/` it matches the path relative to `path` "+
		"(`src/**/*_test.go`). Honours .gitignore/.ignore like grep and skips `.git/`. Results are sorted; directories "+
		"end in `/`. `type` limits the results to files or directories. At most `limit` results (default %d) and %s%s; "+
		"when the limit is reached the notice says so: raise `limit` or narrow the pattern.",
		f.Limit, size(f.MaxBytes), tokenCap(" and", f.MaxTokens))
}
