package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"golang.org/x/term"
)

// maxStdinArg is the most a tool's argument read from stdin may hold:
// spillway serve takes no larger request, so no model could send a
// larger one either.
const maxStdinArg = 16 << 20

// stdinIsTerminal reports whether spillway's stdin is a terminal, or
// closed: not something to read an argument from unasked.
func stdinIsTerminal() bool {
	fi, err := os.Stdin.Stat()
	return err != nil || (fi.Mode()&os.ModeCharDevice != 0 && term.IsTerminal(int(os.Stdin.Fd())))
}

// stdinArgument gives a command whose first argument may come from stdin
// (apply_patch's patch) that argument: "-" reads it from in, as cat and
// patch do, and so does no argument at all when stdin is not a terminal
// (a pipe, a file, a here-document). An empty stdin is bad usage: most
// likely nothing was piped in.
func stdinArgument(name, what, example string, in io.Reader, terminal bool, args []string) ([]string, error) {
	switch {
	case len(args) > 0 && args[0] != "-":
		return args, nil
	case len(args) == 0 && terminal:
		return nil, fmt.Errorf("spillway %s needs %s, or - to read it from stdin, as in: %s", name, what, example)
	}
	data, err := io.ReadAll(io.LimitReader(in, maxStdinArg+1))
	switch {
	case err != nil:
		return nil, failure{fmt.Errorf("%s: reading %s from stdin: %w", name, what, err)}
	case len(data) > maxStdinArg:
		return nil, failure{fmt.Errorf("%s: %s on stdin is over %d MiB, more than one call takes: split it into several", name, what, maxStdinArg>>20)}
	case len(data) == 0:
		return nil, errors.New("spillway " + name + " read nothing from stdin: give " + what + " as an argument, or pipe it in, as in: " + example)
	}
	if len(args) == 0 {
		return []string{string(data)}, nil
	}
	return append([]string{string(data)}, args[1:]...), nil
}
