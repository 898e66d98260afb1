package spillway

import (
	"strings"

	"github.com/spillway-dev/spillway/internal/render"
)

// render applies the session's format to the text of a successful
// result. With json, the text becomes one compact JSON object holding the
// details and the pure content fields, no notices inside them; with text
// it is left as it is. A call that fails returns an error instead, which
// the surfaces render (ErrorEnvelope).
func (t *Toolset) render(text string, details any, content ...render.Field) string {
	if t.format == FormatJSON {
		if s, ok := t.seedJSON(text, details, content); ok {
			return s
		}
	}
	return t.format.Render(text, details, false, content...)
}

// renderBash applies the format to a bash result. A command that ran and
// exited non-zero is a result, with its exit code in the details.
func (t *Toolset) renderBash(res BashResult) BashResult {
	if t.format != FormatJSON {
		return res
	}
	res.Text = t.render(res.Text, res.Details,
		render.Field{Name: "stdout", Value: res.Stdout},
		render.Field{Name: "stderr", Value: res.Stderr})
	return res
}

// entryList joins names one a line: the pure content of ls and find.
func entryList(names []string) string {
	if len(names) == 0 {
		return ""
	}
	return strings.Join(names, "\n") + "\n"
}
