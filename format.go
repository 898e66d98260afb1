package spillway

import (
	"strings"

	"github.com/spillway-dev/spillway/internal/policy"
)

// render applies the session's format (SPEC §3 --format) to the text of a
// result. With json, the text becomes one compact JSON object holding the
// details and the pure content fields, no notices inside them; with text
// it is left as it is.
func (t *Toolset) render(text string, details any, failed bool, content ...policy.Field) string {
	return t.policy.Format.Render(text, details, failed, content...)
}

// renderBash applies the format to a bash result. A call failed when it
// could not run at all (bad parameters, unknown pid): a command that ran
// and exited non-zero is a result, with its exit code in the details.
func (t *Toolset) renderBash(res BashResult) BashResult {
	if t.policy.Format != policy.FormatJSON {
		return res
	}
	d := res.Details
	failed := res.IsError && d.ExitCode == nil && !d.Running && d.PID == 0
	res.Text = t.render(res.Text, d, failed,
		policy.Field{Name: "stdout", Value: res.Stdout},
		policy.Field{Name: "stderr", Value: res.Stderr})
	return res
}

// entryList joins names one a line: the pure content of ls and find.
func entryList(names []string) string {
	if len(names) == 0 {
		return ""
	}
	return strings.Join(names, "\n") + "\n"
}
