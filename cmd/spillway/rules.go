package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/spillway-dev/spillway"
)

func (g *globalFlags) newRulesCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "rules",
		Short: "Check a command against the command rules, or list those in force",
		Long: `rules shows how the command rules of the config's [rules] (and the
Claude Code and Codex rules it imports) decide bash commands, without
running anything. docs/rules.md explains the rules.`,
		Args: cobra.NoArgs,
	}
	cmd.AddCommand(g.newRulesCheckCmd(), g.newRulesListCmd(), g.newRulesTrustCmd())
	return cmd
}

func (g *globalFlags) newRulesCheckCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "check [--json] COMMAND...",
		Short: "Print the decision on a command, then each part's rule and source",
		Long: `check decides COMMAND as spillway's bash tool would, without running it:
the words are joined with spaces and read as bash, every simple command
in it is decided on its own, and the first word printed is the decision
on the whole (allow, ask or deny). Each part follows, with the rule that
decided it and where that rule is written, or why no rule did. --json
prints {"decision", "parts": [{command, decision, rule, source, ...}]}.

Exit status: the decision, as a script tests it: 0 for allow, 1 for
deny, 3 for ask; 2 for bad usage or a config that does not load.`,
		Example: `  spillway rules check git push origin main
  spillway rules check 'make && rm -rf build'
  spillway rules check --json -- sudo -u x rm -rf /`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ts, err := g.newCLIToolset()
			if err != nil {
				return err
			}
			defer ts.Close()
			d := ts.CheckCommand(strings.Join(args, " "))
			if d == nil {
				d = &spillway.RulesDetails{Decision: "allow", Parts: []spillway.RulePart{}}
			}
			if asJSON {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetEscapeHTML(false)
				if err := enc.Encode(d); err != nil {
					return err
				}
			} else {
				writeDecision(cmd.OutOrStdout(), *d, ts.Policy().Rules.Configured())
			}
			return decisionStatus(d.Decision)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the decision as JSON")
	// The command's own options are words of the command: flags end at
	// its first word.
	cmd.Flags().SetInterspersed(false)
	return cmd
}

// decisionStatus is the exit status of rules check: 0 only for allow,
// so that "spillway rules check CMD && CMD" never runs what a rule holds.
func decisionStatus(decision string) error {
	switch decision {
	case "allow":
		return nil
	case "deny":
		return exitError(1)
	}
	return exitError(3)
}

// writeDecision prints the decision, then one line a part.
func writeDecision(w io.Writer, d spillway.RulesDetails, configured bool) {
	fmt.Fprintln(w, d.Decision)
	if !configured {
		fmt.Fprintln(w, "  no rules are configured ([rules] in the config): every command is allowed")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, p := range d.Parts {
		why := p.Reason
		if p.Rule != "" {
			// The rule is a column of its own, so that the sources
			// line up.
			why = p.Rule + "\t" + p.Source
			if p.Reason != "" {
				why += "  (" + p.Reason + ")"
			}
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", p.Decision, p.Command, why)
	}
	tw.Flush()
}

func (g *globalFlags) newRulesListCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "Print the command rules in force with their sources",
		Long: `list prints the default decision, then every rule in force (deny
rules first) with where it is written, then the rules files the imports
read, the files that could not be read or evaluated (import failures:
every command asks while one is), and each imported entry not held as
written: widened (a deny or ask entry held on more commands), exact (an
allow entry held as that exact input), dropped (an allow entry left
out) or suspended (a project's allow entry, until the person trusts the
project: spillway rules trust). Run it in the project directory: a
project's .claude/ and .codex/ rules are read from there.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ts, err := g.newCLIToolset()
			if err != nil {
				return err
			}
			defer ts.Close()
			w := cmd.OutOrStdout()
			p := ts.Policy().Rules
			if !p.Configured() && len(ts.RuleList()) == 0 {
				fmt.Fprintln(w, "no rules are configured ([rules] in the config): every command is allowed")
				return nil
			}
			def := p.Default
			if def == "" {
				def = "allow"
			}
			fmt.Fprintf(w, "default: %s\n", def)
			tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
			for _, r := range ts.RuleList() {
				line := fmt.Sprintf("%s\t%s\t%s", r.Decision, r.Rule, r.Source)
				if r.Justification != "" {
					line += "\t" + r.Justification
				}
				fmt.Fprintln(tw, line)
			}
			tw.Flush()
			files, guarded := ts.FileRuleLines()
			for _, l := range files {
				fmt.Fprintf(w, "file tools: %s\n", l)
			}
			if guarded > 0 {
				fmt.Fprintf(w, "file tools: ask before changing %d rules files (the project's, yours, the state file)\n", guarded)
			}
			for _, f := range ts.RuleFiles() {
				fmt.Fprintf(w, "read: %s\n", f)
			}
			for _, f := range ts.ImportFailures() {
				fmt.Fprintf(w, "import failure: %s (every bash command asks until it is fixed)\n", f)
			}
			for _, n := range ts.RuleNotes() {
				fmt.Fprintf(w, "note: %s\n", n)
			}
			for _, l := range ts.ExecDenyLines() {
				fmt.Fprintln(w, l)
			}
			return nil
		},
	}
}

func (g *globalFlags) newRulesTrustCmd() *cobra.Command {
	var revoke bool
	cmd := &cobra.Command{
		Use:   "trust [--revoke] [DIR]",
		Short: "Trust a project's rule files, so that their allow entries count",
		Long: `trust shows the allow entries of a project's own rule files
(.claude/settings.json, .claude/settings.local.json, .codex/rules/*.rules,
a spillway config inside it) and asks, on the terminal, whether they may
count. Until then only their deny and ask entries do. The answer is kept
in spillway's state file (~/.local/state/spillway/state.json) with the
hash of those files: any later change to them suspends the project's
allow entries until it is trusted again. DIR is the working directory
by default; --revoke withdraws the trust. The question is read from
/dev/tty, never from stdin, and a command spillway runs cannot answer
it.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := "."
			if len(args) == 1 {
				dir = args[0]
			}
			abs, err := filepath.Abs(dir)
			if err != nil {
				return err
			}
			p, err := g.loadPolicy()
			if err != nil {
				return err
			}
			if revoke {
				if err := p.Rules.RevokeProject(abs); err != nil {
					return err
				}
				fmt.Fprintf(cmd.OutOrStdout(), "%s is no longer trusted\n", abs)
				return nil
			}
			if who := underSpillway(); who != "" {
				return fmt.Errorf("spillway rules trust is run by a command of %s: a project is trusted by the person, in their own terminal", who)
			}
			entries, trusted := p.Rules.ProjectAllowEntries(abs)
			tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
			if err != nil {
				return fmt.Errorf("no terminal to ask on (%v): run spillway rules trust in your own terminal, or add %q to [rules] trusted_projects", err, abs)
			}
			defer tty.Close()
			if trusted {
				fmt.Fprintf(tty, "%s is trusted as its rule files are now.\n", abs)
			}
			if len(entries) == 0 {
				fmt.Fprintf(tty, "%s's rule files hold no allow entry (for the imports of your config: %s).\n", abs, strings.Join(p.Rules.Import, ", "))
			} else {
				fmt.Fprintf(tty, "Trusting %s lets these allow entries of its own files count:\n", abs)
				for _, e := range entries {
					fmt.Fprintf(tty, "  %s\n", e)
				}
			}
			fmt.Fprintf(tty, "Trust %s as its rule files are now? [y/N] ", abs)
			answer, _ := bufio.NewReader(tty).ReadString('\n')
			if a := strings.ToLower(strings.TrimSpace(answer)); a != "y" && a != "yes" {
				return fmt.Errorf("not trusted")
			}
			if err := p.Rules.TrustProject(abs, "tty"); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s is trusted as its rule files are now\n", abs)
			return nil
		},
	}
	cmd.Flags().BoolVar(&revoke, "revoke", false, "withdraw the trust in the project")
	return cmd
}
