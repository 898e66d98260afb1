package tool

import "github.com/spillway-dev/spillway/output"

// The fields below are shared by the tools' details: each is declared
// once, with the doc the model reads, and embedded where a tool's details
// hold it. An embedded struct's fields are the outer struct's, in JSON
// too, at the place of the embedding, so each details type keeps its own
// order of fields.

// Cut is what a result's text left out and the spill file that holds
// the whole, as the details of grep, find, ls and each stream of bash say
// it.
type Cut struct {
	// Truncation says what the text left out.
	Truncation output.Truncation `json:"truncation" doc:"What was left out of the text. truncated is true when anything was."`
	// FullOutputPath is the spill file that holds the whole, when
	// anything was cut.
	FullOutputPath string `json:"full_output_path,omitempty" doc:"File holding the whole stream, when anything was cut."`
}

// NextCalls holds the calls that show what a result's text left out.
type NextCalls struct {
	// Next are those calls, in the order to follow them; none when
	// nothing was left out.
	Next []output.Call `json:"next,omitempty" doc:"The calls that show what was left out, each {\"tool\": name, ...its parameters}; following them, and the next calls their results give, reaches every byte. For a command that waits for a secret: the check_pid call that shows what follows."`
}

// TokenCount is the estimate of the tokens of a result's text.
type TokenCount struct {
	// Tokens is the estimate of the tokens of the result's text as the
	// model reads it (output.EstimateTokens, which errs high).
	Tokens int `json:"tokens" doc:"Estimated tokens of the result's text as the model reads it (docs/tokens.md): counted on the high side, about 1.1–1.5 times what OpenAI's tokenizers count."`
}

// Skips names the paths a search could not read.
type Skips struct {
	// Skipped names them, at most five.
	Skipped []string `json:"skipped,omitempty" doc:"Paths that could not be read (at most five)."`
}
