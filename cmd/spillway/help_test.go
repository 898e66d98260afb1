package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// Every command's help, as a terminal of 80 columns shows it: its prose
// starts at once, no line (a flag's included) is wider than the terminal
// unless it is one word, and no line of a paragraph breaks early, before a word that would
// have fitted (a paragraph pieced together from parts once printed the
// tools' summary, then "and past calls," alone on a line).
func TestHelpBreaksLinesAtTheWidth(t *testing.T) {
	var walk func(path []string, c *cobra.Command)
	seen := 0
	walk = func(path []string, c *cobra.Command) {
		for _, sub := range c.Commands() {
			if !sub.Hidden && sub.Name() != "help" {
				walk(append(path[:len(path):len(path)], sub.Name()), sub)
			}
		}
		root := newRootCmd()
		var out bytes.Buffer
		root.SetOut(&out)
		root.SetErr(&out)
		root.SetArgs(append(path[:len(path):len(path)], "--help"))
		if err := root.Execute(); err != nil {
			t.Errorf("%q --help: %v", path, err)
			return
		}
		seen++
		checkHelpProse(t, strings.Join(append([]string{"spillway"}, append(path, "--help")...), " "), out.String())
	}
	walk(nil, newRootCmd())
	if seen < 20 {
		t.Errorf("only %d commands' help was checked", seen)
	}
}

// checkHelpProse checks one help text: no line is wider than the terminal
// (the flags' included), and the lines of its prose, before "Usage:",
// break as late as they can.
func checkHelpProse(t *testing.T, name, help string) {
	t.Helper()
	for _, line := range strings.Split(help, "\n") {
		if width := len([]rune(line)); width > helpWidth && strings.Contains(strings.TrimSpace(line), " ") {
			t.Errorf("%s: a line of %d characters: %q", name, width, line)
		}
	}
	prose, _, _ := strings.Cut(help, "\nUsage:")
	if strings.HasPrefix(prose, "\n") {
		t.Errorf("%s starts with a blank line", name)
	}
	lines := strings.Split(prose, "\n")
	for i, line := range lines {
		width := len([]rune(line))
		body := strings.TrimLeft(line, " \t")
		if i+1 == len(lines) || line == "" || line != body {
			continue // the last of a paragraph, or indented: kept as written
		}
		next := lines[i+1]
		if next == "" || next[0] == ' ' || next[0] == '\t' || strings.HasPrefix(next, "- ") {
			continue
		}
		word, _, _ := strings.Cut(next, " ")
		if width+1+len([]rune(word)) <= helpWidth {
			t.Errorf("%s: %q breaks before %q, which fits on it", name, line, word)
		}
	}
}
