package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
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
	return err
}

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

// bashArgs accepts bash's COMMAND (or none, for a job call) and says to
// quote a command given as several words.
func bashArgs(cmd *cobra.Command, args []string) error {
	if len(args) <= 1 {
		return nil
	}
	return fmt.Errorf("bash takes the command as one argument, got %d: quote it, as in spillway bash '%s'",
		len(args), strings.Join(args, " "))
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
