package tool

// LsInput names the directory to list: the ls tool's parameters, named
// by their json tags (docs/tools.md gives defaults and bounds).
type LsInput struct {
	// Path is the directory to list, relative to the toolset's Cwd; ""
	// is the Cwd.
	Path string `json:"path,omitempty" cli:"positional" doc:"Directory to list (default: the working directory)."`
	// Limit is the most entries shown; 0 takes the policy's, 500 by
	// default.
	Limit int `json:"limit,omitempty" min:"1" ceiling:"lines" default:"ls.limit" doc:"Most entries to return."`
}

// LsDetails are the structured details of an ls result.
type LsDetails struct {
	// Count is the number of entries shown.
	Count int `json:"count" doc:"Results returned."`
	// EntryLimitReached: the directory holds more entries than the limit.
	EntryLimitReached bool `json:"entry_limit_reached" doc:"The directory has more entries than the limit."`
	// Hidden counts the entries a Read deny rule kept out; the notice
	// names the rules.
	Hidden int `json:"hidden,omitempty" doc:"Entries a Read deny rule kept out (the notice names the rules)."`
	// Cut counts entries as lines; its spill file holds the listing up
	// to the limit, when the byte limit cut it.
	Cut
	// Next holds the calls that show what was left out: the rest of the
	// listing in the spill file, and an ls with a limit that takes every
	// entry.
	NextCalls
	TokenCount
}

// LsPolicy limits an ls.
type LsPolicy struct {
	// Limit is the default of the limit parameter (500 entries);
	// MaxBytes bounds the result (50 KiB); MaxTokens, when above zero,
	// bounds its estimated tokens.
	Limit     int `toml:"limit" min:"1" ceiling:"lines" doc:"entries shown (the limit parameter's default)"`
	MaxBytes  int `toml:"max_bytes" min:"1" ceiling:"stream" doc:"bytes of a result"`
	MaxTokens int `toml:"max_tokens" min:"0" ceiling:"stream" doc:"estimated tokens of a result; 0: no limit"`
}
