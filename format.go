package spillway

import (
	"github.com/spillway-dev/spillway/internal/render"
	"github.com/spillway-dev/spillway/output"
)

// Format is how a result's text is written: FormatText, or FormatJSON for
// agents that parse results. It is presentation, not a limit: a Policy
// says how much a result shows, Options.Format how it is written.
type Format string

// Formats of a result's text.
const (
	// FormatText is the text the model reads: content and bracketed
	// notices.
	FormatText Format = "text"
	// FormatJSON is one compact JSON object,
	// {"ok":true,"data":{…details…,…content…}}, for agents that parse
	// results; a failed call is {"ok":false,"error":"…"} (see internal/render).
	FormatJSON Format = "json"
)

// render applies the session's format to the text of a successful
// result. With json, the text becomes one compact JSON object holding the
// details and the pure content fields, no notices inside them; with text
// it is left as it is. A call that fails returns an error instead, which
// the surfaces render (see internal/render).
func (t *Toolset) render(text string, details any, content ...render.Field) string {
	if t.format == FormatJSON {
		if s, ok := t.peerJSON(text, details, content); ok {
			return s
		}
	}
	return render.Format(t.format).Render(text, details, false, content...)
}

// finish sets *tokens, the tokens field of a result's details, to the
// estimate of the text the model reads, and returns that text: text itself,
// or with the json format the JSON object render makes of it and of
// details() (which holds *tokens). The JSON holds its own count, so it is
// made twice: the count it carries is that of a text one number shorter or
// longer at most.
func (t *Toolset) finish(text string, tokens *int, details func() any, content ...render.Field) string {
	*tokens = output.EstimateTokensString(text)
	if t.format != FormatJSON {
		return text
	}
	*tokens = output.EstimateTokensString(t.render(text, details(), content...))
	return t.render(text, details(), content...)
}

// renderBash applies the format to a bash result, and sets its tokens. A
// command that ran and exited non-zero is a result, with its exit code in
// the details.
func (t *Toolset) renderBash(res Result[BashDetails]) Result[BashDetails] {
	res.Text = t.finish(res.Text, &res.Details.Tokens, func() any { return res.Details },
		render.Field{Name: "stdout", Value: res.Content},
		render.Field{Name: "stderr", Value: res.Details.Stderr.Shown})
	return res
}
