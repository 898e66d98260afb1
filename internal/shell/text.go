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
	// screen, when set, is shown in place of stdout: the screen of a
	// job on a terminal (its stream is in the spill file).
	screen string
	// empty is said when neither stream has anything to show:
	// "(no output)", or "(no new output)" for a later look.
	empty string
	// exit is how the shell ended, nil while it runs: the status line
	// ("exit code: 0").
	exit *exitStatus
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
	if p.screen != "" {
		b.WriteString(p.screen)
	} else {
		writeSection(&b, "stdout", p.stdout)
	}
	if p.stderr != nil {
		writeSection(&b, "stderr", *p.stderr)
	}
	if b.Len() == 0 {
		b.WriteString(p.empty)
		b.WriteByte('\n')
	}
	tail := p.notes
	if p.exit != nil {
		tail = append([]string{statusLine(*p.exit, p.stdout, p.stderr)}, tail...)
	}
	if len(tail) > 0 {
		b.WriteByte('\n')
		b.WriteString(strings.Join(tail, "\n"))
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// notesLen is the length of the status and notes a page ends with.
func notesLen(status string, notes []string) int {
	n := len(status) + 2
	for _, s := range notes {
		n += len(s) + 1
	}
	return n
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

// statusLine is the status line of a page, and where the exit code and the
// failure lines disagree it says so, as agents trust the exit code: a
// zero exit with lines that look like failures counts them, and a failure
// whose cut lines hold none that looks like one says that too.
func statusLine(s exitStatus, stdout output.Result, stderr *output.Result) string {
	line := s.String()
	var fails, cutFails int64
	cut := false
	for _, r := range []*output.Result{&stdout, stderr} {
		if r == nil {
			continue
		}
		fails += r.FailureLines
		cutFails += r.FailuresCut
		cut = cut || r.OmittedLines > 0
	}
	switch {
	case s.code == 0 && s.signal == "" && fails > 0:
		line += ", " + output.Plural(fails, "line looks like a failure", "lines look like failures")
	case (s.code != 0 || s.signal != "") && cut && cutFails == 0:
		line += "; none of the lines cut looks like a failure (the cause may be in the lines shown, or in words not recognised: search the full output)"
	}
	return line
}
