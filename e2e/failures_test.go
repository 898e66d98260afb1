package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// What a model reads of real failures in long outputs, through each
// client: 20 facts (every failure line, the failing test's name and
// message, the exit code, the path of the full output), counted in what
// the client hands back. The test reports the count; it fails when a
// fact spillway's own result holds does not reach the model.

// A fact is something the model must be able to read in one result.
type fact struct {
	what string
	re   *regexp.Regexp
}

func facts(pairs ...string) []fact {
	var out []fact
	for i := 0; i+1 < len(pairs); i += 2 {
		out = append(out, fact{pairs[i], regexp.MustCompile(pairs[i+1])})
	}
	return out
}

const fullOutput = `Full output: /\S+-stdout\.log`

// failureScenario is one command and the facts of its result.
type failureScenario struct {
	name    string
	command string
	facts   []fact
}

// failureScenarios writes what the commands need into dir.
func failureScenarios(t *testing.T, dir string) []failureScenario {
	t.Helper()
	write := func(name, text string) {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var src strings.Builder
	src.WriteString("package a\n\nimport \"testing\"\n")
	for i := 1; i <= 250; i++ {
		fmt.Fprintf(&src, "\nfunc Test%03d(t *testing.T) {\n\tfor i := 0; i < 12; i++ {\n\t\tt.Logf(\"step %%d of test %d\", i)\n\t}\n", i, i)
		if i == 125 {
			src.WriteString("\tif got, want := 1, 2; got != want {\n\t\tt.Errorf(\"Parse(\\\"x\\\") = %d, want %d\", got, want)\n\t}\n")
		}
		src.WriteString("}\n")
	}
	write("gomod/go.mod", "module example.com/m\n\ngo 1.22\n")
	write("gomod/a/a_test.go", src.String())
	write("cproj/Makefile", "all: before broken.o after\n"+
		"before:\n\t@for i in $$(seq 1 2500); do echo \"cc -O2 -c src/unit$$i.c -o build/unit$$i.o\"; done\n"+
		"broken.o: broken.c\n\tgcc -c broken.c -o broken.o\n"+
		"after:\n\t@for i in $$(seq 2501 5000); do echo \"cc -O2 -c src/unit$$i.c -o build/unit$$i.o\"; done\n")
	write("cproj/broken.c", "int main(void) {\n\treturn undeclared_thing;\n}\n")
	write("rproj/Cargo.toml", "[package]\nname = \"typed\"\nversion = \"0.1.0\"\nedition = \"2021\"\n")
	write("rproj/src/main.rs", "fn main() {\n    let n: i32 = \"five\";\n    println!(\"{}\", n);\n}\n")
	goBin, _ := exec.LookPath("go")
	// The client gives the server a home of its own: rustup's toolchains
	// are named, and the Go build cache is warmed, so that the call that
	// runs go test does not spend the client's timeout compiling.
	rustupHome := os.Getenv("RUSTUP_HOME")
	warm := exec.Command(goBin, "test", "-count=1", "-run", "^$", "./...")
	warm.Dir = filepath.Join(dir, "gomod")
	warm.Env = append(os.Environ(), "GOTOOLCHAIN=local")
	if out, err := warm.CombinedOutput(); err != nil {
		t.Fatalf("building the test module: %v\n%s", err, out)
	}
	cargo, err := exec.LookPath("cargo")
	if err != nil {
		// The test binary's HOME is its own; CARGO_HOME is the real one.
		cargo = filepath.Join(os.Getenv("CARGO_HOME"), "bin", "cargo")
	}
	out := []failureScenario{
		{"go test -v, one failing test of 250",
			fmt.Sprintf("cd gomod && GOTOOLCHAIN=local GOCACHE=%s %s test -count=1 -v ./... 2>&1", goCache(t), goBin),
			facts("failing test's name", `--- FAIL: Test125`, "its message", `Parse\("x"\) = 1, want 2`,
				"exit code", `exit code: 1`, "full output", fullOutput)},
		{"gcc error in a make log",
			"cd cproj && make -k 2>&1",
			facts("gcc error", `error: .undeclared_thing. undeclared`, "make's error", `make: \*\*\* \[Makefile:5: broken\.o\] Error 1`,
				"exit code", `exit code: 2`, "full output", fullOutput)},
		{"Python traceback in 50,000 lines",
			`(seq 1 25000; python3 -c 'import json
json.loads("{bad")'; seq 25001 50000) 2>&1`,
			facts("Traceback line", `Traceback \(most recent call last\):`, "the exception", `json\.decoder\.JSONDecodeError: Expecting property name`,
				"exit code", `exit code: 0`, "full output", fullOutput)},
		{"cargo build with a type error",
			fmt.Sprintf("cd rproj && export PATH=%s:$PATH RUSTUP_HOME=%s CARGO_HOME=%s; seq 1 4000; cargo build --offline 2>&1; rc=$?; seq 4001 8000; exit $rc", filepath.Dir(cargo), rustupHome, filepath.Dir(filepath.Dir(cargo))),
			facts("rustc error", `error\[E0308\]: mismatched types`, "cargo's error", "error: could not compile `typed`",
				"exit code", `exit code: 101`)},
		{"seq 1 300000",
			"seq 1 300000",
			facts("last line", `\n300000\n`, "exit code", `exit code: 0`, "full output", fullOutput)},
		{"npm-style warning flood ending in its error",
			`for i in $(seq 1 20000); do echo "npm WARN deprecated pkg$i@1.0.0: this version is no longer supported"; done; echo "npm ERR! code ELIFECYCLE"; exit 1`,
			facts("npm's error", `npm ERR! code ELIFECYCLE`, "exit code", `exit code: 1`)},
	}
	if _, err := os.Stat(cargo); err != nil {
		out = slicesDelete(out, 3)
	}
	return out
}

func slicesDelete(s []failureScenario, i int) []failureScenario {
	return append(s[:i:i], s[i+1:]...)
}

func testFailureFacts(t *testing.T, c client) {
	clientBin(t, c)
	if testing.Short() {
		t.Skip("builds and runs real failures")
	}
	w := newWorkspace(t)
	scen := failureScenarios(t, w.dir)
	calls := make([]call, len(scen))
	for i, s := range scen {
		calls[i] = call{"bash", map[string]any{"command": s.command}}
	}
	got := drive(t, c, w, calls)
	read, total := 0, 0
	for i, s := range scen {
		text := got[i].Text()
		for _, f := range s.facts {
			total++
			if f.re.MatchString(text) {
				read++
				continue
			}
			t.Errorf("%s: %s: the model did not read %q:\n%s", s.name, c.name, f.what, tail(text, 1500))
		}
	}
	t.Logf("%s: the model read %d of %d facts", c.name, read, total)
}

func TestClaudeCodeFailureFacts(t *testing.T) { testFailureFacts(t, claudeCode) }
func TestCodexFailureFacts(t *testing.T)      { testFailureFacts(t, codex) }

func goCache(t *testing.T) string {
	out, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}
