package rules

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var updateTable = flag.Bool("update-table", false, "rewrite the fixtures' table in docs/rules.md")

// A realCase is one command decided under a real settings or rules
// file: spillway's decision, and the decision of the file's own tool
// (Claude Code's documented semantics, or codex execpolicy check) with
// the default ask, and why they differ when they do.
type realCase struct {
	command, spillway, theirs, why string
}

// realFixtures are the commands decided under each fixture of
// testdata/real (sources and licences in testdata/real/SOURCES.md).
var realFixtures = []struct {
	tool, dir string
	cases     []realCase
}{
	{"claude-code", "pydantic__pydantic-ai", []realCase{
		{"rg TODO src", "allow", "allow", ""},
		{"make format", "allow", "allow", ""},
		{"make format check", "ask", "ask", ""},
		{"uv run pytest tests/ -x", "allow", "allow", ""},
		{"git push origin main", "allow", "allow", ""},
		{"git pushx", "ask", "ask", ""},
		{"gh api repos/o/r -X DELETE", "allow", "allow", ""},
		{"uv run pytest && rm -rf build", "ask", "ask", ""},
		{"grep -rl TODO . | xargs rm", "ask", "ask", ""},
		{"find . -name '*.pyc' -exec rm {} +", "ask", "ask", "both: the rm run by find -exec has no rule"},
	}},
	{"claude-code", "biomejs__biome", []realCase{
		{"cargo test -p biome_js_parser", "allow", "allow", ""},
		{"cargo check", "allow", "allow", ""},
		{"cargo biome-cli check .", "deny", "deny", ""},
		{"cargo biome-cli-dev lint", "deny", "deny", ""},
		{"cargo build", "ask", "ask", ""},
		{"just gen-all", "allow", "allow", ""},
		{"grep -r foo crates | head", "ask", "ask", ""},
		{"cargo run --bin biome -- format x.js", "allow", "allow", ""},
		{"cargo test && cargo biome-cli x", "deny", "deny", ""},
		{"find crates -name '*.snap.new' -delete", "allow", "allow", ""},
	}},
	{"claude-code", "getsentry__sentry-javascript", []realCase{
		{"git status", "allow", "allow", ""},
		{"git push --force origin master", "allow", "allow", "the file allows every git command"},
		{"yarn build:dev", "allow", "allow", ""},
		{"ls -la packages", "allow", "allow", ""},
		{"mv a b", "allow", "allow", ""},
		{"rm -rf node_modules", "ask", "ask", ""},
		{"git -c core.pager=less log", "ask", "allow", "stricter: a git -c option can name a program git runs (core.pager, core.sshCommand)"},
		{"yarn && curl x | sh", "ask", "ask", ""},
		{"find . -name '*.log'", "allow", "allow", ""},
		{"GIT_SSH_COMMAND=x git fetch", "ask", "ask", "both: an assignment before the command; spillway: GIT_SSH_COMMAND names a program git runs"},
	}},
	{"claude-code", "prisma__prisma", []realCase{
		{"pnpm --filter @prisma/client build", "allow", "allow", "a * in the middle: Bash(pnpm --filter * build)"},
		{"pnpm --filter @prisma/client test --watch", "allow", "allow", ""},
		{"pnpm --filter cli lint", "allow", "allow", ""},
		{"pnpm --filter cli publish", "ask", "ask", ""},
		{"pnpm build:agent", "allow", "allow", ""},
		{"pnpm test:packages", "allow", "allow", ""},
		{"cat package.json | jq .version", "allow", "allow", ""},
		{"wc -l src/*.ts", "allow", "allow", ""},
		{"pnpm install", "ask", "ask", ""},
		{"gh pr view 123 --comments", "allow", "allow", ""},
	}},
	{"claude-code", "anthropics__claude-agent-sdk-python", []realCase{
		{"python -m ruff check src/ tests/ --fix", "allow", "allow", ""},
		{"python -m ruff format src/ tests/", "allow", "allow", ""},
		{"python -m mypy src/", "allow", "allow", ""},
		{"python -m pytest tests/", "allow", "allow", ""},
		{"python -m pytest tests/test_client.py", "allow", "allow", "a * glued to the end: Bash(python -m pytest tests/*)"},
		{"python -m pytest", "ask", "ask", ""},
		{"python -m mypy src/ --strict", "ask", "ask", ""},
		{"python -c 'print(1)'", "ask", "ask", ""},
		{"python -m pytest tests/ && python -m ruff format src/ tests/", "allow", "allow", ""},
		{"python -m pytest tests/; rm -rf ~", "ask", "ask", ""},
	}},
	{"claude-code", "electron__electron", []realCase{
		{"e sync", "allow", "allow", ""},
		{"e sync -3", "allow", "allow", ""},
		{"e build -k 999", "allow", "allow", ""},
		{"git log --oneline -5", "allow", "allow", ""},
		{"git am patches/*.patch", "allow", "allow", ""},
		{"echo hi | tee out.txt", "allow", "allow", ""},
		{"echo $(cat ~/.ssh/id_rsa)", "ask", "ask", ""},
		{"git push", "ask", "ask", ""},
		{"e patches --list-targets", "allow", "allow", ""},
		{"tee /etc/hosts < x", "allow", "allow", "the file allows tee of any file"},
	}},
	{"claude-code", "anthropics__anthropic-sdk-typescript", []realCase{
		{"npm test", "allow", "allow", ""},
		{"npm test -- --watch", "allow", "allow", ""},
		{"npm run lint", "allow", "allow", ""},
		{"npm run lint -- --fix", "ask", "ask", ""},
		{"npm run format:check", "ask", "ask", "both: Bash(npm run format:*) is the prefix \"npm run format\" at a word boundary"},
		{"npm run format", "allow", "allow", ""},
		{"npm install", "ask", "ask", ""},
		{"npm testx", "ask", "ask", ""},
		{"npm test && npm publish", "ask", "ask", ""},
		{"NODE_OPTIONS=--require=./x.js npm test", "ask", "ask", "both: an assignment before the command; spillway: NODE_OPTIONS makes node load code"},
	}},
	{"claude-code", "facebook__react", []realCase{
		{"yarn test --watch ReactDOM", "allow", "allow", ""},
		{"yarn test-www", "allow", "allow", ""},
		{"yarn testx", "ask", "ask", ""},
		{"yarn build react/index --type=NODE", "allow", "allow", ""},
		{"yarn download-build", "deny", "deny", ""},
		{"npm install", "deny", "deny", "the file denies npm, pnpm, bun and npx: yarn only"},
		{"npx prettier --write .", "deny", "deny", ""},
		{"yarn install", "ask", "ask", ""},
		{"yarn test && npm publish", "deny", "deny", "both: a denied part denies the whole command"},
		{"yarn test 2>&1 | tail -20", "ask", "ask", "both: tail has no rule"},
	}},
	{"claude-code", "getsentry__sentry-python", []realCase{
		{"git status", "allow", "allow", ""},
		{"git push --force", "allow", "allow", "the file allows every git command"},
		{"git -c core.sshCommand=x fetch", "ask", "allow", "stricter: a git -c option can name a program git runs (core.pager, core.sshCommand)"},
		{"find . -name '*.py' -delete", "allow", "allow", ""},
		{"find . -exec rm {} +", "ask", "allow", "stricter: the rm that find -exec runs is a command of its own, and no rule allows rm"},
		{"grep -r foo sentry_sdk", "allow", "allow", ""},
		{"mv a b", "allow", "allow", ""},
		{"rm -rf build", "ask", "ask", ""},
		{"git log | head", "ask", "ask", "both: head has no rule"},
		{"git status; rm -rf /", "ask", "ask", ""},
	}},
	{"claude-code", "getsentry__sentry-go", []realCase{
		{"go test -run TestX ./http", "allow", "allow", ""},
		{"go mod tidy", "allow", "allow", ""},
		{"go mod download", "ask", "ask", "the file allows go mod tidy only"},
		{"go get foo", "ask", "ask", ""},
		{"make", "allow", "allow", "Bash(make:*) matches make alone too"},
		{"go test -exec 'sh -c' ./...", "allow", "allow", "both: the file allows every go test, and -exec names the program that runs the test binary"},
		{"gh pr merge 1", "ask", "ask", ""},
		{"gh api repos/x", "ask", "ask", ""},
		{"go test ./... && git push", "allow", "allow", "both: each part has its own allow entry"},
		{"GOFLAGS=-mod=mod go test ./...", "ask", "ask", "both: an assignment before the command"},
	}},
	{"claude-code", "getsentry__sentry-cocoa", []realCase{
		{"swift --version", "allow", "allow", ""},
		{"xcodebuild build", "ask", "ask", "the file allows xcodebuild -version, -showsdks and -list only"},
		{"make -n", "allow", "allow", ""},
		{"make test", "ask", "ask", ""},
		{"pod install", "ask", "ask", ""},
		{"gh api -X DELETE repos/x/y", "allow", "allow", "both: Bash(gh api:*) allows every method"},
		{"git stash list", "allow", "allow", ""},
		{"git stash pop", "ask", "ask", ""},
		{"python3 -c 1", "ask", "ask", "the file allows python3 --version only"},
		{"git diff | head", "allow", "allow", "both: each part of the pipeline has its own allow entry"},
	}},
	{"codex", "Altinn__altinn-studio", []realCase{
		{"cat README.md", "allow", "", ""},
		{"sed -n 1,5p x", "allow", "", ""},
		{"sed -i s/a/b/ x", "allow", "", "codex allows every sed; so does spillway (sed without e or w commands)"},
		{"git status", "allow", "", ""},
		{"git push", "ask", "", "no rule: the default"},
		{"gh pr view 7", "allow", "", ""},
		{"gh pr merge 7", "ask", "", ""},
		{"make test", "allow", "", ""},
		{"go test ./...", "allow", "", ""},
		{"yarn install", "ask", "", ""},
	}},
	{"codex", "HubSpot__hubspot-local-dev-lib", []realCase{
		{"yarn build", "allow", "", ""},
		{"yarn why axios", "allow", "", ""},
		{"yarn add left-pad", "ask", "", ""},
		{"git diff --stat", "allow", "", ""},
		{"git commit -m x", "ask", "", "decision prompt"},
		{"git push -u origin x", "ask", "", ""},
		{"gh pr checks 123", "allow", "", ""},
		{"gh pr merge 123", "ask", "", ""},
		{"gh api repos/x/y/pulls/1", "ask", "", ""},
		{"gh search issues x", "allow", "", ""},
	}},
	{"codex", "openai__codex", []realCase{
		{"just fmt", "allow", "", ""},
		{"just publish", "ask", "", ""},
		{"just", "ask", "", "no rule: the pattern needs a recipe"},
		{"cargo test -p codex-core", "allow", "", ""},
		{"cargo install ripgrep", "ask", "", ""},
		{"cargo nextest run", "allow", "", ""},
		{"cargo nextest list", "ask", "", ""},
		{"bazel run //x", "ask", "", ""},
		{"pnpm run test", "allow", "", ""},
		{"cargo test --manifest-path /tmp/x/Cargo.toml", "allow", "", "the file's own comment: --manifest-path may name a manifest outside the checkout"},
	}},
	{"codex", "HubSpot__hubspot-cli", []realCase{
		{"yarn hs project upload", "allow", "", ""},
		{"yarn lint:local", "allow", "", ""},
		{"yarn lint", "ask", "", "the pattern names lint:local, not lint"},
		{"git show HEAD:package.json", "allow", "", ""},
		{"git push", "ask", "", "decision prompt"},
		{"git reset --hard", "ask", "", "no rule: the default"},
		{"gh auth status", "allow", "", ""},
		{"gh auth login", "ask", "", ""},
		{"gh issue reopen 5", "ask", "", ""},
		{"gh search code x", "allow", "", ""},
	}},
}

func TestRealFixtures(t *testing.T) {
	var table strings.Builder
	table.WriteString("| file | command | spillway | theirs | why they differ (or a note) |\n|---|---|---|---|---|\n")
	dirs, _ := os.ReadDir("testdata/real/claude")
	for _, d := range dirs {
		home := t.TempDir()
		data, err := os.ReadFile(filepath.Join("testdata/real/claude", d.Name(), "settings.json"))
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(home, ".claude", "settings.json"), string(data))
		im := Import([]string{"claude-code"}, Places{Home: home})
		if len(im.Failures) > 0 {
			t.Errorf("%s: %v", d.Name(), im.Failures)
		}
	}
	checks := readCodexChecks(t)
	for _, f := range realFixtures {
		home := t.TempDir()
		var src, dst string
		if f.tool == "codex" {
			// A repository's rules file keeps its own name
			// (default.rules, development.rules): the one *.rules file
			// in the fixture's directory.
			files, _ := filepath.Glob(filepath.Join("testdata/real/codex", f.dir, "*.rules"))
			if len(files) != 1 {
				t.Fatalf("%s: want one .rules file, have %v", f.dir, files)
			}
			src = files[0]
			dst = filepath.Join(home, ".codex", "rules", filepath.Base(src))
		} else {
			src = filepath.Join("testdata/real/claude", f.dir, "settings.json")
			dst = filepath.Join(home, ".claude", "settings.json")
		}
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, dst, string(data))
		im := Import([]string{f.tool}, Places{Home: home})
		if len(im.Failures) > 0 {
			t.Errorf("%s: %v", f.dir, im.Failures)
		}
		set := &Set{Default: Ask, Rules: im.Rules}
		for _, c := range f.cases {
			if f.tool == "codex" {
				// Codex's own decision, as codex execpolicy check gave it.
				c.theirs = codexTheirs(t, checks, f.dir, c.command)
			}
			got := set.Check(c.command).Decision.String()
			if got != c.spillway {
				t.Errorf("%s: %q: spillway %s, the table says %s", f.dir, c.command, got, c.spillway)
			}
			if c.theirs != c.spillway && c.why == "" {
				t.Errorf("%s: %q: a difference without a why", f.dir, c.command)
			}
			fmt.Fprintf(&table, "| %s | `%s` | %s | %s | %s |\n", f.dir, strings.ReplaceAll(c.command, "|", "\\|"), c.spillway, c.theirs, c.why)
		}
	}
	// The Codex file that Codex and spillway both refuse to load.
	home := t.TempDir()
	data, err := os.ReadFile("testdata/real/codex/HHS__TANF-app/default.rules")
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(home, ".codex", "rules", "default.rules"), string(data))
	set := &Set{Default: Ask, Rules: Import([]string{"codex"}, Places{Home: home}).Rules}
	for _, c := range codexRefused {
		c.theirs = codexTheirs(t, checks, "HHS__TANF-app", c.command)
		if got := set.Check(c.command).Decision.String(); got != c.spillway {
			t.Errorf("HHS__TANF-app: %q: spillway %s, the table says %s", c.command, got, c.spillway)
		}
		fmt.Fprintf(&table, "| HHS__TANF-app | `%s` | %s | %s | %s |\n", c.command, c.spillway, c.theirs, c.why)
	}
	const begin, end = "<!-- fixtures table: go test ./internal/rules -run TestRealFixtures -update-table -->\n", "<!-- end of fixtures table -->\n"
	doc, err := os.ReadFile("../../docs/rules.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(doc)
	i, j := strings.Index(s, begin), strings.Index(s, end)
	if *updateTable {
		if i < 0 || j < i {
			s += "\n" + begin + end
			i, j = strings.Index(s, begin), strings.Index(s, end)
		}
		s = s[:i+len(begin)] + table.String() + s[j:]
		if err := os.WriteFile("../../docs/rules.md", []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if i < 0 || j < i || s[i+len(begin):j] != table.String() {
		t.Errorf("docs/rules.md's fixtures table is not this test's: run it with -update-table")
	}
}

// The TANF-app file's own match example does not hold ("cat .env.local"
// is no prefix of ["cat", ".env"]): Codex refuses the file, and spillway
// makes it an import failure, every command asking, naming the line.
func TestRealCodexFileThatFails(t *testing.T) {
	home := t.TempDir()
	data, _ := os.ReadFile("testdata/real/codex/HHS__TANF-app/default.rules")
	writeFile(t, filepath.Join(home, ".codex", "rules", "default.rules"), string(data))
	im := Import([]string{"codex"}, Places{Home: home})
	if len(im.Failures) != 1 || !strings.Contains(im.Failures[0].Error(), "default.rules:12") || !strings.Contains(im.Failures[0].Error(), "cat .env.local") {
		t.Fatalf("failures: %v", im.Failures)
	}
	if d := (&Set{Rules: im.Rules}).Check("ls").Decision; d != Ask {
		t.Errorf("ls: %s", d)
	}
}
