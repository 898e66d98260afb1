package spillway

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// An error quotes at most maxQuoted bytes of any one input: a 5 MB path or
// pattern must not come back as a 5 MB error. maxError bounds the whole
// message whatever it quotes.
const (
	maxQuoted = 200
	maxError  = 2000
)

// A clippedError is an error whose message quotes its inputs shortened;
// errors.Is and errors.As still see the original.
type clippedError struct {
	msg string
	err error
}

func (e *clippedError) Error() string { return e.msg }
func (e *clippedError) Unwrap() error { return e.err }

// clipError returns err with every long input it quotes (as given, or
// escaped by %q) shortened to about maxQuoted bytes, and the message held
// to maxError.
func clipError(err error, inputs ...string) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	if len(msg) <= maxQuoted {
		return err
	}
	out := msg
	for _, in := range inputs {
		if len(in) <= maxQuoted {
			continue
		}
		out = strings.ReplaceAll(out, in, clipText(in, maxQuoted))
		if q := strconv.Quote(in); q[1:len(q)-1] != in {
			out = strings.ReplaceAll(out, q[1:len(q)-1], clipText(q[1:len(q)-1], maxQuoted))
		}
	}
	out = clipText(out, maxError)
	if out == msg {
		return err
	}
	return &clippedError{msg: out, err: err}
}

// clipText shortens s to about n bytes: its start and its end around a
// mark that says how much was left out, cut on character boundaries.
func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	head, tail := n*3/5, n/4
	for head > 0 && !utf8.RuneStart(s[head]) {
		head--
	}
	start := len(s) - tail
	for start < len(s) && !utf8.RuneStart(s[start]) {
		start++
	}
	return s[:head] + "…[" + strconv.Itoa(start-head) + " bytes left out]…" + s[start:]
}

// envInputs lists the keys and values of env, for clipError.
func envInputs(env map[string]string) []string {
	var in []string
	for k, v := range env {
		in = append(in, k, v)
	}
	return in
}
