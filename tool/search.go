package tool

// GrepInput is a search of file contents: the grep tool's parameters,
// named by their json tags (docs/tools.md gives defaults and bounds).
type GrepInput struct {
	// Pattern is an RE2 regular expression, or a plain string when
	// Literal is set.
	Pattern string `json:"pattern" cli:"positional" doc:"RE2 regular expression, or a plain string with literal: true."`
	// Path is the file or directory to search, relative to the toolset's
	// Cwd; "" is the Cwd.
	Path string `json:"path,omitempty" cli:"positional" doc:"File or directory to search (default: the working directory)."`
	// Glob keeps only the files whose path matches, e.g. "*.go" (the base
	// name at any depth) or "src/**/*.ts" (the path relative to Path); a
	// leading '!' keeps the files that do not match.
	Glob string `json:"glob,omitempty" doc:"Only search files whose path matches this glob, e.g. \x60*.go\x60 or \x60src/**/*.ts\x60 (\x60!glob\x60 excludes)."`
	// IgnoreCase matches regardless of case.
	IgnoreCase bool `json:"ignore_case,omitempty" cli:"-i" doc:"Match without regard to case."`
	// Literal takes Pattern as a plain string, not a regular expression.
	Literal bool `json:"literal,omitempty" cli:"-F" doc:"Treat pattern as a plain string, not a regular expression."`
	// Context is the number of lines shown before and after each match.
	Context int `json:"context,omitempty" cli:"-C" min:"0" max:"max_context" default:"0" doc:"Lines to show before and after each match (content mode)."`
	// OutputMode is "content" (the matching lines, the default),
	// "files_with_matches" (the files' paths) or "count" (matches per
	// file).
	OutputMode string `json:"output_mode,omitempty" enum:"content,files_with_matches,count" default:"content" doc:"\x60content\x60 (matching lines), \x60files_with_matches\x60 (paths only) or \x60count\x60 (matches per file)."`
	// Limit bounds the matching lines shown (the files, in the other
	// modes); 0 takes the policy's, 100 by default.
	Limit int `json:"limit,omitempty" min:"1" ceiling:"lines" default:"grep.limit" doc:"Most matches to return (files in files_with_matches mode)."`
}

// GrepDetails are the structured details of a grep result.
type GrepDetails struct {
	// MatchCount is the number of matching lines shown (at most the
	// limit). In files_with_matches mode a file's search stops at its
	// first match, so it counts the files listed; in count mode it is the
	// sum of the counts listed.
	MatchCount int `json:"match_count" doc:"Matching lines found (at most limit)."`
	// FileCount is the number of files shown with a match.
	FileCount int `json:"file_count" doc:"Files with at least one match."`
	// MatchLimitReached: more matches (files, in the other modes) exist
	// than the limit.
	MatchLimitReached bool `json:"match_limit_reached" doc:"The limit stopped the search; more matches may exist."`
	// LinesCut counts the lines cut at the policy's MaxLineChars.
	LinesCut int `json:"lines_cut" doc:"Lines shortened because they were too long."`
	// Cut says what the text left out, and the spill file that holds the
	// whole result when the byte limit cut it.
	Cut
	Skips
	// Hidden counts the files (and directories, whole) a Read deny or
	// ask rule kept out of the search; the notice names the rules.
	Hidden int `json:"hidden,omitempty" doc:"Files and directories a Read deny or ask rule kept out of the search (the notice names the rules)."`
	// Next holds the calls that show what was left out: the rest of the
	// result in the spill file, each shown line that was cut (a read of
	// that line of its file), and a search with a higher limit.
	NextCalls
	TokenCount
}

// GrepPolicy limits a grep.
type GrepPolicy struct {
	// Limit is the default of the limit parameter (100 matches);
	// MaxBytes bounds the result (50 KiB); a matching line longer than
	// MaxLineChars (500) is shown around its first match; MaxTokens, when
	// above zero, bounds the result's estimated tokens.
	Limit        int `toml:"limit" min:"1" ceiling:"lines" doc:"matches shown (the limit parameter's default)"`
	MaxBytes     int `toml:"max_bytes" min:"1" ceiling:"stream" doc:"bytes of a result"`
	MaxLineChars int `toml:"max_line_chars" min:"0" ceiling:"stream" doc:"a longer matching line is shown around its match"`
	MaxTokens    int `toml:"max_tokens" min:"0" ceiling:"stream" doc:"estimated tokens of a result; 0: no limit"`
	// NoTotal, set by the pi profile, writes the limit's notice as its
	// design does, without the matches known of ("at least N found").
	NoTotal bool
}

// FindInput is a search by name: the find tool's parameters, named by
// their json tags (docs/tools.md gives defaults and bounds).
type FindInput struct {
	// Pattern is a glob with "**": without '/' it matches the name at any
	// depth, with '/' the path relative to Path.
	Pattern string `json:"pattern" cli:"positional" doc:"Glob, e.g. \x60*.go\x60, \x60**/testdata/**\x60 or \x60cmd/*/main.go\x60."`
	// Path is the directory to search, relative to the toolset's Cwd; ""
	// is the Cwd.
	Path string `json:"path,omitempty" cli:"positional" doc:"Directory to search (default: the working directory)."`
	// Type is "any" (the default), "file" (everything but directories)
	// or "dir".
	Type string `json:"type,omitempty" enum:"any,file,dir" default:"any" doc:"\x60any\x60, \x60file\x60 or \x60dir\x60."`
	// Limit bounds the results shown; 0 takes the policy's, 1000 by
	// default.
	Limit int `json:"limit,omitempty" min:"1" ceiling:"lines" default:"find.limit" doc:"Most results to return."`
}

// FindDetails are the structured details of a find result.
type FindDetails struct {
	// Count is the number of results shown (at most the limit).
	Count int `json:"count" doc:"Results returned."`
	// ResultLimitReached: more results exist than the limit.
	ResultLimitReached bool `json:"result_limit_reached" doc:"The limit stopped the search; more results may exist."`
	// Cut says what the text left out, and the spill file that holds the
	// whole result when the byte limit cut it.
	Cut
	// Next holds the calls that show what was left out: the rest of the
	// list in the spill file, and a find with a higher limit.
	NextCalls
	// Skipped names the directories that could not be read (at most
	// five).
	Skips
	// Hidden counts the paths a Read deny rule kept out (a directory
	// once, its contents unseen); the notice names the rules.
	Hidden int `json:"hidden,omitempty" doc:"Paths a Read deny rule kept out (a directory once, its contents unseen; the notice names the rules)."`
	TokenCount
}

// FindPolicy limits a find.
type FindPolicy struct {
	// Limit is the default of the limit parameter (1000 results);
	// MaxBytes bounds the result (50 KiB); MaxTokens, when above zero,
	// bounds its estimated tokens.
	Limit     int `toml:"limit" min:"1" ceiling:"lines" doc:"paths shown (the limit parameter's default)"`
	MaxBytes  int `toml:"max_bytes" min:"1" ceiling:"stream" doc:"bytes of a result"`
	MaxTokens int `toml:"max_tokens" min:"0" ceiling:"stream" doc:"estimated tokens of a result; 0: no limit"`
	// NoTotal, set by the pi profile, stops at the limit and writes its
	// notice as the design does, without the count of the paths that
	// match.
	NoTotal bool
}
