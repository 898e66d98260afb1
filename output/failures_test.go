package output

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Each entry of the table, held to a line its tool prints: the fast
// matcher and the expression of the grep that lists them all both take
// it, and the lines around it in the same output are not failures.
var failureExamples = map[string][]string{
	"gcc, clang, tsc, javac: file:line:col: error": {"main.c:3:12: error: 'x' undeclared (first use in this function)", "src/App.java:5: error: cannot find symbol", "a.ts(1,7): error TS2322: Type 'string' is not assignable to type 'number'."},
	"gcc, clang, go: fatal error":                  {"main.c:1:10: fatal error: missing.h: No such file or directory", "fatal error: all goroutines are asleep - deadlock!"},
	"rustc, cargo: error[E0308]":                   {"error[E0308]: mismatched types"},
	"rustc, cargo, git, pip: error:":               {"error: could not compile `typed` (bin \"typed\") due to 1 previous error", "error: externally-managed-environment"},
	"tsc: error TS2322":                            {"a.ts:1:7 - error TS2322: Type 'string' is not assignable to type 'number'."},
	"go build, go vet: file.go:line:col: message":  {"./main.go:42:7: undefined: fooBar", "main.go:9:2: declared and not used: x"},
	"ld: undefined reference":                      {"/usr/bin/ld: main.o: in function `main': main.c:(.text+0x5): undefined reference to `helper'"},
	"make: *** Error":                              {"make: *** [Makefile:5: broken.o] Error 1", "make[1]: *** [sub.mk:3: all] Error 2"},
	"go test: --- FAIL":                            {"--- FAIL: TestParse (0.00s)", "    --- FAIL: TestParse/empty (0.00s)"},
	"go test, jest: FAIL":                          {"FAIL", "FAIL\texample.com/m/a\t0.117s", "FAIL src/sum.test.js"},
	"pytest, cargo test, ctest: FAILED":            {"FAILED tests/test_sum.py::test_sum - assert 3 == 4", "test tests::it_adds ... FAILED", "test result: FAILED. 1 passed; 1 failed; 0 ignored"},
	"pytest: E   assertion":                        {"E       assert 3 == 4"},
	"jest: ✕ failed test":                          {"    ✕ adds 1 + 2 to equal 4 (3 ms)"},
	"jest: ● failed test":                          {"  ● sum › adds 1 + 2 to equal 4"},
	"rust: panicked at":                            {"thread 'main' panicked at src/main.rs:2:5:"},
	"assert: Assertion failed":                     {"a.out: a.c:5: main: Assertion `n > 0' failed."},
	"rspec: Failure/Error":                         {"     Failure/Error: expect(sum(1, 2)).to eq(4)"},
	"go: panic:":                                   {"panic: runtime error: index out of range [5] with length 3"},
	"python: Traceback":                            {"Traceback (most recent call last):"},
	"python, node, java: SomeError: message":       {"json.decoder.JSONDecodeError: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)", "ValueError: bad", "TypeError: Cannot read properties of undefined (reading 'x')", "java.lang.NullPointerException"},
	"java: Exception in thread":                    {"Exception in thread \"main\" java.lang.IllegalStateException: boom"},
	"shell: Segmentation fault":                    {"bash: line 1: 4242 Segmentation fault      (core dumped) ./a.out"},
	"shell: core dumped":                           {"bash: line 1: 4243 Aborted                 (core dumped) ./a.out"},
	"git: fatal:":                                  {"fatal: not a git repository (or any of the parent directories): .git"},
	"npm: npm ERR!":                                {"npm ERR! code ELIFECYCLE"},
	"npm 10: npm error":                            {"npm error code E404"},
	"pip, bazel: ERROR:":                           {"ERROR: Could not find a version that satisfies the requirement nosuchpkg (from versions: none)"},
	"maven: [ERROR]":                               {"[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.11.0:compile"},
}

// Lines of the same tools that report no failure.
var notFailures = []string{
	"ok  \texample.com/m/a\t0.117s", "--- PASS: TestParse (0.00s)", "=== RUN   TestParse", "PASS",
	"    a_test.go:7: step 3 of test 1", "   Compiling typed v0.1.0 (/tmp/typed)", "warning: unused variable: `x`",
	"cc -O2 -c src/unit1.c -o build/unit1.o", "make[1]: Entering directory '/src'", "tests/test_sum.py::test_sum PASSED",
	"    ✓ adds 1 + 2 to equal 3 (2 ms)", "npm WARN deprecated inflight@1.0.6: This module is not supported", "12345",
	"2026-01-02T03:04:05Z INFO  server: request handled path=/api/v1/items status=200 dur=3ms",
	"FAILOVER complete", "Collecting requests", "  File \"x.py\", line 3, in <module>",
}

func TestFailurePatternsExamples(t *testing.T) {
	re := regexp.MustCompile(failureGrepPattern)
	for _, p := range failurePatterns {
		ex := failureExamples[p.name]
		if len(ex) == 0 {
			t.Errorf("%s: no example line from the tool", p.name)
		}
		own := regexp.MustCompile(p.re)
		for _, line := range ex {
			trimmed := []byte(strings.TrimLeft(line, " \t"))
			if !p.matches([]byte(line), trimmed) {
				t.Errorf("%s: its entry does not match %q", p.name, line)
			}
			if !own.MatchString(line) {
				t.Errorf("%s: its expression %s does not match %q", p.name, p.re, line)
			}
			if !IsFailureLine([]byte(line)) {
				t.Errorf("IsFailureLine(%q) = false", line)
			}
			if !re.MatchString(line) {
				t.Errorf("%s: failureGrepPattern does not match %q", p.name, line)
			}
		}
	}
	for name := range failureExamples {
		found := false
		for _, p := range failurePatterns {
			found = found || p.name == name
		}
		if !found {
			t.Errorf("example for %q, which is no entry of the table", name)
		}
	}
	for _, line := range notFailures {
		if IsFailureLine([]byte(line)) {
			t.Errorf("IsFailureLine(%q) = true", line)
		}
	}
}

// Every failure line holds a needle: the block prefilter never hides one.
func TestFailureNeedles(t *testing.T) {
	for _, ex := range failureExamples {
		for _, line := range ex {
			if !mayFail([]byte(line)) {
				t.Errorf("%q holds no needle", line)
			}
		}
	}
}

type fileSpill struct{ *os.File }

func (f fileSpill) Path() string { return f.Name() }

// The build log of docs/notices.md: two failure lines at 15,001–15,002 of
// 30,002 are shown between head and tail under every strategy, numbered
// as in the spill file, with read calls around each.
func TestPipelineShowsCutFailures(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= 30002; i++ {
		switch i {
		case 15001:
			b.WriteString("main.go:42:7: error: undefined: fooBar\n")
		case 15002:
			b.WriteString("--- FAIL: TestParse (0.00s)\n")
		default:
			fmt.Fprintf(&b, "ok line %d\n", i)
		}
	}
	for _, s := range []Strategy{HeadTail, Head, Tail} {
		lim := DefaultLimits
		lim.Strategy = s
		path := filepath.Join(t.TempDir(), "s.log")
		p := New(Options{Limits: lim, Spill: func() (Spill, error) {
			f, err := os.Create(path)
			return fileSpill{f}, err
		}})
		// Written in pieces, looked at on the way: the scan goes on
		// from where the last look left it.
		text := b.String()
		for len(text) > 0 {
			n := min(len(text), 100_003)
			p.Write([]byte(text[:n]))
			text = text[n:]
			p.Result()
		}
		p.Close()
		r := p.Result()
		want := []Failure{{15001, "main.go:42:7: error: undefined: fooBar"}, {15002, "--- FAIL: TestParse (0.00s)"}}
		if fmt.Sprint(r.Failures) != fmt.Sprint(want) || r.FailuresCut != 2 || r.FailureLines != 2 {
			t.Errorf("%s: failures %v (%d cut, %d in all), want %v", s, r.Failures, r.FailuresCut, r.FailureLines, want)
		}
		out := r.Text()
		for _, w := range []string{"\n15001: main.go:42:7: error", "\n15002: --- FAIL: TestParse", "\n15000- ok line 15000\n", "2 of them look like failures"} {
			if !strings.Contains(out, w) {
				t.Errorf("%s: the text lacks %q", s, w)
			}
		}
		next := r.Next()
		if len(next) != 3 || next[1]["offset"] != int64(14991) || next[2]["offset"] != int64(14992) {
			t.Errorf("%s: next %v, want the read of the cut lines and one around each failure line", s, next)
		}
		if len(r.Head)+len(r.Tail)+len(r.fails.block) > lim.MaxBytes {
			t.Errorf("%s: %d bytes shown, over the %d limit", s, len(r.Head)+len(r.Tail)+len(r.fails.block), lim.MaxBytes)
		}
	}
}

// Past the kept positions the count stays exact and memory bounded.
func TestFailureIndexBounded(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= 200_000; i++ {
		if i%3 == 0 {
			fmt.Fprintf(&b, "FAILED case %d\n", i)
		} else {
			fmt.Fprintf(&b, "line %d\n", i)
		}
	}
	x := newFailureIndex(300, 0)
	x.scan(strings.NewReader(b.String()), int64(b.Len()), true)
	if x.count != 200_000/3 || len(x.first) != 300 || len(x.last) != 300 {
		t.Fatalf("count %d, kept %d and %d", x.count, len(x.first), len(x.last))
	}
	kept, n := x.within(101, 199_900)
	if want := int64(199_900/3 - 100/3); n != want {
		t.Errorf("count within: %d, want %d", n, want)
	}
	if kept[0].line != 102 {
		t.Errorf("first kept %d, want 102", kept[0].line)
	}
}
