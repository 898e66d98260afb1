package shell

import (
	"strings"

	"github.com/spillway-dev/spillway/output"
)

// A page is what one result shows of a job: the window of each stream
// since the last look, how the job stands, and notes for the model.
type page struct {
	stdout output.Result
	stderr *output.Result // nil when stderr is merged into stdout
	// empty is said when neither stream has anything to show:
	// "(no output)", or "(no new output)" for a later look.
	empty string
	// status is the status line ("exit code: 0"), "" while the shell runs.
	status string
	// notes are bracketed lines after the status: how to continue.
	notes []string
	// lead are bracketed lines before the sections: what happened
	// since the last look that the output does not show.
	lead []string
}

// text renders a page as docs/tools.md shows it: the stdout section, a blank
// line, the stderr section (sections with nothing in them are left out),
// a blank line and the status line, then the notes.
func (p page) text() string {
	var b strings.Builder
	for _, l := range p.lead {
		b.WriteString(l)
		b.WriteString("\n")
	}
	writeSection(&b, "stdout", p.stdout)
	if p.stderr != nil {
		writeSection(&b, "stderr", *p.stderr)
	}
	if b.Len() == 0 {
		b.WriteString(p.empty)
		b.WriteByte('\n')
	}
	tail := p.notes
	if p.status != "" {
		tail = append([]string{p.status}, tail...)
	}
	if len(tail) > 0 {
		b.WriteByte('\n')
		b.WriteString(strings.Join(tail, "\n"))
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// writeSection writes "label:\n<content>\n[notice]\n", preceded by a blank
// line when a section came before; nothing when there is nothing to show.
func writeSection(b *strings.Builder, label string, r output.Result) {
	content := r.Text()
	notice := r.Notice(label)
	if notice == "" && r.FullOutputPath != "" && content != "" {
		// A later window that fits, of a stream that was spilled before:
		// the file still holds everything.
		notice = "[" + label + ": all new output shown. Full output: " + r.FullOutputPath + "]"
	}
	if content == "" && notice == "" {
		return
	}
	if b.Len() > 0 {
		b.WriteByte('\n')
	}
	b.WriteString(label)
	b.WriteString(":\n")
	if content != "" {
		b.WriteString(content)
		if !strings.HasSuffix(content, "\n") {
			b.WriteByte('\n')
		}
	}
	if notice != "" {
		b.WriteString(notice)
		b.WriteByte('\n')
	}
}
