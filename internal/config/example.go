package config

import (
	"fmt"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"github.com/spillway-dev/spillway"
	"github.com/spillway-dev/spillway/internal/policy"
)

// keyComments say in a few words what each key of the config file does,
// for the example file Example writes. A key without one makes Example
// fail, so that a new key cannot reach the README without a word on it.
var keyComments = map[string]string{
	"profile":       "default, or the limits of another harness: " + strings.Join(policy.ProfileNames()[1:], ", "),
	"shell":         "the shell that runs bash commands",
	"timeout_ms":    "bash: after this a command moves to the background; mcp and serve default to 50000, under the clients' 60 s",
	"result_budget": "the most characters one result shows, all in (read, grep, find and ls: max_bytes at most 1000 less, for notices); 0: no budget",

	"spill":               "where cut output is kept whole",
	"spill.dir":           `where spill directories are made; "": $TMPDIR`,
	"spill.max_bytes":     "one spill file at most (100 MiB)",
	"spill.budget_bytes":  "one session's spill files at most (1 GiB); the oldest go first",
	"spill.keep_named_ms": "a file a result named is kept from the budget this long",

	"bash":                "both streams; [bash.stdout] / [bash.stderr] take the same keys for one",
	"bash.strategy":       "which end is kept: head, tail or head_tail",
	"bash.head_share":     "head_tail: the head's share of the limits",
	"bash.max_lines":      "lines shown of a stream",
	"bash.max_bytes":      "bytes shown of a stream",
	"bash.max_line_chars": "a longer line is cut; 0: never",
	"bash.max_tokens":     "estimated tokens shown of a stream; 0: no limit",
	"bash.merge_streams":  "stderr into stdout, in order of arrival",
	"bash.max_processes":  "processes and threads of one command at most; 0: no cap",

	"read":                "one page of a file",
	"read.max_lines":      "lines of a page (the limit parameter's default)",
	"read.max_bytes":      "bytes of a page",
	"read.max_line_chars": "a longer line is cut, and continued with char_offset; 0: never",
	"read.max_tokens":     "estimated tokens of a page; 0: no limit",

	"grep":                "search results",
	"grep.limit":          "matches shown (the limit parameter's default)",
	"grep.max_bytes":      "bytes of a result",
	"grep.max_line_chars": "a longer matching line is shown around its match",
	"grep.max_tokens":     "estimated tokens of a result; 0: no limit",

	"find":            "file search results",
	"find.limit":      "paths shown (the limit parameter's default)",
	"find.max_bytes":  "bytes of a result",
	"find.max_tokens": "estimated tokens of a result; 0: no limit",

	"ls":            "one directory",
	"ls.limit":      "entries shown (the limit parameter's default)",
	"ls.max_bytes":  "bytes of a result",
	"ls.max_tokens": "estimated tokens of a result; 0: no limit",

	"cache":          "bash results reused for the commands listed",
	"cache.commands": `e.g. ["git status", "ls*"]; empty: nothing is cached`,
	"cache.ttl_ms":   "how old a reused result may be",

	"rules":                  "command rules: every part of a bash command decided before it runs (docs/rules.md)",
	"rules.default":          "a part no rule matches: allow, ask or deny (once any rule is set, code spillway cannot read, e.g. python3 -c, is ask)",
	"rules.file_default":     "an edit, write or apply_patch no Read/Edit/Write rule matches: allow, ask or deny",
	"rules.allow":            `patterns, e.g. ["git status", "npm test *"]`,
	"rules.ask":              `the user approves these first, e.g. ["git push *"]`,
	"rules.deny":             `never run, e.g. ["rm *", "Edit(.env)"] (Read/Edit/Write(…) are file rules)`,
	"rules.import":           `also the rules of "claude-code", "codex"`,
	"rules.trusted_projects": `folders whose own allow entries count, e.g. ["~/src/mine"]`,
	"rules.settings_files":   `more Claude Code settings files of yours`,
	"rules.no_client_forms":  "true: approvals wait in spillway console, not the client's form (codex exec declines every form)",
	"secrets":                "whose password prompts get a page the person answers on",
	"secrets.trusted":        "the system's programs verified besides set-uid sudo, su, passwd, doas",
	"secrets.unverified":     `a prompt from any other program: "warn" (the page warns) or "refuse" (no page)`,
}

// leftOut are the keys Example writes commented out: setting them to
// their default would change what spillway does. timeout_ms's default is
// the CLI's; the servers use their own, which a written key would replace.
var leftOut = map[string]bool{"timeout_ms": true}

// commentColumn is where the comments of Example's lines start.
const commentColumn = 28

// Example renders the config file of policy p with every key, its value
// in p and one comment each: the README's example, read back by
// ParseConfig. The keys [bash] shares with its streams are written once,
// in [bash]; [bash.stdout] and [bash.stderr] are named in its comment.
func Example(p spillway.Policy) (string, error) {
	var b strings.Builder
	line := func(text, comment string) {
		if comment == "" {
			b.WriteString(text + "\n")
			return
		}
		pad := max(commentColumn-len(text), 1)
		b.WriteString(text + strings.Repeat(" ", pad) + "# " + comment + "\n")
	}
	for _, k := range policyKeys() {
		if len(k.Path) > 1 && isStreamTable(k.Path[:2]) {
			continue // the keys of one stream: [bash] shows them
		}
		comment, ok := keyComments[k.Name]
		if !ok {
			return "", fmt.Errorf("config key %s has no comment in keyComments", k.Name)
		}
		if k.Table() {
			b.WriteString("\n")
			line("["+k.Name+"]", comment)
			continue
		}
		text, err := exampleLine(k, p)
		if err != nil {
			return "", err
		}
		if leftOut[k.Name] {
			text = "# " + text
		}
		line(text, comment)
	}
	return b.String(), nil
}

// isStreamTable reports whether path is [bash.stdout] or [bash.stderr].
func isStreamTable(path []string) bool {
	return len(path) == 2 && path[0] == "bash" && (path[1] == "stdout" || path[1] == "stderr")
}

// exampleLine is "name = value" for key k of the policy p, in TOML.
func exampleLine(k policy.Key, p spillway.Policy) (string, error) {
	x := k.Value(p)
	out, err := toml.Marshal(map[string]any{k.Path[len(k.Path)-1]: x})
	if err != nil {
		return "", err
	}
	text := strings.TrimSpace(string(out))
	// Strings in double quotes, as people write them.
	if name, val, ok := strings.Cut(text, " = '"); ok && strings.HasSuffix(val, "'") && !strings.ContainsAny(val, `"\`) {
		text = name + ` = "` + strings.TrimSuffix(val, "'") + `"`
	}
	return text, nil
}
