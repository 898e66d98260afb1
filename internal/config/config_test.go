package config

import (
	"errors"
	"github.com/spillway-dev/spillway"
	"github.com/spillway-dev/spillway/internal/policy"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/spillway-dev/spillway/output"
)

// everyKey sets every key of the config file to a value no profile has.
const everyKey = `profile = "pipe"
shell = "/bin/sh"
timeout_ms = 5000
result_budget = 33333

[spill]
dir = "/var/tmp/spill"
max_bytes = 1000000
budget_bytes = 9000000
keep_named_ms = 60000

[bash]
strategy = "head"
head_share = 0.25
max_lines = 111
max_bytes = 2222
max_line_chars = 333
max_tokens = 3030
merge_streams = true
max_processes = 777

[bash.stdout]
strategy = "head_tail"
head_share = 0.75
max_lines = 444
max_bytes = 5555
max_line_chars = 666
max_tokens = 6060

[read]
max_lines = 1234
max_bytes = 23456
max_line_chars = 345
max_tokens = 3400

[grep]
limit = 42
max_bytes = 4343
max_line_chars = 44
max_tokens = 4400

[find]
limit = 4545
max_bytes = 4646
max_tokens = 4600

[ls]
limit = 4747
max_bytes = 4848
max_tokens = 4800

[cache]
commands = ["git status", "ls *"]
ttl_ms = 4949

[rules]
default = "ask"
file_default = "deny"
allow = ["git status", "npm test *"]
ask = ["git push:*"]
deny = ["rm *"]
import = ["codex", "claude-code"]
trusted_projects = ["/src/mine", "~/work"]
settings_files = ["~/team/claude.json"]
no_client_forms = true
[secrets]
trusted = ["ssh", "pass"]
unverified = "refuse"
`

func TestConfigEveryKey(t *testing.T) {
	cfg, err := ParseConfig("every.toml", []byte(everyKey))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Profile() != "pipe" {
		t.Errorf("profile %q", cfg.Profile())
	}
	p := mustProfile(t, cfg.Profile())
	cfg.Apply(&p)
	checks := []struct {
		key       string
		got, want any
	}{
		{"profile", p.Profile, "pipe"},
		{"shell", p.Shell, "/bin/sh"},
		{"timeout_ms", p.Timeout, 5 * time.Second},
		{"result_budget", p.ResultBudget, 33333},
		{"spill.dir", p.Spill.Dir, "/var/tmp/spill"},
		{"spill.max_bytes", p.Spill.MaxBytes, int64(1000000)},
		{"spill.budget_bytes", p.Spill.BudgetBytes, int64(9000000)},
		{"spill.keep_named_ms", p.Spill.KeepNamed, time.Minute},
		// [bash] sets both streams; [bash.stdout] wins for stdout.
		{"bash.strategy", p.Bash.Stderr.Strategy, output.Head},
		{"bash.head_share", p.Bash.Stderr.HeadShare, 0.25},
		{"bash.max_lines", p.Bash.Stderr.MaxLines, 111},
		{"bash.max_bytes", p.Bash.Stderr.MaxBytes, 2222},
		{"bash.max_line_chars", p.Bash.Stderr.MaxLineChars, 333},
		{"bash.max_tokens", p.Bash.Stderr.MaxTokens, 3030},
		{"bash.merge_streams", p.Bash.MergeStreams, true},
		{"bash.max_processes", p.Bash.MaxProcesses, 777},
		{"bash.stdout.strategy", p.Bash.Stdout.Strategy, output.HeadTail},
		{"bash.stdout.head_share", p.Bash.Stdout.HeadShare, 0.75},
		{"bash.stdout.max_lines", p.Bash.Stdout.MaxLines, 444},
		{"bash.stdout.max_bytes", p.Bash.Stdout.MaxBytes, 5555},
		{"bash.stdout.max_line_chars", p.Bash.Stdout.MaxLineChars, 666},
		{"bash.stdout.max_tokens", p.Bash.Stdout.MaxTokens, 6060},
		{"read.max_lines", p.Read.MaxLines, 1234},
		{"read.max_bytes", p.Read.MaxBytes, 23456},
		{"read.max_line_chars", p.Read.MaxLineChars, 345},
		{"read.max_tokens", p.Read.MaxTokens, 3400},
		{"grep.limit", p.Grep.Limit, 42},
		{"grep.max_bytes", p.Grep.MaxBytes, 4343},
		{"grep.max_line_chars", p.Grep.MaxLineChars, 44},
		{"grep.max_tokens", p.Grep.MaxTokens, 4400},
		{"find.limit", p.Find.Limit, 4545},
		{"find.max_bytes", p.Find.MaxBytes, 4646},
		{"find.max_tokens", p.Find.MaxTokens, 4600},
		{"ls.limit", p.Ls.Limit, 4747},
		{"ls.max_bytes", p.Ls.MaxBytes, 4848},
		{"ls.max_tokens", p.Ls.MaxTokens, 4800},
		{"cache.commands", strings.Join(p.Cache.Commands, "|"), "git status|ls *"},
		{"cache.ttl_ms", p.Cache.TTL, 4949 * time.Millisecond},
		{"rules.default", p.Rules.Default, "ask"},
		{"rules.file_default", p.Rules.FileDefault, "deny"},
		{"rules.allow", strings.Join(p.Rules.Allow, "|"), "git status|npm test *"},
		{"rules.ask", strings.Join(p.Rules.Ask, "|"), "git push:*"},
		{"rules.deny", strings.Join(p.Rules.Deny, "|"), "rm *"},
		{"rules.import", strings.Join(p.Rules.Import, "|"), "codex|claude-code"},
		{"rules.trusted_projects", strings.Join(p.Rules.TrustedProjects, "|"), "/src/mine|~/work"},
		{"rules.settings_files", strings.Join(p.Rules.SettingsFiles, "|"), "~/team/claude.json"},
		{"rules.no_client_forms", p.Rules.NoClientForms, true},
		{"secrets.trusted", strings.Join(p.Secrets.Trusted, "|"), "ssh|pass"},
		{"secrets.unverified", p.Secrets.Unverified, "refuse"},
		// Not a config key: it comes from the profile.
		{"(pipe's spill when)", p.Bash.SpillWhen, output.SpillPastBytes},
	}
	// [bash.stderr] over [bash], stdout left to [bash].
	cfg2, err := ParseConfig("stderr.toml", []byte(`[bash]
max_lines = 10
[bash.stderr]
strategy = "tail"
head_share = 0.125
max_lines = 20
max_bytes = 30
max_line_chars = 40
max_tokens = 50
`))
	if err != nil {
		t.Fatal(err)
	}
	q := spillway.DefaultPolicy()
	cfg2.Apply(&q)
	checks = append(checks, []struct {
		key       string
		got, want any
	}{
		{"bash.stderr.strategy", q.Bash.Stderr.Strategy, output.Tail},
		{"bash.stderr.head_share", q.Bash.Stderr.HeadShare, 0.125},
		{"bash.stderr.max_lines", q.Bash.Stderr.MaxLines, 20},
		{"bash.stderr.max_bytes", q.Bash.Stderr.MaxBytes, 30},
		{"bash.stderr.max_line_chars", q.Bash.Stderr.MaxLineChars, 40},
		{"bash.stderr.max_tokens", q.Bash.Stderr.MaxTokens, 50},
		{"(stdout under [bash] alone)", q.Bash.Stdout, output.Limits{Strategy: output.HeadTail, HeadShare: 0.4, MaxLines: 10, MaxBytes: 51200, MaxLineChars: 2000}},
	}...)
	checked := map[string]bool{}
	for _, c := range checks {
		checked[c.key] = true
		if c.got != c.want {
			t.Errorf("%s: got %v, want %v", c.key, c.got, c.want)
		}
	}
	// The test covers every key the file format has.
	for _, key := range allKeys(nil) {
		if !checked[key] {
			t.Errorf("key %s is not checked", key)
		}
	}
	roundTrip(t, p)
}

// allKeys lists every leaf key of the config file under path.
func allKeys(path []string) []string {
	var keys []string
	for _, k := range knownKeys(path) {
		sub := append(slices.Clone(path), k)
		if k, _ := lookup(sub); k.Table() {
			keys = append(keys, allKeys(sub)...)
		} else {
			keys = append(keys, strings.Join(sub, "."))
		}
	}
	return keys
}

// roundTrip checks that p written as a config file and read back, over its
// profile, is p.
func roundTrip(t *testing.T, p spillway.Policy) {
	t.Helper()
	doc, err := TOML(p)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := ParseConfig("roundtrip.toml", doc)
	if err != nil {
		t.Fatalf("%v\n%s", err, doc)
	}
	back := mustProfile(t, cfg.Profile())
	cfg.Apply(&back)
	// Where the rules were written is no value of the policy.
	back.Rules.Sources, p.Rules.Sources = nil, nil
	if !reflect.DeepEqual(back, p) {
		t.Errorf("round trip:\n got %+v\nwant %+v\n%s", back, p, doc)
	}
}

func TestConfigRoundTripProfiles(t *testing.T) {
	for _, name := range policy.ProfileNames() {
		t.Run(name, func(t *testing.T) { roundTrip(t, mustProfile(t, name)) })
	}
}

func TestConfigErrors(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		line int
		key  string
		msg  string
	}{
		{"unknown key", "[bash]\nmax_lines = 10\nmax_line = 3\n", 3, "bash.max_line", "unknown key; [bash] takes strategy, head_share, max_lines"},
		{"unknown top-level key", "profil = \"pi\"\n", 1, "profil", "unknown key; the top level takes profile, shell"},
		{"unknown table", "\n\n[bsh]\nmax_lines = 3\n", 3, "bsh", "unknown table"},
		{"cache commands not an array", "[cache]\ncommands = \"ls\"\n", 2, "cache.commands", "want an array of strings, not a string"},
		{"cache ttl zero", "[cache]\nttl_ms = 0\n", 2, "cache.ttl_ms", "must be at least 1, not 0"},
		{"empty cache command", "[cache]\ncommands = [\" * \"]\n", 2, "cache.commands", "entry 1 is empty"},
		{"a path as a trusted program", "[secrets]\ntrusted = [\"/usr/bin/ssh\"]\n", 2, "secrets.trusted", "is not a program's name"},
		{"an interpreter as a trusted program", "[secrets]\ntrusted = [\"ssh\", \"python3\"]\n", 2, "secrets.trusted", "entry 2, \"python3\", is an interpreter"},
		{"unverified neither warn nor refuse", "[secrets]\nunverified = \"allow\"\n", 2, "secrets.unverified", "want \"warn\""},
		{"unknown key in a stream", "[bash.stdout]\nmerge_streams = true\n", 2, "bash.stdout.merge_streams", "[bash.stdout] takes strategy"},
		{"string for an integer", "[bash]\nmax_lines = \"10\"\n", 2, "bash.max_lines", "want an integer, not a string"},
		{"float for an integer", "[read]\n\nmax_bytes = 2.5\n", 3, "read.max_bytes", "want an integer, not a float"},
		{"integer for a boolean", "[bash]\nmerge_streams = 1\n", 2, "bash.merge_streams", "want true or false, not an integer"},
		{"integer for a table", "grep = 5\n", 1, "grep", "want a table, not an integer"},
		{"integer for a string", "shell = 5\n", 1, "shell", "want a string, not an integer"},
		{"string for a number", "[bash]\nhead_share = \"half\"\n", 2, "bash.head_share", "want a number, not a string"},
		{"negative max_lines", "[bash]\nmax_lines = -5\n", 2, "bash.max_lines", "must be at least 1, not -5"},
		{"negative stream max_bytes", "[bash.stderr]\nmax_bytes = -1\n", 2, "bash.stderr.max_bytes", "must be at least 1, not -1"},
		{"negative max_line_chars", "[read]\nmax_line_chars = -2\n", 2, "read.max_line_chars", "must not be negative, not -2"},
		{"negative max_tokens", "[bash.stdout]\nmax_tokens = -3\n", 2, "bash.stdout.max_tokens", "must not be negative, not -3"},
		{"zero limit", "[ls]\nlimit = 0\n", 2, "ls.limit", "must be at least 1, not 0"},
		{"negative find limit", "[find]\nlimit = -1\n", 2, "find.limit", "must be at least 1"},
		{"negative grep max_bytes", "[grep]\nmax_bytes = -100\n", 2, "grep.max_bytes", "must be at least 1"},
		{"negative timeout", "timeout_ms = -1\n", 1, "timeout_ms", "must be at least 1"},
		{"tiny result budget", "result_budget = 100\n", 1, "result_budget", "want 0 (no budget) or at least 2000"},
		{"negative spill cap", "[spill]\nmax_bytes = -1\n", 2, "spill.max_bytes", "must be at least 1"},
		{"negative spill budget", "[spill]\nbudget_bytes = -10\n", 2, "spill.budget_bytes", "must be at least 1"},
		{"head_share above 1", "[bash]\nhead_share = 1.5\n", 2, "bash.head_share", "from 0 to 1, not 1.5"},
		{"head_share nan", "[bash.stdout]\nhead_share = nan\n", 2, "bash.stdout.head_share", "from 0 to 1, not NaN"},
		{"bad strategy", "[bash]\nstrategy = \"middle\"\n", 2, "bash.strategy", `"middle" is not a strategy; want head, tail or head_tail`},
		{"unknown profile", "\nprofile = \"claude\"\n", 2, "profile", "unknown profile \"claude\"; want one of default, pi, zdx, opencode, macos-shell, pipe"},
		{"empty shell", "shell = \"\"\n", 1, "shell", "is empty"},
		{"negative in an inline table", "bash = { stdout = { max_lines = -3 } }\n", 1, "bash.stdout.max_lines", "must be at least 1"},
		{"negative dotted key", "\nbash.stderr.max_lines = -3\n", 2, "bash.stderr.max_lines", "must be at least 1"},
		{"duplicate key", "[bash]\nmax_lines = 1\nmax_lines = 2\n", 3, "max_lines", "already defined"},
		{"syntax error", "[bash]\nmax_lines = \n", 2, "", "at start of value"},
		{"number too large", "[bash]\nmax_lines = 99999999999999999999\n", 2, "bash.max_lines", "too large"},
		{"number too large inline", "bash = { stdout = { max_bytes = 1, max_lines = 99999999999999999999 } }\n", 1, "bash.stdout.max_lines", "too large"},
		{"integer in cache commands", "[cache]\ncommands = [\"a\", 1]\n", 2, "cache.commands", "want an array of strings, not an integer"},
		{"integer in inline cache commands", "cache = { commands = [1] }\n", 1, "cache.commands", "want an array of strings, not an integer"},
		{"array in cache commands", "[cache]\ncommands = [[\"a\"]]\n", 2, "cache.commands", "want an array of strings, not an array"},
		{"date for an integer", "timeout_ms = 1979-05-27\n", 1, "timeout_ms", "want an integer, not a date or time"},
		{"array table", "[[bash]]\nmax_lines = 1\n", 1, "bash", "want a table, not an array"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseConfig("spillway.toml", []byte(tt.doc))
			var ce *ConfigError
			if !errors.As(err, &ce) {
				t.Fatalf("got %v, want a *ConfigError", err)
			}
			if ce.File != "spillway.toml" || ce.Line != tt.line || ce.Key != tt.key || !strings.Contains(ce.Msg, tt.msg) {
				t.Errorf("got %s (line %d, key %q, msg %q), want line %d, key %q, msg containing %q", err, ce.Line, ce.Key, ce.Msg, tt.line, tt.key, tt.msg)
			}
			prefix := "spillway.toml:" + strconv.Itoa(tt.line) + ":"
			if !strings.HasPrefix(err.Error(), prefix) {
				t.Errorf("error %q does not start with %q", err, prefix)
			}
		})
	}
}

// TestConfigErrorsAll: every problem is reported at once, in line order.
func TestConfigErrorsAll(t *testing.T) {
	doc := "profile = \"nope\"\n[bash]\nmax_lines = -1\nmax_linez = 3\n[grep]\nlimit = 0\n"
	_, err := ParseConfig("c.toml", []byte(doc))
	wantErrorLines(t, err, []string{
		`c.toml:1: profile: unknown profile "nope"`,
		`c.toml:3: bash.max_lines: must be at least 1, not -1`,
		`c.toml:4: bash.max_linez: unknown key`,
		`c.toml:6: grep.limit: must be at least 1, not 0`,
	})
}

// TestConfigErrorsAllKinds: values of the wrong type are listed with the
// unknown keys and the values out of range, not one group at a time.
func TestConfigErrorsAllKinds(t *testing.T) {
	doc := "timeout_ms = \"slow\"\n[bash]\nmax_lines = -1\nmax_linez = 3\nmerge_streams = 1\n[read]\nmax_bytes = 2.5\n[grep]\nlimit = 0\n"
	_, err := ParseConfig("c.toml", []byte(doc))
	wantErrorLines(t, err, []string{
		`c.toml:1: timeout_ms: want an integer, not a string`,
		`c.toml:3: bash.max_lines: must be at least 1, not -1`,
		`c.toml:4: bash.max_linez: unknown key`,
		`c.toml:5: bash.merge_streams: want true or false, not an integer`,
		`c.toml:7: read.max_bytes: want an integer, not a float`,
		`c.toml:9: grep.limit: must be at least 1, not 0`,
	})
}

// wantErrorLines checks that err lists exactly the problems want, one a
// line, in order; each line starts with its want.
func wantErrorLines(t *testing.T, err error, want []string) {
	t.Helper()
	if err == nil {
		t.Fatal("no error")
	}
	lines := strings.Split(err.Error(), "\n")
	if len(lines) != len(want) {
		t.Fatalf("got %d errors:\n%s\nwant %d", len(lines), err, len(want))
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("error %d: %q, want it to start with %q", i, lines[i], w)
		}
	}
}

// TestConfigCeilings: a file cannot pass the hard ceilings either.
func TestConfigCeilings(t *testing.T) {
	doc := "[bash]\nmax_bytes = 1073741824\nmax_lines = 999999999\nmax_line_chars = 99999999\n" +
		"[read]\nmax_bytes = 1099511627776\n[grep]\nlimit = 50000000\n[ls]\nmax_bytes = 5000000\n"
	cfg, err := ParseConfig("big.toml", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	p := spillway.DefaultPolicy()
	cfg.Apply(&p)
	if p.Bash.Stdout.MaxBytes != policy.StreamCeiling || p.Bash.Stderr.MaxBytes != policy.StreamCeiling || p.Read.MaxBytes != policy.StreamCeiling || p.Ls.MaxBytes != policy.StreamCeiling {
		t.Errorf("max_bytes not held to %d: bash %d/%d, read %d, ls %d", policy.StreamCeiling, p.Bash.Stdout.MaxBytes, p.Bash.Stderr.MaxBytes, p.Read.MaxBytes, p.Ls.MaxBytes)
	}
	if p.Bash.Stdout.MaxLines != policy.LinesCeiling || p.Grep.Limit != policy.LinesCeiling {
		t.Errorf("lines not held to %d: bash %d, grep %d", policy.LinesCeiling, p.Bash.Stdout.MaxLines, p.Grep.Limit)
	}
	if p.Bash.Stdout.MaxLineChars != policy.StreamCeiling {
		t.Errorf("max_line_chars %d, want %d", p.Bash.Stdout.MaxLineChars, policy.StreamCeiling)
	}
}

func TestPrecedence(t *testing.T) {
	dir := t.TempDir()
	write := func(name, doc string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(doc), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	cfgPath := write("c.toml", "profile = \"pi\"\n[bash]\nmax_lines = 1500\n[read]\nmax_bytes = 40000\n")

	// Defaults.
	p, err := Load(Sources{})
	if err != nil {
		t.Fatal(err)
	}
	if p.Profile != "default" || p.Bash.Stdout.MaxBytes != 51200 || p.Bash.Stdout.MaxLines != 2000 {
		t.Errorf("defaults: %+v", p)
	}
	// policy.Profile over defaults.
	if p, err = Load(Sources{Profile: "pi"}); err != nil {
		t.Fatal(err)
	}
	if p.Bash.Stdout.MaxBytes != 30720 || p.Bash.Stdout.Strategy != output.Tail || p.Read.MaxBytes != 30720 {
		t.Errorf("profile pi: bash %+v, read %+v", p.Bash.Stdout, p.Read)
	}
	// Config over profile: the file names pi and changes two values.
	if p, err = Load(Sources{ConfigPath: cfgPath}); err != nil {
		t.Fatal(err)
	}
	if p.Profile != "pi" || p.Bash.Stdout.Strategy != output.Tail || p.Bash.Stdout.MaxLines != 1500 || p.Read.MaxBytes != 40000 || p.Bash.Stdout.MaxBytes != 30720 {
		t.Errorf("config: profile %s, bash %+v, read %+v", p.Profile, p.Bash.Stdout, p.Read)
	}
	// Flags over config: --profile picks zdx over the file's pi, whose
	// values the file still changes; --format json.
	if p, err = Load(Sources{Profile: "zdx", ConfigPath: cfgPath}); err != nil {
		t.Fatal(err)
	}
	if p.Profile != "zdx" || p.Bash.Stdout.Strategy != output.Head || p.Bash.Stdout.MaxLines != 1500 || p.Read.MaxBytes != 40000 {
		t.Errorf("flags: profile %s, bash %+v, read %+v", p.Profile, p.Bash.Stdout, p.Read)
	}
	// Per-call over all: max_lines 100 and a 1 GiB max_bytes held to the ceiling.
	if l := policy.ForCall(p.Bash.Stdout, 100, 1<<30, false); l.MaxLines != 100 || l.MaxBytes != policy.StreamCeiling {
		t.Errorf("per call: %+v", l)
	}
	if n := policy.Limit(7, p.Read.MaxLines); n != 7 || p.Read.MaxBytes != 40000 {
		t.Errorf("per call read: %d lines, %d bytes", n, p.Read.MaxBytes)
	}
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.toml")
	os.WriteFile(bad, []byte("[bash]\nmax_bytes = -1\n"), 0o600)
	tests := []struct {
		name string
		src  Sources
		want string
	}{
		{"missing file", Sources{ConfigPath: filepath.Join(dir, "none.toml")}, "none.toml"},
		{"bad file", Sources{ConfigPath: bad}, bad + ":2: bash.max_bytes: must be at least 1, not -1"},
		{"bad profile", Sources{Profile: "codex"}, `--profile: unknown profile "codex"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load(tt.src)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

func TestDocsConfigExample(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "profiles.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "```toml\n")
	example, _, ok2 := strings.Cut(rest, "```")
	if !ok || !ok2 {
		t.Fatal("docs/profiles.md has no toml example")
	}
	cfg, err := ParseConfig("docs/profiles.md", []byte(example))
	if err != nil {
		t.Fatal(err)
	}
	p := mustProfile(t, cfg.Profile())
	cfg.Apply(&p)
	if p.Bash.Stderr.MaxLines != 500 || p.Bash.Stdout.MaxLines != 2000 || p.Spill.Dir != "/var/tmp" {
		t.Errorf("example applied: stderr %d lines, stdout %d, spill dir %q", p.Bash.Stderr.MaxLines, p.Bash.Stdout.MaxLines, p.Spill.Dir)
	}
}

func mustProfile(t *testing.T, name string) spillway.Policy {
	t.Helper()
	p, err := spillway.Profile(name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
