package spillway_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spillway-dev/spillway/internal/config"
	"github.com/spillway-dev/spillway/internal/registry"
)

// The README and docs/ are the first code a person copies. Every Go block
// in them compiles, every shell line that runs spillway runs against the
// binary, and the prose that counts the tools counts the table's.

// docFiles are the documents a person reads.
func docFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{"README.md"}, files...)
}

// A block is one fenced code block of a document.
type block struct {
	file string
	line int // of its first line of code
	lang string
	code string
}

var fence = regexp.MustCompile("^\\s*```(\\S*)\\s*$")

func blocks(t *testing.T, file string) []block {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []block
	var cur *block
	var b strings.Builder
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		m := fence.FindStringSubmatch(line)
		switch {
		case m != nil && cur == nil:
			cur = &block{file: file, line: n + 1, lang: m[1]}
			b.Reset()
		case m != nil && cur != nil && m[1] == "":
			cur.code = b.String()
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			b.WriteString(line + "\n")
		}
	}
	return out
}

// knownImports are the packages a snippet may use without importing them
// itself: it is a fragment of a function body.
var knownImports = map[string]string{
	"spillway": "github.com/spillway-dev/spillway",
	"output":   "github.com/spillway-dev/spillway/output",
	"fmt":      "fmt",
	"log":      "log",
	"io":       "io",
	"os":       "os",
	"strings":  "strings",
	"context":  "context",
	"time":     "time",
}

// goProgram makes a compilable program of a snippet: a whole file as it
// is, a fragment as the body of main, with ctx and r (an io.Reader) in
// scope and the imports it names.
func goProgram(code string) string {
	if strings.HasPrefix(strings.TrimSpace(code), "package ") {
		return code
	}
	var imports []string
	for name, path := range knownImports {
		if regexp.MustCompile(`\b` + name + `\.`).MatchString(code) {
			imports = append(imports, fmt.Sprintf("%q", path))
		}
	}
	for _, need := range []string{`"context"`, `"io"`, `"strings"`} {
		if !slices.Contains(imports, need) {
			imports = append(imports, need)
		}
	}
	slices.Sort(imports)
	return "package main\n\nimport (\n\t" + strings.Join(imports, "\n\t") + "\n)\n\n" +
		"func main() {\n\tctx := context.Background()\n\tvar r io.Reader = strings.NewReader(\"a\\nb\\n\")\n" +
		"\t_, _ = ctx, r\n" + code + "}\n"
}

func TestDocsGoBlocksCompile(t *testing.T) {
	if testing.Short() {
		t.Skip("builds every snippet")
	}
	dir, err := os.MkdirTemp(".", "_doctest")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	n := 0
	var where []string
	for _, file := range docFiles(t) {
		for _, b := range blocks(t, file) {
			if b.lang != "go" {
				continue
			}
			pkg := filepath.Join(dir, fmt.Sprintf("s%d", n))
			os.Mkdir(pkg, 0o755)
			if err := os.WriteFile(filepath.Join(pkg, "main.go"), []byte(goProgram(b.code)), 0o644); err != nil {
				t.Fatal(err)
			}
			where = append(where, fmt.Sprintf("%s:%d", b.file, b.line))
			n++
		}
	}
	if n == 0 {
		t.Fatal("no Go blocks found in README.md and docs/")
	}
	for i, w := range where {
		out, err := exec.Command("go", "vet", "./"+filepath.Join(dir, fmt.Sprintf("s%d", i))).CombinedOutput()
		if err != nil {
			t.Errorf("the Go block at %s does not compile:\n%s", w, out)
		}
	}
}

// spillwayLine matches a shell line that runs spillway: "spillway …",
// "go run ./cmd/spillway …", or a client's command that starts it
// ("claude mcp add NAME -- spillway mcp …"), with VAR=value prefixes.
var spillwayLine = regexp.MustCompile(`^(?:[A-Z_]+=\S+\s+)*(?:spillway|go run \./cmd/spillway)\s+(.*)$`)

// shellWords splits a line of a shell block as the shell would, for the
// simple quoting the docs use; a trailing comment is dropped.
func shellWords(line string) []string {
	var words []string
	var w strings.Builder
	in, quote, started := false, byte(0), false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
			w.WriteByte(c)
		case c == '\'' || c == '"':
			quote, started = c, true
		case c == '#' && !in:
			i = len(line)
		case c == ' ' || c == '\t':
			if started {
				words = append(words, w.String())
				w.Reset()
				started = false
			}
			in = false
			continue
		default:
			w.WriteByte(c)
			started = true
		}
		in = true
	}
	if started {
		words = append(words, w.String())
	}
	return words
}

func TestDocsShellLinesRun(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the binary")
	}
	bin := filepath.Join(t.TempDir(), "spillway")
	if out, err := exec.Command("go", "build", "-o", bin, "./cmd/spillway").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	tmp := t.TempDir()
	ran := 0
	for _, file := range docFiles(t) {
		for _, b := range blocks(t, file) {
			if b.lang != "sh" && b.lang != "bash" && b.lang != "console" {
				continue
			}
			for i, line := range strings.Split(b.code, "\n") {
				line = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "$ "))
				if _, after, ok := strings.Cut(line, " -- "); ok && strings.HasPrefix(line, "claude mcp add") {
					line = after
				}
				// A server started in the background is started
				// here in the foreground, and stopped.
				line = strings.TrimSpace(strings.TrimSuffix(line, "&"))
				m := spillwayLine.FindStringSubmatch(line)
				if m == nil || strings.Contains(line, "$(") || strings.Contains(line, "npx ") {
					continue
				}
				args := shellWords(m[1])
				where := fmt.Sprintf("%s:%d: %s", b.file, b.line+i, line)
				runDocLine(t, bin, tmp, args, where)
				ran++
			}
		}
	}
	if ran == 0 {
		t.Fatal("no shell line of README.md or docs/ runs spillway")
	}
	t.Logf("%d shell lines run", ran)
}

// runDocLine runs one documented command line. A server (mcp, serve) must
// start: mcp answers end of input by exiting 0, serve must say where it
// serves. The others must exit 0, or 1 for a documented failing command.
func runDocLine(t *testing.T, bin, tmp string, args []string, where string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for i, a := range args {
		args[i] = strings.NewReplacer("/path/to/repo", tmp, "~/", tmp+"/").Replace(a)
	}
	if len(args) > 0 && args[0] == "serve" {
		args = append(args, "--listen", "127.0.0.1:0")
		if slices.Contains(args, "0.0.0.0:7777") {
			args = slices.DeleteFunc(args, func(s string) bool { return s == "0.0.0.0:7777" })
			args = slices.DeleteFunc(args, func(s string) bool { return s == "--listen" })
			args = append(args, "--listen", "127.0.0.1:0")
		}
	}
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp, "SPILLWAY_TOKEN=doc-test-token")
	cmd.Dir = "."
	if len(args) > 0 && args[0] == "serve" {
		stderr, _ := cmd.StderrPipe()
		if err := cmd.Start(); err != nil {
			t.Errorf("%s: %v", where, err)
			return
		}
		defer func() { cmd.Process.Kill(); cmd.Wait() }()
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if strings.Contains(sc.Text(), "serving MCP at") {
				return
			}
		}
		t.Errorf("%s: serve did not start", where)
		return
	}
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 1 {
		return // a failed call, as documented commands may show
	}
	if err != nil {
		t.Errorf("%s: %v\n%s", where, err, out)
	}
}

// numberTools matches "<number word> tools" in prose.
var numberTools = regexp.MustCompile(`(?i)\b(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s+(?:of\s+)?(?:the\s+)?tools\b`)

// Prose that counts the tools counts the table's: all of them, or the five
// an agent lives on when the same paragraph names the others too.
func TestDocsCountTheTools(t *testing.T) {
	all := registry.Tools()
	words := []string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"}
	var core, jobs []string
	for _, tl := range all {
		if tl.MCPOnly {
			jobs = append(jobs, tl.Name)
		} else {
			core = append(core, tl.Name)
		}
	}
	check := func(where, para string) {
		for _, m := range numberTools.FindAllStringSubmatch(para, -1) {
			w := strings.ToLower(m[1])
			switch w {
			case words[len(all)]:
			case words[len(core)]:
				for _, j := range jobs {
					if !strings.Contains(para, j) {
						t.Errorf("%s: %q, but the paragraph does not name %s (the server has %d tools)", where, m[0], j, len(all))
					}
				}
			default:
				t.Errorf("%s: %q; the server has %d tools", where, m[0], len(all))
			}
		}
	}
	for _, file := range append(docFiles(t), "spillway.go") {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for i, para := range strings.Split(string(data), "\n\n") {
			check(fmt.Sprintf("%s paragraph %d", file, i+1), para)
		}
	}
	for _, tl := range all {
		readme, _ := os.ReadFile("README.md")
		if !strings.Contains(string(readme), "`"+tl.Name+"`") {
			t.Errorf("README.md never names the tool %s", tl.Name)
		}
	}
}

// A spillway config shown in the docs (a TOML block with timeout_ms or a
// [bash] table) is one spillway accepts.
func TestDocsConfigBlocksParse(t *testing.T) {
	n := 0
	for _, file := range docFiles(t) {
		for _, b := range blocks(t, file) {
			if b.lang != "toml" || (!strings.Contains(b.code, "timeout_ms") && !strings.Contains(b.code, "[bash]")) {
				continue
			}
			n++
			if _, err := config.ParseConfig(fmt.Sprintf("%s:%d", b.file, b.line), []byte(b.code)); err != nil {
				t.Errorf("the config at %s:%d: %v", b.file, b.line, err)
			}
		}
	}
	if n == 0 {
		t.Fatal("no config block found in README.md and docs/")
	}
}
