package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/spillway-dev/spillway"
	"github.com/spillway-dev/spillway/internal/visible"
)

// ttyAsker asks the person at the terminal about a command a rule holds
// for approval: y/N, read from /dev/tty and never from stdin, so that
// input piped into spillway cannot answer it. It guards the person's own
// slips (a paste, a script run by hand); it is no boundary against an
// agent that runs the CLI through its own shell with a terminal, and the
// docs say so. Without a terminal it says, in plain words, how to allow
// the command instead.
func ttyAsker(ctx context.Context, command, cwd string, parts []spillway.RulePart) (string, error) {
	if who := underSpillway(); who != "" {
		return "", fmt.Errorf("this spillway runs under %s, whose commands cannot answer for the person", who)
	}
	tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		return "", errors.New("there is no terminal to ask the person on")
	}
	defer tty.Close()
	// A terminal acts on what the agent wrote (an escape that moves up
	// and clears a line, a carriage return): each such character is
	// written as its code.
	fmt.Fprintf(tty, "spillway: a rule asks first before running, in %s:\n  %s\n", visible.Indented(cwd, "  "), visible.Indented(command, "  "))
	for _, p := range parts {
		why := p.Reason
		if p.Rule != "" {
			why = "the rule " + p.Rule + " (" + p.Source + ")"
		}
		fmt.Fprintf(tty, "  %s: %s\n", visible.Indented(p.Command, "    "), visible.Indented(why, "    "))
	}
	fmt.Fprint(tty, "Run it? [y/N] ")
	answer := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(tty).ReadString('\n')
		answer <- line
	}()
	select {
	case <-ctx.Done():
		fmt.Fprintln(tty)
		return "deny", nil
	case a := <-answer:
		if a := strings.ToLower(strings.TrimSpace(a)); a == "y" || a == "yes" {
			return "allow once", nil
		}
		return "deny", nil
	}
}
