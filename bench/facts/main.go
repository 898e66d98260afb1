// Command facts scores what a model reads of real tools' outputs: for
// every case of a corpus (testdata/facts: NAME.sh prints the output and
// exits with the tool's code, NAME.facts lists what a model needs from
// it, one "what<TAB>regexp" a line), it counts the facts the text holds
// and the characters it spends, through spillway's CLI fitted to a
// client (spillway bash --client NAME) and through a model of that
// client's own shell tool (internal/factcorpus, checked against the real
// clients by e2e's TestFactsThroughClients).
//
// Usage:
//
//	go run ./bench/facts -spillway BIN [-spillway BIN2 ...] [-client claude-code,codex] [-v]
//
// Each -spillway binary is a column (today's build beside a new one);
// -show NAME prints the texts of one case.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/spillway-dev/spillway/internal/factcorpus"
)

type binaries []string

func (b *binaries) String() string     { return strings.Join(*b, ",") }
func (b *binaries) Set(s string) error { *b = append(*b, s); return nil }

func main() {
	var bins binaries
	flag.Var(&bins, "spillway", "a spillway binary to score (repeatable: one column each)")
	dir := flag.String("dir", "testdata/facts", "the corpus")
	clients := flag.String("client", "claude-code,codex", "the clients, comma-separated")
	show := flag.String("show", "", "print the texts of this case")
	verbose := flag.Bool("v", false, "name each fact missed")
	flag.Parse()
	if len(bins) == 0 {
		fmt.Fprintln(os.Stderr, "facts: give at least one -spillway binary")
		os.Exit(2)
	}
	cases, err := factcorpus.Load(*dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "facts:", err)
		os.Exit(1)
	}
	for _, client := range strings.Split(*clients, ",") {
		if err := score(client, cases, bins, *dir, *show, *verbose); err != nil {
			fmt.Fprintln(os.Stderr, "facts:", err)
			os.Exit(1)
		}
	}
}

func score(client string, cases []factcorpus.Case, bins []string, dir, show string, verbose bool) error {
	fmt.Printf("\n### --client %s\n\n| case |", client)
	for _, b := range bins {
		fmt.Printf(" %s |", filepath.Base(b))
	}
	fmt.Printf(" %s's own tool |\n|---|", client)
	for range bins {
		fmt.Print("---|")
	}
	fmt.Println("---|")
	sums := make([]factcorpus.Score, len(bins)+1)
	var notes []string
	for _, c := range cases {
		var row []factcorpus.Score
		for _, b := range bins {
			text, err := spillway(b, client, dir, c.Name)
			if err != nil {
				return err
			}
			row = append(row, c.Count(text, false))
			if show == c.Name {
				fmt.Printf("----- %s, %s:\n%s\n-----\n", b, client, text)
			}
		}
		out, code, err := factcorpus.Run(dir, c.Name)
		if err != nil {
			return err
		}
		text, ok := factcorpus.OwnTool(client, out, code)
		if !ok {
			return fmt.Errorf("no model of %s's own tool", client)
		}
		if show == c.Name {
			fmt.Printf("----- %s's own tool:\n%s\n-----\n", client, text)
		}
		// Claude Code's Bash shows a success as a result that is not an
		// error, without an exit code.
		row = append(row, c.Count(text, code == 0 && client == "claude-code"))
		fmt.Printf("| %s |", c.Name)
		for i, x := range row {
			fmt.Printf(" %s |", x)
			sums[i].Add(x)
			if verbose && len(x.Missed) > 0 {
				col := client + "'s own tool"
				if i < len(bins) {
					col = filepath.Base(bins[i])
				}
				notes = append(notes, fmt.Sprintf("%s, %s: missed %s", c.Name, col, strings.Join(x.Missed, "; ")))
			}
		}
		fmt.Println()
	}
	fmt.Print("| **all** |")
	for _, s := range sums {
		fmt.Printf(" **%s** |", s)
	}
	fmt.Println()
	for _, n := range notes {
		fmt.Println("-", n)
	}
	return nil
}

// spillway is the text spillway's bash gives the model of the case.
func spillway(bin, client, dir, name string) (string, error) {
	cmd := exec.Command(bin, "bash", "--client", client, "--cwd", dir, "bash "+name+".sh")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) {
		return "", fmt.Errorf("%s bash %s: %v\n%s", bin, name, err, errb.String())
	}
	return strings.TrimSuffix(out.String(), "\n"), nil
}
