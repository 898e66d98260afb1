package output

import (
	"bytes"
	"strings"
)

// Failure lines: lines that report that something failed, in the output
// of the tools agents run most. When a result cuts lines, the ones among
// them that look like failures are shown between its head and its tail
// (docs/notices.md), so that a failure in the middle of a long output is
// never cut blind.
//
// Every kind of line is one entry of failurePatterns. An entry matches a
// line that starts with start (after blanks when indent is set), or that
// holds has, and that check (if any) accepts. re says the same as an RE2
// expression, for the grep call that lists them all; the tests hold each
// entry to an example line printed by the real tool.

type failurePattern struct {
	name   string // the tools that print it
	start  string
	indent bool
	has    string
	check  func(line []byte) bool
	re     string
}

var failurePatterns = []failurePattern{
	// Compilers and linters.
	{name: "gcc, clang, tsc, javac: file:line:col: error", has: ": error", re: `: error`},
	{name: "gcc, clang, go: fatal error", has: "fatal error", re: `fatal error`},
	{name: "rustc, cargo: error[E0308]", start: "error[", re: `^error\[`},
	{name: "rustc, cargo, git, pip: error:", start: "error:", indent: true, re: `^\s*error:`},
	{name: "tsc: error TS2322", has: "error TS", check: afterDigit("error TS"), re: `error TS[0-9]`},
	{name: "go build, go vet: file.go:line:col: message", has: ".go:", check: goPosition, re: `\.go:[0-9]+:[0-9]+: `},
	{name: "ld: undefined reference", has: "undefined reference to", re: `undefined reference to`},
	{name: "make: *** Error", start: "make", check: makeError, re: `^make(\[[0-9]+\])?: \*\*\*`},
	// Test runners.
	{name: "go test: --- FAIL", start: "--- FAIL", indent: true, re: `^\s*--- FAIL`},
	{name: "go test, jest: FAIL", start: "FAIL", check: word("FAIL"), re: `^FAIL\b`},
	{name: "pytest, cargo test, ctest: FAILED", has: "FAILED", re: `FAILED`},
	{name: "pytest: E   assertion", start: "E   ", re: `^E   `},
	{name: "jest: ✕ failed test", start: "✕", indent: true, re: `^\s*✕`},
	{name: "jest: ● failed test", start: "●", indent: true, re: `^\s*●`},
	{name: "rust: panicked at", has: "panicked at", re: `panicked at`},
	{name: "assert: Assertion failed", has: "Assertion", re: `Assertion`},
	{name: "rspec: Failure/Error", has: "Failure/Error:", re: `Failure/Error:`},
	// Runtimes.
	{name: "go: panic:", start: "panic:", re: `^panic:`},
	{name: "python: Traceback", start: "Traceback (most recent call last)", re: `^Traceback \(most recent call last\)`},
	{name: "python, node, java: SomeError: message", check: exceptionLine, re: `^[A-Za-z_][A-Za-z0-9_.]*(Error|Exception)(:|$)`},
	{name: "java: Exception in thread", start: "Exception in thread", re: `^Exception in thread`},
	{name: "shell: Segmentation fault", has: "Segmentation fault", re: `Segmentation fault`},
	{name: "shell: core dumped", has: "(core dumped)", re: `\(core dumped\)`},
	{name: "git: fatal:", start: "fatal:", re: `^fatal:`},
	// Package managers.
	{name: "npm: npm ERR!", start: "npm ERR!", re: `^npm ERR!`},
	{name: "npm 10: npm error", start: "npm error", re: `^npm error`},
	{name: "pip, bazel: ERROR:", start: "ERROR:", re: `^ERROR:`},
	{name: "maven: [ERROR]", start: "[ERROR]", re: `^\[ERROR\]`},
}

// failureNeedles are strings of which every failure line holds at least
// one: a block of output that holds none of them holds no failure line,
// and is passed over with a few vectorised searches.
var failureNeedles = [][]byte{
	[]byte("rror"), []byte("FAIL"), []byte(".go:"), []byte("undefined reference"),
	[]byte("make"), []byte("E   "), []byte("✕"), []byte("●"), []byte("panic"), []byte("Assertion"),
	[]byte("Traceback"), []byte("Exception"), []byte("Segmentation fault"), []byte("core dumped"),
	[]byte("fatal"), []byte("ERR"),
}

// failureGrepPattern is an RE2 expression that matches every line that looks
// like a failure (and a few more): what a grep for them all takes.
var failureGrepPattern = func() string {
	parts := make([]string, len(failurePatterns))
	for i, p := range failurePatterns {
		parts[i] = p.re
	}
	return strings.Join(parts, "|")
}()

// IsFailureLine reports whether line (without its '\n') looks like a line
// that reports a failure.
func IsFailureLine(line []byte) bool {
	if len(line) < 4 || !mayFail(line) {
		return false
	}
	trimmed := bytes.TrimLeft(line, " \t")
	for i := range failurePatterns {
		if failurePatterns[i].matches(line, trimmed) {
			return true
		}
	}
	return false
}

// mayFail reports whether b holds a needle: false means no line of b is a
// failure line.
func mayFail(b []byte) bool {
	for _, n := range failureNeedles {
		if bytes.Contains(b, n) {
			return true
		}
	}
	return false
}

func (p *failurePattern) matches(line, trimmed []byte) bool {
	switch {
	case p.start != "":
		s := line
		if p.indent {
			s = trimmed
		}
		if !bytes.HasPrefix(s, []byte(p.start)) {
			return false
		}
	case p.has != "":
		if !bytes.Contains(line, []byte(p.has)) {
			return false
		}
	}
	return p.check == nil || p.check(line)
}

// afterDigit accepts a line where s is followed by a digit.
func afterDigit(s string) func([]byte) bool {
	return func(line []byte) bool {
		i := bytes.Index(line, []byte(s))
		j := i + len(s)
		return i >= 0 && j < len(line) && isDigit(line[j])
	}
}

// word accepts a line that starts with w followed by nothing, a blank or
// a colon: "FAIL" and "FAIL\tpkg", not "FAILOVER".
func word(w string) func([]byte) bool {
	return func(line []byte) bool {
		rest := line[len(w):]
		return len(rest) == 0 || rest[0] == ' ' || rest[0] == '\t' || rest[0] == ':'
	}
}

// goPosition accepts "name.go:12:3: message" not indented: what go build
// and go vet print (a test's t.Error is indented and has no column).
func goPosition(line []byte) bool {
	if len(line) == 0 || line[0] == ' ' || line[0] == '\t' {
		return false
	}
	for i := 0; ; {
		k := bytes.Index(line[i:], []byte(".go:"))
		if k < 0 {
			return false
		}
		i += k + len(".go:")
		j := digits(line, i)
		if j > i && j < len(line) && line[j] == ':' {
			if k := digits(line, j+1); k > j+1 && k+1 < len(line) && line[k] == ':' && line[k+1] == ' ' {
				return true
			}
		}
	}
}

// makeError accepts "make: *** [Makefile:3: all] Error 1" and
// "make[1]: *** ...".
func makeError(line []byte) bool {
	i := len("make")
	if i < len(line) && line[i] == '[' {
		j := digits(line, i+1)
		if j == i+1 || j >= len(line) || line[j] != ']' {
			return false
		}
		i = j + 1
	}
	return bytes.HasPrefix(line[i:], []byte(": ***"))
}

// exceptionLine accepts the last line of a Python traceback or a Node or
// Java exception: a name (dotted) ending in Error or Exception at the
// start of the line, then ':' or the end of the line.
func exceptionLine(line []byte) bool {
	end := 0
	for end < len(line) && (isWordByte(line[end]) || line[end] == '.') {
		end++
	}
	if end == 0 || isDigit(line[0]) || line[0] == '.' || (end < len(line) && line[end] != ':') {
		return false
	}
	name := line[:end]
	return bytes.HasSuffix(name, []byte("Error")) || bytes.HasSuffix(name, []byte("Exception"))
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func isWordByte(c byte) bool {
	return isDigit(c) || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_'
}

// digits returns the end of the run of digits at i.
func digits(b []byte, i int) int {
	for i < len(b) && isDigit(b[i]) {
		i++
	}
	return i
}
