package registry

import (
	"strconv"
	"strings"
)

// The prose that names the tools (the package doc's readers, the MCP
// server's instructions, docs/tools.md, the CLI's help) is made from the
// tools table, so that a tool added to the table is never missing from the
// words that introduce the server.

// coreTools names the tools an agent lives on, in the table's order:
// those that are CLI commands too.
func coreTools(tools []Tool) []string {
	return toolNames(tools, func(t Tool) bool { return !t.MCPOnly })
}

// jobTools names the tools that only an MCP session has: they manage the
// background jobs and the history that a one-shot CLI session does not
// keep.
func jobTools(tools []Tool) []string {
	return toolNames(tools, func(t Tool) bool { return t.MCPOnly })
}

func toolNames(tools []Tool, keep func(Tool) bool) []string {
	var names []string
	for _, t := range tools {
		if keep(t) {
			names = append(names, t.Name)
		}
	}
	return names
}

// Summary says in one phrase which tools spillway serves, e.g.
// "eight tools: bash, read, grep, find, ls, and write_stdin, jobs, history
// for background commands and past calls".
func Summary(tools []Tool) string {
	core, jobs := coreTools(tools), jobTools(tools)
	return numberWord(len(core)+len(jobs)) + " tools: " + strings.Join(core, ", ") +
		", and " + strings.Join(jobs, ", ") + " for background commands and past calls"
}

// numberWord spells n in English for the small counts of prose.
func numberWord(n int) string {
	words := []string{"no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
		"ten", "eleven", "twelve"}
	if n >= 0 && n < len(words) {
		return words[n]
	}
	return strconv.Itoa(n)
}
