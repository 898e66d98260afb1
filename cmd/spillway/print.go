package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"regexp"

	"golang.org/x/term"

	"github.com/spillway-dev/spillway"
	"github.com/spillway-dev/spillway/internal/render"
)

// printResult prints a tool result the way the model would see it, or as
// JSON with --json, and returns the exit status error for is_error.
func (g *globalFlags) printResult(w io.Writer, text string, details any, isError bool) error {
	if g.json {
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(struct {
			Text    string `json:"text"`
			Details any    `json:"details"`
			IsError bool   `json:"is_error"`
		}{text, details, isError}); err != nil {
			return err
		}
	} else {
		if isTerminal(w) {
			text = colorNotices(text)
		}
		fmt.Fprint(w, text)
		if len(text) > 0 && text[len(text)-1] != '\n' {
			fmt.Fprintln(w)
		}
	}
	if isError {
		return exitError(1)
	}
	return nil
}

// printFailure prints the error of a call that could not be made, as the
// model would read it (a JSON envelope with --format json), and returns
// the exit status error for is_error.
func (g *globalFlags) printFailure(w io.Writer, format spillway.Format, err error) error {
	text := err.Error()
	if !g.modelText && g.client == "" && format != spillway.FormatJSON {
		text = failureText(text)
	}
	if format == spillway.FormatJSON {
		text = render.ErrorEnvelope(err.Error())
	}
	return g.printResult(w, text, nil, true)
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// noticeLine matches a bracketed notice on a line of its own.
var noticeLine = regexp.MustCompile(`(?m)^\[[^\n]*\]$`)

// colorNotices shows the notices in a warning colour (yellow).
func colorNotices(text string) string {
	return noticeLine.ReplaceAllStringFunc(text, func(s string) string {
		return "\x1b[33m" + s + "\x1b[0m"
	})
}
