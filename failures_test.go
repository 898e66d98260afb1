//go:build unix

package spillway_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/spillway-dev/spillway"
	"github.com/spillway-dev/spillway/internal/policy"
	"github.com/spillway-dev/spillway/output"
	"github.com/spillway-dev/spillway/tool"
)

// Failure lines of real tools, in the middle of long outputs: every line
// of the cut part that looks like a failure is in the result, numbered as
// in the spill file, and read at that line returns it.

// checkCutFailures checks the failure lines of the cut part of stdout,
// and returns how many there were.
func checkCutFailures(t *testing.T, ts *spillway.Toolset, res spillway.Result[spillway.BashDetails]) int {
	t.Helper()
	sd := res.Details.Stdout
	if sd.FullOutputPath == "" || len(sd.Next) == 0 {
		t.Fatalf("stdout was not cut:\n%s", res.Text)
	}
	from, _ := sd.Next[0]["offset"].(int64)
	n, _ := sd.Next[0]["limit"].(int64)
	lines := fileLines(t, sd.FullOutputPath)
	found := 0
	for i := from; i < from+n; i++ {
		line := lines[i-1]
		if !output.IsFailureLine([]byte(line)) {
			continue
		}
		found++
		if !strings.Contains(res.Text, fmt.Sprintf("\n%d: %s\n", i, line)) {
			t.Errorf("failure line %d %q is not in the result:\n%s", i, line, res.Text)
		}
		listed := false
		for _, f := range res.Details.Failures {
			listed = listed || f.Stream == "stdout" && f.Line == i && f.Text == line
		}
		if !listed {
			t.Errorf("failure line %d is not in details.failures %v", i, res.Details.Failures)
		}
		r, err := ts.Read(context.Background(), spillway.ReadInput{Path: sd.FullOutputPath, Offset: int(i), Limit: 1})
		if err != nil || strings.TrimSuffix(r.Content, "\n") != line {
			t.Errorf("read offset=%d: %q (%v), want %q", i, r.Content, err, line)
		}
	}
	if len(res.Text) > spillway.DefaultPolicy().ResultBudget {
		t.Errorf("the result is %d chars, over the %d budget", len(res.Text), spillway.DefaultPolicy().ResultBudget)
	}
	return found
}

func fileLines(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		out = append(out, sc.Text())
	}
	return out
}

func needTool(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("%s is not installed: %v", name, err)
	}
	return p
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// go test -v over a module of 250 tests, one of them failing in the middle.
func TestFailuresGoTest(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a test binary")
	}
	goBin := needTool(t, "go")
	dir := t.TempDir()
	var src strings.Builder
	src.WriteString("package a\n\nimport \"testing\"\n")
	for i := 1; i <= 250; i++ {
		fmt.Fprintf(&src, "\nfunc Test%03d(t *testing.T) {\n\tfor i := 0; i < 12; i++ {\n\t\tt.Logf(\"step %%d of test %d\", i)\n\t}\n", i, i)
		if i == 125 {
			src.WriteString("\tif got, want := 1, 2; got != want {\n\t\tt.Errorf(\"Parse(\\\"x\\\") = %d, want %d\", got, want)\n\t}\n")
		}
		src.WriteString("}\n")
	}
	writeFiles(t, dir, map[string]string{"go.mod": "module example.com/m\n\ngo 1.22\n", "a/a_test.go": src.String()})
	ts := bashToolset(t, spillway.Options{Cwd: dir})
	res := bashRun(t, ts, spillway.BashInput{Command: goBin + " test -count=1 -v ./...",
		Env: map[string]string{"GOTOOLCHAIN": "local", "GOFLAGS": "-mod=mod"}})
	if res.Details.ExitCode == nil || *res.Details.ExitCode != 1 {
		t.Fatalf("go test did not fail:\n%s", res.Text)
	}
	if n := checkCutFailures(t, ts, res); n < 1 {
		t.Errorf("no failure line in the cut part:\n%s", res.Text)
	}
	// The message is the line before --- FAIL: shown numbered, as the
	// failure's context or as a line of no frequent shape.
	for _, want := range []string{": --- FAIL: Test125", "1750: " + "    a_test.go:754: " + `Parse("x") = 1, want 2`, "exit code: 1"} {
		if !strings.Contains(res.Text, want) && !strings.Contains(res.Text, strings.Replace(want, "1750: ", "1750- ", 1)) {
			t.Errorf("the result does not show %q:\n%s", want, res.Text)
		}
	}
}

// gcc errors inside a long make log (make -k goes on after them).
func TestFailuresGccInMake(t *testing.T) {
	needTool(t, "gcc")
	needTool(t, "make")
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"Makefile": "all: before broken.o after\n" +
			"before:\n\t@for i in $$(seq 1 2500); do echo \"cc -O2 -c src/unit$$i.c -o build/unit$$i.o\"; done\n" +
			"broken.o: broken.c\n\tgcc -c broken.c -o broken.o\n" +
			"after:\n\t@for i in $$(seq 2501 5000); do echo \"cc -O2 -c src/unit$$i.c -o build/unit$$i.o\"; done\n",
		"broken.c": "int main(void) {\n\treturn undeclared_thing;\n}\n",
	})
	ts := bashToolset(t, spillway.Options{Cwd: dir})
	res := bashRun(t, ts, spillway.BashInput{Command: "make -k 2>&1"})
	if n := checkCutFailures(t, ts, res); n < 1 {
		t.Errorf("no failure line in the cut part:\n%s", res.Text)
	}
	if !strings.Contains(res.Text, "undeclared_thing") || !strings.Contains(res.Text, "undeclared (first use in this function)") {
		t.Errorf("the gcc error is not shown:\n%s", res.Text)
	}
}

// A Python traceback in the middle of 50,000 lines.
func TestFailuresPythonTraceback(t *testing.T) {
	py := needTool(t, "python3")
	ts := bashToolset(t, spillway.Options{})
	res := bashRun(t, ts, spillway.BashInput{Command: fmt.Sprintf(
		`(seq 1 25000; %s -c 'import json
def load(s):
    return json.loads(s)
load("{bad json")'; seq 25001 50000) 2>&1`, py)})
	if n := checkCutFailures(t, ts, res); n < 2 {
		t.Errorf("%d failure lines in the cut part, want the Traceback line and the error:\n%s", n, res.Text)
	}
	for _, want := range []string{"Traceback (most recent call last):", "json.decoder.JSONDecodeError: Expecting property name"} {
		if !strings.Contains(res.Text, want) {
			t.Errorf("the result does not show %q:\n%s", want, res.Text)
		}
	}
	if !strings.Contains(res.Text, "exit code: 0, ") {
		t.Errorf("a zero exit with failure lines is not said:\n%s", res.Text)
	}
}

// cargo build with a type error, in the middle of a long log.
func TestFailuresCargo(t *testing.T) {
	if testing.Short() {
		t.Skip("runs cargo")
	}
	// cargo is looked for on PATH only: the person's own toolchain
	// directories are not the test's to search. A cargo that cannot run
	// (a rustup proxy with no toolchain for this HOME) counts as missing.
	cargo, err := exec.LookPath("cargo")
	if err != nil {
		t.Skip("cargo is not installed")
	}
	if out, err := exec.Command(cargo, "--version").CombinedOutput(); err != nil {
		t.Skipf("cargo is installed but does not run (%v): %s", err, bytes.TrimSpace(out))
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"Cargo.toml":  "[package]\nname = \"typed\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
		"src/main.rs": "fn main() {\n    let n: i32 = \"five\";\n    println!(\"{}\", n);\n}\n",
	})
	ts := bashToolset(t, spillway.Options{Cwd: dir})
	res := bashRun(t, ts, spillway.BashInput{Command: fmt.Sprintf(
		`export PATH=%s:$PATH; seq 1 4000; %s build --offline 2>&1; rc=$?; seq 4001 8000; exit $rc`, filepath.Dir(cargo), cargo)})
	if n := checkCutFailures(t, ts, res); n < 2 {
		t.Errorf("%d failure lines in the cut part, want error[E0308] and could not compile:\n%s", n, res.Text)
	}
	if !strings.Contains(res.Text, "error[E0308]: mismatched types") {
		t.Errorf("the type error is not shown:\n%s", res.Text)
	}
}

// tsc's errors in the middle of a long log.
func TestFailuresTsc(t *testing.T) {
	tsc := needTool(t, "tsc")
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a.ts": "const n: number = \"five\";\nconsole.log(n);\n"})
	ts := bashToolset(t, spillway.Options{Cwd: dir})
	res := bashRun(t, ts, spillway.BashInput{Command: fmt.Sprintf(`seq 1 4000; %s --noEmit a.ts; rc=$?; seq 4001 8000; exit $rc`, tsc)})
	if n := checkCutFailures(t, ts, res); n < 1 {
		t.Errorf("no failure line in the cut part:\n%s", res.Text)
	}
	if !strings.Contains(res.Text, "error TS2322") {
		t.Errorf("the tsc error is not shown:\n%s", res.Text)
	}
}

// 100,000 lines of which 10,000 hold an error: the result keeps its
// budget, the failure lines take at most their share, and the rest are
// counted with the call that lists them all.
func TestFailuresFlood(t *testing.T) {
	// The failure block of the head and tail view; output's
	// TestDigestFailureFlood holds the digest's.
	ts := bashToolset(t, spillway.Options{Policy: headTailPolicy()})
	res := bashRun(t, ts, spillway.BashInput{Command: `awk 'BEGIN { for (i = 1; i <= 100000; i++) if (i % 10 == 0) printf "src/m%d.c:%d:5: error: expected ; before }\n", i, i; else print "compiling unit " i }'`})
	budget := spillway.DefaultPolicy().ResultBudget
	if len(res.Text) > budget {
		t.Errorf("the result is %d chars, over the %d budget", len(res.Text), budget)
	}
	lim := spillway.DefaultPolicy().Bash.Stdout.MaxBytes
	var block int
	for line := range strings.Lines(res.Text) {
		if len(line) > 0 && line[0] >= '0' && line[0] <= '9' && strings.Contains(line, ": src/m") {
			block += len(line)
		}
	}
	if share := int(float64(lim) * output.FailureShare); block > share || block == 0 {
		t.Errorf("the failure lines take %d bytes, want some and at most %d", block, share)
	}
	shown := len(res.Details.Failures)
	fl := res.Details.Stdout.Truncation
	from, _ := res.Details.Stdout.Next[0]["offset"].(int64)
	n, _ := res.Details.Stdout.Next[0]["limit"].(int64)
	inCut := int((from+n-1)/10 - (from-1)/10)
	more := fmt.Sprintf("[... %d more look like failures: grep path=%s pattern=", inCut-shown, res.Details.Stdout.FullOutputPath)
	if !strings.Contains(res.Text, more) {
		t.Errorf("want %q (%d in the cut part, %d shown, %d lines shown in all):\n%s", more, inCut, shown, fl.OutputLines, res.Text)
	}
	last := res.Details.Stdout.Next[len(res.Details.Stdout.Next)-1]
	pattern, _ := last["pattern"].(string)
	re, err := regexp.Compile(pattern)
	if last.Tool() != "grep" || err != nil || !re.MatchString("src/m10.c:10:5: error: expected ; before }") || re.MatchString("compiling unit 11") {
		t.Errorf("the last next call is %v (%v), want the grep that lists the failure lines", last, err)
	}
	if !strings.Contains(res.Text, "exit code: 0, 10000 lines look like failures") {
		t.Errorf("the status line does not count the failure lines:\n%s", res.Text[len(res.Text)-400:])
	}
}

// diff_with on two runs of a flaky test: only the changed lines and both
// exit codes.
func TestDiffWithFlakyTest(t *testing.T) {
	ts := bashToolset(t, spillway.Options{})
	cmd := `seq 1 3000 | sed 's/^/=== RUN TestStep/'; if [ -e flag ]; then rm flag; echo "--- PASS: TestFlaky (0.01s)"; else touch flag; echo "--- FAIL: TestFlaky (0.01s)"; echo "    flaky_test.go:9: timed out waiting for the server"; false; fi; rc=$?; seq 3001 6000 | sed 's/^/=== RUN TestStep/'; exit $rc`
	first := bashRun(t, ts, spillway.BashInput{Command: cmd})
	second := bashRun(t, ts, spillway.BashInput{Command: cmd, DiffWith: "last"})
	changed := []string{"---- FAIL: TestFlaky (0.01s)", "-    flaky_test.go:9: timed out waiting for the server", "+--- PASS: TestFlaky (0.01s)"}
	var got []string
	for line := range strings.Lines(second.Text) {
		line = strings.TrimSuffix(line, "\n")
		if (strings.HasPrefix(line, "-") || strings.HasPrefix(line, "+")) && !strings.HasPrefix(line, "--- history") && !strings.HasPrefix(line, "+++ history") {
			got = append(got, line)
		}
	}
	if strings.Join(got, "\n") != strings.Join(changed, "\n") {
		t.Errorf("changed lines %q, want %q:\n%s", got, changed, second.Text)
	}
	if !strings.Contains(second.Text, fmt.Sprintf("exit code: 0; history %d's exit code: 1", first.Details.HistoryID)) {
		t.Errorf("both exit codes are not said:\n%s", second.Text)
	}
	if second.Details.DiffWith != first.Details.HistoryID || *second.Details.DiffWithExitCode != 1 || *second.Details.ExitCode != 0 {
		t.Errorf("details: diff_with %d, diff_with_exit_code %v", second.Details.DiffWith, second.Details.DiffWithExitCode)
	}
	if len(second.Text) > 2000 {
		t.Errorf("the diff of three changed lines takes %d chars:\n%s", len(second.Text), second.Text)
	}
	// By history id, the other way round.
	third := bashRun(t, ts, spillway.BashInput{Command: cmd, DiffWith: tool.RunRef(fmt.Sprint(second.Details.HistoryID))})
	if !strings.Contains(third.Text, "+--- FAIL: TestFlaky (0.01s)") || !strings.Contains(third.Text, "exit code: 1; history") {
		t.Errorf("diff_with by id:\n%s", third.Text)
	}
}

// Under every profile, and shown again through the history, a failure in
// the middle of a long output is shown with its line number, and
// diff_with works.
func TestFailuresEveryProfileAndHistory(t *testing.T) {
	cmd := `seq 1 15000; echo "main.go:42:7: error: undefined: fooBar"; echo "--- FAIL: TestParse (0.00s)"; seq 15003 30002; exit 1`
	for _, name := range policy.ProfileNames() {
		t.Run(name, func(t *testing.T) {
			pol, err := spillway.Profile(name)
			if err != nil {
				t.Fatal(err)
			}
			ts := bashToolset(t, spillway.Options{Policy: &pol})
			res := bashRun(t, ts, spillway.BashInput{Command: cmd})
			for _, want := range []string{"\n15001: main.go:42:7: error: undefined: fooBar\n", "\n15002: --- FAIL: TestParse (0.00s)\n"} {
				if !strings.Contains(res.Text, want) {
					t.Errorf("the result lacks %q:\n%s", want, tail(res.Text, 3000))
				}
			}
			if len(res.Details.Failures) != 2 {
				t.Errorf("details.failures %v", res.Details.Failures)
			}
			rr, err := ts.History(context.Background(), spillway.HistoryInput{ID: res.Details.HistoryID})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(rr.Text, "\n15001: main.go:42:7: error") || !strings.Contains(rr.Text, "\n15002: --- FAIL") {
				t.Errorf("history id=%d does not show the failure lines:\n%s", res.Details.HistoryID, tail(rr.Text, 3000))
			}
			d := bashRun(t, ts, spillway.BashInput{Command: cmd, DiffWith: "last"})
			if !strings.Contains(d.Text, "stdout: the same in both runs (30002 lines)") || !strings.Contains(d.Text, "exit code: 1; history 1's exit code: 1") {
				t.Errorf("diff_with last:\n%s", d.Text)
			}
		})
	}
}

func tail(s string, n int) string { return s[max(0, len(s)-n):] }

// diff_with takes a history id as a number or a string, or "last"; any
// other value is refused before anything runs.
func TestDiffWithArgs(t *testing.T) {
	ts := bashToolset(t, spillway.Options{})
	ctx := context.Background()
	call := func(args string) (string, error) {
		r, err := ts.Call(ctx, spillway.ToolCall{Name: "bash", Args: json.RawMessage(args)})
		return r.Text, err
	}
	if _, err := call(`{"command":"echo a"}`); err != nil {
		t.Fatal(err)
	}
	for _, args := range []string{`{"command":"echo b","diff_with":1}`, `{"command":"echo b","diff_with":"1"}`, `{"command":"echo b","diff_with":"last"}`} {
		text, err := call(args)
		if err != nil || !strings.Contains(text, "exit code: 0; history ") {
			t.Errorf("%s: %v\n%s", args, err, text)
		}
	}
	for _, args := range []string{`{"command":"echo b","diff_with":"first"}`, `{"command":"echo b","diff_with":0}`, `{"command":"echo b","diff_with":99}`, `{"command":"echo b","diff_with":"last","run_in_background":true}`} {
		if _, err := call(args); err == nil {
			t.Errorf("%s: no error", args)
		}
	}
}
