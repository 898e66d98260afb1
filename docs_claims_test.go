package spillway_test

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/spillway-dev/spillway"
	"github.com/spillway-dev/spillway/internal/config"
	"github.com/spillway-dev/spillway/internal/fields"
	"github.com/spillway-dev/spillway/internal/policy"
	"github.com/spillway-dev/spillway/internal/registry"
)

// The claims of the README and docs/ that a test can check, checked: the
// config example is the one Policy gives, the tools table names the
// schema's parameters, JSON blocks are JSON, and versions agree.

// updating is the -update flag of docs_test.go (package spillway: the
// same test binary).
func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// readmeSection returns the README's text from the heading to the next
// heading of the same level.
func readmeSection(t *testing.T, readme, heading string) string {
	t.Helper()
	i := strings.Index(readme, "\n"+heading+"\n")
	if i < 0 {
		t.Fatalf("README.md has no %q", heading)
	}
	rest := readme[i+1+len(heading):]
	if j := strings.Index(rest, "\n## "); j >= 0 {
		rest = rest[:j]
	}
	return rest
}

// The README's config example is config.Example of the default policy:
// every key, its default, a comment each, timeout_ms left out. It parses,
// and names every key of the config file.
func TestReadmeConfigExample(t *testing.T) {
	want, err := config.Example(spillway.DefaultPolicy())
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	section := readmeSection(t, readme, "## Configuration")
	start := strings.Index(section, "```toml\n")
	end := strings.Index(section[start+1:], "\n```\n")
	if start < 0 || end < 0 {
		t.Fatal("README.md: no toml block under ## Configuration")
	}
	got := section[start+len("```toml\n") : start+1+end+1]
	if got != want {
		if updating() {
			at := strings.Index(readme, section) + start + len("```toml\n")
			readme = readme[:at] + want + readme[at+len(got):]
			if err := os.WriteFile("README.md", []byte(readme), 0o644); err != nil {
				t.Fatal(err)
			}
			t.Log("rewrote the README's config example")
		} else {
			t.Errorf("README.md's config example is not the one spillway.Policy gives; go test . -run TestReadmeConfigExample -update rewrites it. Want:\n%s", want)
		}
	}
	if _, err := config.ParseConfig("README.md", []byte(want)); err != nil {
		t.Errorf("the example does not parse: %v", err)
	}
	for _, k := range policy.Keys(fields.Of[spillway.Policy]("toml")) {
		name := k.Path[len(k.Path)-1]
		if k.Table() {
			name = "[" + k.Name + "]"
		}
		if !strings.Contains(want, name) {
			t.Errorf("the example does not name %s", k.Name)
		}
	}
	if regexp.MustCompile(`(?m)^timeout_ms`).MatchString(want) {
		t.Error("the example sets timeout_ms, which would raise the servers' timeout past the clients' 60 s")
	}
}

// tableRow matches a row of the README's tools table: the tool, and its
// parameters in the last cell.
var tableRow = regexp.MustCompile("(?m)^\\| `([a-z_]+)` \\|[^|]*\\| (.*) \\|$")

// Each parameter the README's tools table names is one of the tool's,
// and every tool of the server has a row.
func TestReadmeToolsTable(t *testing.T) {
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	section := readmeSection(t, string(data), "## The tools")
	rows := map[string]string{}
	for _, m := range tableRow.FindAllStringSubmatch(section, -1) {
		rows[m[1]] = m[2]
	}
	for _, tl := range registry.Tools() {
		cell, ok := rows[tl.Name]
		if !ok {
			t.Errorf("the tools table has no row for %s", tl.Name)
			continue
		}
		for _, m := range regexp.MustCompile("`([a-z_]+)`").FindAllStringSubmatch(cell, -1) {
			if _, ok := tl.Param(m[1]); !ok {
				t.Errorf("the tools table gives %s the parameter %s, which it does not have", tl.Name, m[1])
			}
		}
		delete(rows, tl.Name)
	}
	for name := range rows {
		t.Errorf("the tools table has a row for %s, which is not a tool", name)
	}
}

// Every json block of the README and docs/ is one JSON value (JSON Lines
// are marked jsonl, and each of their lines is one).
func TestDocsJSONBlocksParse(t *testing.T) {
	n := 0
	for _, file := range docFiles(t) {
		for _, b := range blocks(t, file) {
			switch b.lang {
			case "json":
				n++
				var v any
				if err := json.Unmarshal([]byte(b.code), &v); err != nil {
					t.Errorf("%s:%d: a json block that is not JSON: %v", b.file, b.line, err)
				}
			case "jsonl":
				for i, line := range strings.Split(strings.TrimSpace(b.code), "\n") {
					n++
					var v any
					if err := json.Unmarshal([]byte(line), &v); err != nil {
						t.Errorf("%s:%d: a jsonl line that is not JSON: %v", b.file, b.line+i, err)
					}
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("no json block found")
	}
}

// What read's description says of a long line is what its notice does,
// under every profile: char_offset to read on, or (pi) a bash command.
func TestReadDescribesItsLongLineNotice(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "long.txt"), []byte(strings.Repeat("x", 70_000)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var read registry.Tool
	for _, tl := range registry.Tools() {
		if tl.Name == "read" {
			read = tl
		}
	}
	for _, name := range policy.ProfileNames() {
		p, err := spillway.Profile(name)
		if err != nil {
			t.Fatal(err)
		}
		ts, err := spillway.New(spillway.Options{Policy: &p, Cwd: dir})
		if err != nil {
			t.Fatal(err)
		}
		res, err := ts.Read(context.Background(), spillway.ReadInput{Path: "long.txt"})
		ts.Close()
		if err != nil {
			t.Fatal(err)
		}
		desc := read.Describe(p)
		for _, hint := range []string{"char_offset", "bash"} {
			inNotice := strings.Contains(res.Text, hint)
			inDesc := strings.Contains(desc, "gives the `"+hint+"`") || strings.Contains(desc, "gives a `"+hint+"` command")
			if inNotice != inDesc {
				t.Errorf("%s: the notice names %s: %v; the description says so: %v\nnotice: %.300s\ndescription: %s", name, hint, inNotice, inDesc, lastLine(res.Text), desc)
			}
		}
	}
}

func lastLine(s string) string {
	s = strings.TrimRight(s, "\n")
	return s[strings.LastIndex(s, "\n")+1:]
}

// The versions the docs name are the ones the build uses: Go is go.mod's,
// Node.js the npm package's engines, GoReleaser the one CI runs.
func TestDocsVersionsAgree(t *testing.T) {
	read := func(path string) string {
		t.Helper()
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	goVersion := regexp.MustCompile(`(?m)^go (1\.\d+)`).FindStringSubmatch(read("go.mod"))
	node := regexp.MustCompile(`"node": ">=(\d+)"`).FindStringSubmatch(read("npm/spillway/package.json"))
	gorel := regexp.MustCompile(`goreleaser_version=(v[\d.]+)`).FindStringSubmatch(read(".ci/release.sh"))
	if goVersion == nil || node == nil || gorel == nil {
		t.Fatalf("go.mod's go %v, package.json's engines %v, release.sh's GoReleaser %v: one is missing", goVersion, node, gorel)
	}
	checks := []struct {
		what *regexp.Regexp
		want string
	}{
		{regexp.MustCompile(`\bGo (1\.\d+)`), goVersion[1]},
		{regexp.MustCompile(`Node\.js (\d+)`), node[1]},
		{regexp.MustCompile(`goreleaser/v2@(v[\d.]+)`), gorel[1]},
		{regexp.MustCompile(`GoReleaser is pinned to (v[\d.]+)`), gorel[1]},
	}
	n := 0
	for _, file := range docFiles(t) {
		text := read(file)
		for _, c := range checks {
			for _, m := range c.what.FindAllStringSubmatch(text, -1) {
				n++
				if m[1] != c.want {
					t.Errorf("%s: %q, but the build uses %s", file, m[0], c.want)
				}
			}
		}
	}
	if n < 4 {
		t.Errorf("only %d versions found in the docs", n)
	}
}
