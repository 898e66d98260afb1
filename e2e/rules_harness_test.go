package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/spillway-dev/spillway/internal/rules"
)

// The harness of the rules tests: a bypass table is handed to a client
// headless, a command per call of the stand-in model, under rules written
// in the client's own syntax, and what the client ran is counted beside
// what spillway allows. Nothing of a table runs: the client's shell is a
// stand-in that only prints fakeShellMark, and a first session checks
// that it is the shell the client uses.

const fakeShellMark = "FAKE-SHELL-RAN"

// readTable reads a bypass table of internal/rules/testdata (JSON Lines),
// cut to its first N attempts when SPILLWAY_E2E_RULES=N.
func readTable[T any](t *testing.T, name string) []T {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "internal", "rules", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cs []T
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var c T
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		cs = append(cs, c)
	}
	if n, err := strconv.Atoi(os.Getenv("SPILLWAY_E2E_RULES")); err == nil && n > 1 && n < len(cs) {
		cs = cs[:n]
	}
	return cs
}

// commandsOf lists the command of each attempt of a table.
func commandsOf[T any](cases []T, command func(T) string) []string {
	cmds := make([]string, len(cases))
	for i, c := range cases {
		cmds[i] = command(c)
	}
	return cmds
}

// ruleSet is spillway's rule set of deny, ask and allow patterns under
// the default def.
func ruleSet(t *testing.T, def rules.Decision, deny, ask, allow []string) *rules.Set {
	t.Helper()
	s := &rules.Set{Default: def}
	add := func(d rules.Decision, ps []string) {
		for _, p := range ps {
			pt, err := rules.ParsePattern(p)
			if err != nil {
				t.Fatal(err)
			}
			s.Rules = append(s.Rules, rules.Rule{Text: p, Pattern: pt, Decision: d})
		}
	}
	add(rules.Deny, deny)
	add(rules.Ask, ask)
	add(rules.Allow, allow)
	return s
}

// bashRules writes patterns as Claude Code's Bash(…) permissions.
func bashRules(ps []string) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = "Bash(" + p + ")"
	}
	return out
}

// standInShell writes, below dir, the shell that only prints the mark.
func standInShell(t *testing.T, dir string) string {
	t.Helper()
	shell := filepath.Join(dir, "bin", "bash")
	os.MkdirAll(filepath.Dir(shell), 0o755)
	if err := os.WriteFile(shell, []byte("#!/bin/sh\nprintf '"+fakeShellMark+"\\n'\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return shell
}

// checkProbe runs, through run, a command that would leave a file in dir
// if a real shell ran it, and stops the test unless the client ran it
// with the stand-in shell: otherwise what (the corpus, the table) is not
// run.
func checkProbe(t *testing.T, client, what, dir string, run func(cmds []string) []seen) {
	t.Helper()
	probe := filepath.Join(dir, "probe")
	got := run([]string{"touch " + probe})
	if _, err := os.Stat(probe); err == nil {
		t.Fatalf("%s ran the probe with a real shell; %s is not run", client, what)
	}
	if !strings.Contains(got[0].Text(), fakeShellMark) {
		t.Fatalf("the probe did not reach the stand-in shell: %s", tail(got[0].Text(), 500))
	}
}

// runRulesSession runs one headless session of client (cmd), whose
// stand-in model is api, and returns what the client handed back for each
// of its calls.
func runRulesSession(t *testing.T, client, short string, cmd *exec.Cmd, api *modelAPI) []seen {
	t.Helper()
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v\n%s", short, err, tail(out.String(), 3000))
	}
	got := api.Results()
	if len(got) != len(api.script) {
		t.Fatalf("%s handed back %d of %d results\n%s", client, len(got), len(api.script), tail(out.String(), 3000))
	}
	return got
}
