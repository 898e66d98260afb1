package spillway

// A Result is what a tool returns, D being its details (BashDetails,
// ReadDetails, …; any for Call).
type Result[D any] struct {
	// Text is what the model reads: the content and the notices that say
	// what was left out and how to get at it. For a bash call that ended
	// non-zero it says so with the exit code.
	Text string `json:"text"`
	// Details are the tool's structured details; docs/tools.md describes
	// each field.
	Details D `json:"details"`
	// IsError says the command did not succeed, as a model should hear
	// it: it exited non-zero or was cancelled, or (for a job looked at)
	// ended non-zero; or the history could not show a stream again. A
	// call that could not be made is an error instead.
	IsError bool `json:"is_error"`
	// Content is what the text shows without its notices: a read's lines
	// (a cut line holds its first MaxLineChars characters), grep's and
	// find's lines, ls's entries one a line, bash's standard output.
	Content string `json:"-"`
	// Image holds the bytes of an image a read returned (ReadDetails.Kind
	// "image"), MimeType its type.
	Image    []byte `json:"-"`
	MimeType string `json:"-"`
	// Input is, in a result of Call, the tool's input the call ran with
	// (a BashInput, a ReadInput, …), as its arguments filled it: for a
	// caller that records what ran, such as the MCP server's audit log.
	Input any `json:"-"`
}

// anyResult is r with its details as an any, as Call returns it.
func anyResult[D any](r Result[D]) Result[any] {
	return Result[any]{Text: r.Text, Details: r.Details, IsError: r.IsError, Content: r.Content, Input: r.Input, Image: r.Image, MimeType: r.MimeType}
}
