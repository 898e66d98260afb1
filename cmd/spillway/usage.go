package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/spillway-dev/spillway/internal/registry"
)

// A usage error says what to do next: the flag that was probably meant,
// or, for bash, that the command is one quoted argument.

// flagError is the command tree's flag error function: the parser's error
// with the next step added.
func flagError(cmd *cobra.Command, err error) error {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "unknown flag: --"); ok {
		if s := closestFlag(cmd.Flags(), name); s != "" {
			return fmt.Errorf("%s: did you mean --%s? (%s --help lists the flags)", msg, s, cmd.CommandPath())
		}
		return fmt.Errorf("%s (%s --help lists the flags)", msg, cmd.CommandPath())
	}
	if cmd.Name() == "bash" && strings.HasPrefix(msg, "unknown shorthand flag") {
		return fmt.Errorf("%s: the command's own flags belong inside its quotes: spillway bash '%s'", msg, commandWords())
	}
	if text, ok := cliTexts[cmd.Name()]; ok && strings.HasPrefix(msg, "unknown shorthand flag") && text.foreign != nil {
		if line, why := withoutForeignFlags(cmd.Name(), text.foreign); line != "" {
			return fmt.Errorf("%s; type: %s (%s --help lists the flags)", why, line, cmd.CommandPath())
		}
	}
	return err
}

// withoutForeignFlags is the command line as the person typed it, with the
// short flags of another tool (grep -r) replaced by spillway's (or left
// out), and why.
func withoutForeignFlags(tool string, foreign map[string]foreignFlag) (line, why string) {
	i := slices.Index(os.Args, tool)
	if i < 0 {
		return "", ""
	}
	var whys []string
	out := []string{"spillway"}
	for _, a := range os.Args[1:] {
		if len(a) < 2 || a[0] != '-' || a[1] == '-' {
			out = append(out, shellQuote(a))
			continue
		}
		kept := "-"
		for _, r := range a[1:] {
			if f, ok := foreign[string(r)]; ok {
				whys = append(whys, "spillway "+tool+" takes no -"+string(r)+": "+f.why)
				if f.instead != "" {
					out = append(out, f.instead)
				}
				continue
			}
			kept += string(r)
		}
		if kept != "-" {
			out = append(out, kept)
		}
	}
	if len(whys) == 0 {
		return "", ""
	}
	return strings.Join(out, " "), strings.Join(whys, "; ")
}

// A foreignFlag is a short flag of another program's tool that people type
// out of habit: what spillway's takes instead ("" when it needs none), and
// why.
type foreignFlag struct{ instead, why string }

// closestFlag is the flag of fs nearest to name (at most two edits, or a
// prefix of it), "" when none is near.
func closestFlag(fs *pflag.FlagSet, name string) string {
	best, bestDist := "", 3
	fs.VisitAll(func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		d := editDistance(name, f.Name)
		if strings.HasPrefix(f.Name, name) && len(name) >= 3 {
			d = min(d, 1)
		}
		if d < bestDist {
			best, bestDist = f.Name, d
		}
	})
	return best
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// commandWords are the words after "bash" on the command line, as the
// command the person meant; "ls -la" when they cannot be found.
func commandWords() string {
	for i, a := range os.Args {
		if a == "bash" && i+1 < len(os.Args) {
			return strings.Join(os.Args[i+1:], " ")
		}
	}
	return "ls -la"
}

// A failure is an error of a command that was used rightly but could not
// do its work (a busy port): exit status 1, not bad usage's 2.
type failure struct{ error }

func (f failure) Unwrap() error { return f.error }

// zeroRefused reports whether t's check refuses a call that gives
// nothing (bash: a command, or the pid of a job, which a one-shot command
// cannot have): on the CLI, its first argument is then always needed.
func zeroRefused(t tool) bool { return registry.Check(t, t.New()) != nil }

// sessionOnly refuses the parameters that act on what an earlier call of
// the same session left: each spillway command is a session of its own.
func sessionOnly(cmd *cobra.Command, t tool) error {
	for _, p := range t.Params {
		if p.SessionOnly && cmd.Flags().Changed(flagName(p)) {
			return fmt.Errorf("--%s works across the calls of one session (a background job, a named shell, an earlier run), and each spillway %s is a session of its own that ends as it returns: use it through spillway mcp or serve, where a session lasts as long as its client", flagName(p), t.Name)
		}
	}
	return nil
}

// argsCheck checks a tool command's arguments, and says what to type
// instead when they do not fit.
func argsCheck(t tool, text cliText, positional []param, required int) cobra.PositionalArgs {
	var names []string
	for i, p := range positional {
		n := strings.ToUpper(p.Name)
		if i >= required {
			n = "[" + n + "]"
		}
		names = append(names, n)
	}
	want := strings.Join(names, " ")
	return func(cmd *cobra.Command, args []string) error {
		if err := sessionOnly(cmd, t); err != nil {
			return err
		}
		switch {
		case len(args) < required:
			return fmt.Errorf("spillway %s needs %s, as in: %s", t.Name, strings.Join(names[:required], " "), firstExample(t))
		case len(args) > len(positional):
			if text.manyArgs != nil {
				return fmt.Errorf("spillway %s takes %s, got %d arguments: %s", t.Name, want, len(args), text.manyArgs(args))
			}
			return fmt.Errorf("spillway %s takes %s, got %d arguments", t.Name, want, len(args))
		}
		return nil
	}
}

// firstExample is the first line of a command's examples.
func firstExample(t tool) string {
	line, _, _ := strings.Cut(strings.TrimSpace(t.CLI.Example), "\n")
	return strings.TrimSpace(line)
}

// quoted joins args into one argument for a shell line.
func quoted(args []string) string { return shellQuote(strings.Join(args, " ")) }

// commonGlob guesses the glob a shell expanded into args: "*" and the
// extension they share, if any.
func commonGlob(args []string) string {
	ext := filepath.Ext(args[0])
	for _, a := range args {
		if filepath.Ext(a) != ext {
			return "*"
		}
	}
	return "*" + ext
}
