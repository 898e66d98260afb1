package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/spillway-dev/spillway"
	"github.com/spillway-dev/spillway/internal/registry"
	"github.com/spillway-dev/spillway/output"
)

// A tool's notices tell the model how to go on in its own terms: the next
// call's parameters ("Use offset=688 to continue"), a job's pid for
// check_pid. A person, a script or an agent that calls the CLI through its
// own shell tool follows a command line instead, so the CLI says each
// next call as the spillway command that makes it. --model-text (or
// --client) prints the model's text unchanged.

// personText rewrites the hints of a result's text as CLI commands. The
// next calls are those the details carry ("next", at any depth); cmd and
// call are the command that ran, whose flags a next call of the same tool
// keeps.
func personText(text string, details any, cmd *cobra.Command, current spillway.ToolCall) string {
	var cur map[string]any
	json.Unmarshal(current.Args, &cur)
	global := globalArgs(cmd)
	text = nextCallsText(text, nextCalls(details), current.Name, cur, global)
	if strings.Contains(text, "Use check_pid=") {
		text = jobHint.ReplaceAllString(text, "spillway stops it as this command exits (each command is a session of its own): give a longer --timeout to wait for it, or run it under spillway mcp to keep it.")
	}
	if strings.Contains(text, "seems to wait for input") && inputHint.MatchString(text) {
		text = pipedInputText(text, current.Name, cur, global)
	}
	// The same call with other values ("Use limit=200 for more").
	if strings.Contains(text, "Use ") {
		text = sameCallText(text, current.Name, cur, global)
	}
	return failureText(text)
}

// nextCallsText says each of calls, where text names it by its words, as
// the command line that makes it.
func nextCallsText(text string, calls []output.Call, tool string, cur map[string]any, global []string) string {
	for i, next := range calls {
		line := commandLine(next, tool, cur, global)
		if line == "" {
			continue
		}
		// The words with the path first: were "offset=90 limit=1" put
		// in the place of "path=f offset=90 limit=1", "path=f" would be
		// left before the command.
		for _, omitPath := range []bool{false, true} {
			w := next.Words(omitPath)
			if !strings.Contains(text, w) {
				continue // what follows scans the whole text for w
			}
			// Calls with the same words (each stream's "offset=5
			// limit=90") are each the first left of theirs, in the
			// order the details and the text both give the streams;
			// a call alone in its words is every place they appear.
			all := !sameWords(calls[i+1:], w, omitPath)
			var said bool
			if text, said = sayCall(text, w, line, all); said {
				break
			}
		}
	}
	return text
}

// sayCall puts the command line in the place of a call's words w in
// text: "Use w" becomes "Run line", w alone becomes line; in every
// place, or the first when all is false. It reports whether text holds
// w as words.
func sayCall(text, w, line string, all bool) (string, bool) {
	repl := strings.ReplaceAll(line, "$", "$$")
	// The words end where the value does: offset=4 is not offset=40.
	words := regexp.QuoteMeta(w) + `([^0-9A-Za-z_]|$)`
	re := regexp.MustCompile(`(?:\bUse|\b\w+ it with|\bread with) ` + words)
	if re.MatchString(text) {
		text = replace(re, text, "run "+repl+"$1", all)
		text = strings.ReplaceAll(text, ". run spillway", ". Run spillway")
		text = strings.ReplaceAll(text, "[run spillway", "[Run spillway")
		return text, true
	}
	re = regexp.MustCompile(`\b` + words)
	if re.MatchString(text) {
		return replace(re, text, repl+"$1", all), true
	}
	return text, false
}

// pipedInputText rewrites the notice of a job that waits for input: on
// a terminal (the only input spillway watches in the CLI, which passes
// its own stdin through) nothing can be typed once the command runs;
// piped in, the input is there from the start.
func pipedInputText(text, tool string, cur map[string]any, global []string) string {
	piped := map[string]any{}
	for k, v := range cur {
		if k != "tty" && k != "cols" && k != "rows" && k != "timeout" {
			piped[k] = v
		}
	}
	line := commandLine(output.Call{"tool": tool}, tool, piped, global)
	return inputHint.ReplaceAllString(text, "[pid ${1} waits for input, which a one-shot command cannot type into its terminal, so spillway stops it. Give the input on spillway's stdin instead, as in printf 'INPUT\\n' | "+strings.ReplaceAll(line, "$", "$$")+
		", use the program's flags that need no input, or run it under spillway mcp, where write_stdin answers it.]")
}

// sameCallText says the hints of parameters alone ("Use limit=200 for
// more") as the command that ran with those values.
func sameCallText(text, tool string, cur map[string]any, global []string) string {
	return sameCall.ReplaceAllStringFunc(text, func(m string) string {
		sub := sameCall.FindStringSubmatch(m)
		next, ok := sameCallOf(tool, sub[1])
		if !ok {
			return m
		}
		line := commandLine(wholeNumbers(next), tool, cur, global)
		if line == "" {
			return m
		}
		return "Run " + line + sub[2]
	})
}

// sameCallOf is the call of tool with the values words give
// ("limit=200 offset=3"); false when one is not a parameter the CLI
// takes, or not JSON.
func sameCallOf(tool, words string) (output.Call, bool) {
	next := output.Call{"tool": tool}
	for _, w := range strings.Fields(words) {
		k, v, _ := strings.Cut(w, "=")
		if p, ok := paramOf(tool, k); !ok || p.SessionOnly {
			return nil, false
		}
		var x any
		if json.Unmarshal([]byte(v), &x) != nil {
			return nil, false
		}
		next[k] = x
	}
	return next, true
}

// sameWords reports whether one of calls is said in the words w.
func sameWords(calls []output.Call, w string, omitPath bool) bool {
	for _, c := range calls {
		if c.Words(omitPath) == w {
			return true
		}
	}
	return false
}

// replace replaces every match of re in s, or only the first.
func replace(re *regexp.Regexp, s, repl string, all bool) string {
	if all {
		return re.ReplaceAllString(s, repl)
	}
	m := re.FindStringSubmatchIndex(s)
	if m == nil {
		return s
	}
	return s[:m[0]] + string(re.ExpandString(nil, repl, s, m)) + s[m[1]:]
}

// failureText says the tools and parameters a failure's hint names as
// commands and flags.
//
// The text may be a whole result (a grep's tens of kilobytes), which each
// regular expression would scan at a few megabytes a second: over Go's
// tree these scans were a tenth of the CLI's own CPU time. So each runs
// only where a literal that all of its matches contain is in the text,
// which strings.Contains finds at memory speed.
func failureText(text string) string {
	if strings.Contains(text, "to locate it") {
		text = useTools.ReplaceAllString(text, "Use spillway find or spillway ls to locate it")
	}
	if strings.Contains(text, useLsWords) {
		text = useLs.ReplaceAllStringFunc(text, func(m string) string {
			dir := useLs.FindStringSubmatch(m)[1]
			return dir + " is a directory, not a file. Run spillway ls " + shellQuote(dir) + " to list it"
		})
	}
	// A one-shot command has read nothing: only the hash can say the
	// file is the one meant.
	text = strings.Replace(text, unseenWords, "Give --expected-sha256 with its sha256 (sha256sum prints it) to replace it knowingly", 1)
	text = strings.Replace(text, unseenAddWords, "Use *** Update File: to change it, or spillway write --expected-sha256 to replace it whole", 1)
	if !strings.Contains(text, "literal=true") {
		return text
	}
	return literal.ReplaceAllStringFunc(text, func(m string) string {
		if strings.HasPrefix(m, "set ") {
			return "give -F (--literal)"
		}
		return "with -F (--literal)"
	})
}

// unseenWords end write's refusal of a file the session has not seen.
const unseenWords = "Read it first, or give expected_sha256 (its sha256) to replace it knowingly"

// unseenAddWords end apply_patch's refusal to add a file that exists and
// that the session has not seen; a one-shot command has read nothing, so
// reading it first cannot help there.
const unseenAddWords = "Use *** Update File: to change it, or read it first"

// useLsWords end read's hint for a directory, after its path.
const useLsWords = " is a directory, not a file. Use ls to list it"

var (
	// jobHint is the sentence that names a job's check_pid and kill_pid.
	jobHint = regexp.MustCompile(`Use check_pid=\d+(?: again)?(?: timeout=\d+)? for [^,\]]*, kill_pid=\d+ to stop (?:it|them)\.`)
	// inputHint is the notice of a job that waits for input.
	inputHint = regexp.MustCompile(`\[pid (\d+) seems to wait for input: send it with write_stdin[^\n]*\]`)
	// sameCall is a hint of parameters alone: the call that ran, with
	// these values.
	sameCall = regexp.MustCompile(`\bUse ((?:[a-z_]+=[^ \]]+ ?)+?)( for| to|\]|,)`)
	useTools = regexp.MustCompile(`Use find or ls to locate it|Use find to locate it`)
	// useLs is read's hint for a directory.
	useLs = regexp.MustCompile(`(?m)^(.+)` + regexp.QuoteMeta(useLsWords))
	// literal is grep's parameter named in a failure's hint.
	literal = regexp.MustCompile(`(set |with )literal=true`)
)

// nextCalls finds the calls a result's details name under "next", in the
// order the details give them (stdout's before stderr's, as the text has
// them).
func nextCalls(details any) []output.Call {
	data, err := json.Marshal(details)
	if err != nil {
		return nil
	}
	f := callFinder{dec: json.NewDecoder(bytes.NewReader(data))}
	if f.value(false) != nil {
		return nil
	}
	return f.calls
}

// A callFinder reads details as JSON tokens and keeps the calls found
// under "next".
type callFinder struct {
	dec   *json.Decoder
	calls []output.Call
}

// value reads one value; under "next" its objects are calls.
func (f *callFinder) value(next bool) error {
	tok, err := f.dec.Token()
	if err != nil {
		return err
	}
	switch tok {
	case json.Delim('{'):
		if next {
			return f.call()
		}
		return f.object()
	case json.Delim('['):
		return f.array(next)
	}
	return nil
}

// call reads the rest of an object under "next": a call when it names a
// tool.
func (f *callFinder) call() error {
	m := map[string]any{}
	for f.dec.More() {
		k, err := f.dec.Token()
		if err != nil {
			return err
		}
		var v any
		if err := f.dec.Decode(&v); err != nil {
			return err
		}
		m[fmt.Sprint(k)] = v
	}
	if _, err := f.dec.Token(); err != nil {
		return err
	}
	if m["tool"] != nil {
		f.calls = append(f.calls, wholeNumbers(m))
	}
	return nil
}

// object reads the rest of an object: the value of its key "next" may
// hold calls.
func (f *callFinder) object() error {
	for f.dec.More() {
		k, err := f.dec.Token()
		if err != nil {
			return err
		}
		if err := f.value(k == "next"); err != nil {
			return err
		}
	}
	_, err := f.dec.Token()
	return err
}

// array reads the rest of an array, whose objects are calls under
// "next".
func (f *callFinder) array(next bool) error {
	for f.dec.More() {
		if err := f.value(next); err != nil {
			return err
		}
	}
	_, err := f.dec.Token()
	return err
}

// wholeNumbers turns the float64s JSON gives back into the integers the
// call was made of, so that its words are the notice's.
func wholeNumbers(m map[string]any) output.Call {
	c := output.Call{}
	for k, v := range m {
		if f, ok := v.(float64); ok && f == float64(int64(f)) {
			v = int64(f)
		}
		c[k] = v
	}
	return c
}

// commandLine is the spillway command that makes call next: the tool's
// positional arguments, then its flags. A next call of the tool that ran
// keeps the parameters the person gave it; the global flags (--profile,
// --config, --root …) are kept as given.
func commandLine(next output.Call, tool string, cur map[string]any, global []string) string {
	t, ok := registry.Lookup(next.Tool())
	if !ok || t.MCPOnly {
		return ""
	}
	values := callValues(next, tool, cur)
	parts := append([]string{"spillway"}, global...)
	parts = append(parts, t.Name)
	for _, p := range t.Params {
		if v, ok := values[p.Name]; ok && p.Positional {
			parts = append(parts, shellQuote(fmt.Sprint(v)))
		}
	}
	for _, p := range t.Params {
		if v, ok := values[p.Name]; ok && !p.Positional {
			parts = append(parts, flagWords("--"+flagName(p), v)...)
		}
	}
	return strings.Join(parts, " ")
}

// callValues are the parameters of call next: those the person gave the
// tool that ran (cur) when next calls it again, then next's own.
func callValues(next output.Call, tool string, cur map[string]any) map[string]any {
	values := map[string]any{}
	if next.Tool() == tool {
		for k, v := range cur {
			values[k] = v
		}
		if limit, ok := restOfRange(next, cur); ok {
			values["limit"] = limit
		}
	}
	for k, v := range next {
		if k == "tool" || (k == "path" && samePath(values[k], v)) {
			continue // the path as the person wrote it
		}
		values[k] = v
	}
	return values
}

// flagWords are the command-line words that give flag the value v: a
// true bool the flag alone, a list or a map the flag once an item.
func flagWords(flag string, v any) []string {
	var words []string
	switch v := v.(type) {
	case bool:
		if v {
			words = append(words, flag)
		}
	case []any:
		for _, x := range v {
			words = append(words, flag, shellQuote(fmt.Sprint(x)))
		}
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(v)) {
			words = append(words, flag, shellQuote(k+"="+fmt.Sprint(v[k])))
		}
	default:
		words = append(words, flag, shellQuote(fmt.Sprint(v)))
	}
	return words
}

// restOfRange is the limit of a next page that the person's own
// --offset and --limit asked for and the page did not reach (a page cut
// by bytes): the rest of that range, not the whole --limit again from
// the new offset, which would run past it. A page that reached its limit
// keeps the limit, a page of the same size.
func restOfRange(next output.Call, cur map[string]any) (int64, bool) {
	if _, named := next["limit"]; named {
		return 0, false
	}
	offset, ok := next["offset"].(int64)
	limit, ok2 := number(cur["limit"])
	if !ok || !ok2 {
		return 0, false
	}
	from, given := number(cur["offset"])
	if !given {
		from = 1
	}
	if rest := from + limit - offset; rest > 0 && rest < limit {
		return rest, true
	}
	return 0, false
}

// number is a whole number of a call's JSON arguments.
func number(v any) (int64, bool) {
	switch v := v.(type) {
	case float64:
		return int64(v), v == float64(int64(v))
	case int64:
		return v, true
	}
	return 0, false
}

// globalArgs are the root's flags the person gave (--profile pi), as
// arguments that go before the command's name.
func globalArgs(cmd *cobra.Command) []string {
	var args []string
	if cmd == nil {
		return nil
	}
	cmd.InheritedFlags().VisitAll(func(f *pflag.Flag) {
		switch {
		case !f.Changed, f.Name == "json", f.Name == "model-text":
			return
		}
		if f.Value.Type() == "bool" {
			args = append(args, "--"+f.Name)
			return
		}
		args = append(args, "--"+f.Name, shellQuote(f.Value.String()))
	})
	return args
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && !strings.ContainsFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:,+@%", r))
	}) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// samePath reports whether the path the person gave and the one a next
// call names are one file.
func samePath(given, next any) bool {
	g, ok1 := given.(string)
	n, ok2 := next.(string)
	if !ok1 || !ok2 {
		return false
	}
	abs, err := filepath.Abs(g)
	return err == nil && abs == filepath.Clean(n)
}

// paramOf finds a parameter of a tool.
func paramOf(tool, name string) (registry.Param, bool) {
	t, ok := registry.Lookup(tool)
	if !ok {
		return registry.Param{}, false
	}
	return t.Param(name)
}
