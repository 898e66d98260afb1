package spillway

import (
	"strings"

	"github.com/spillway-dev/spillway/internal/shell"
	"github.com/spillway-dev/spillway/output"
)

// The text of a bash, check_pid, kill_pid or write_stdin result: the
// shell gives a page of the job (shell.Config.Render), laid out here.

// bashText renders a page as docs/tools.md shows it: the stdout section,
// a blank line, the stderr section (sections with nothing in them are
// left out), a blank line and the status line, then the notes.
func bashText(p shell.Page) string {
	var b strings.Builder
	for _, l := range p.Lead {
		b.WriteString(l)
		b.WriteString("\n")
	}
	if p.Screen != "" {
		b.WriteString(p.Screen)
	} else {
		writeSection(&b, "stdout", p.Stdout)
	}
	if p.Stderr != nil {
		writeSection(&b, "stderr", *p.Stderr)
	}
	if b.Len() == 0 {
		b.WriteString(p.Empty)
		b.WriteByte('\n')
	}
	tail := p.Notes
	if p.Exit != nil {
		tail = append([]string{statusLine(*p.Exit, p.Stdout, p.Stderr)}, tail...)
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

// statusLine is the status line of a page, and where the exit code and the
// failure lines disagree it says so, as agents trust the exit code: a
// zero exit with lines that look like failures counts them, and a failure
// whose cut lines hold none that looks like one says that too.
func statusLine(s shell.Exit, stdout output.Result, stderr *output.Result) string {
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
	failed := s.Code != 0 || s.Signal != ""
	switch {
	case !failed && fails > 0:
		line += ", " + output.Plural(fails, "line looks like a failure", "lines look like failures")
	case failed && cut && cutFails == 0:
		line += "; none of the lines cut looks like a failure (the cause may be in the lines shown, or in words not recognised: search the full output)"
	}
	return line
}
