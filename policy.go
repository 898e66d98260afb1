package spillway

import (
	"fmt"
	"time"

	"github.com/spillway-dev/spillway/internal/fields"
	"github.com/spillway-dev/spillway/internal/policy"
	"github.com/spillway-dev/spillway/internal/spill"
	"github.com/spillway-dev/spillway/output"
	"github.com/spillway-dev/spillway/tool"
)

// A Policy is the whole set of limits a toolset applies: the shell and
// its default timeout, the result budget, where spill files go, and one
// policy per tool. It is plain data; start from DefaultPolicy or Profile
// and change what you need. docs/tools.md states the defaults under every
// profile, and docs/profiles.md the config keys that set them.
//
// The toml tag of a field is its config key (a time.Duration key counts
// milliseconds), and the tags beside it bound it, once, for the config
// file and for Validate alike: min is the least value, max the ceiling a
// larger value is held to ("lines" is 100,000, "stream"
// 1 MiB, "int32" the largest int32), and check names a rule of
// its own. A field with no toml tag has no config key.
type Policy struct {
	// Profile names the profile the policy was built from.
	Profile string `toml:"profile"`
	// Shell runs bash commands: "bash" unless configured.
	Shell string `toml:"shell" check:"shell" doc:"the shell that runs bash commands"`
	// Timeout is the default bash timeout, after which a command moves to
	// the background (it is not killed); 120 s by default.
	Timeout time.Duration `toml:"timeout_ms" min:"1" ceiling:"int32" doc:"bash: after this a command moves to the background; mcp and serve default to 50000, under the clients' 60 s"`
	// MaxWait, when above zero, bounds how long one call waits: a
	// command's timeout and check_pid's wait. The MCP server sets it so
	// that every call returns before its client gives up on the request.
	// It is not a config key: a Timeout above it raises it.
	MaxWait time.Duration
	// ResultBudget is the most characters one result shows, everything in
	// it (both streams, markers, notices) together; a stream that needs
	// less leaves its share to the other. It is counted in UTF-8 bytes,
	// never fewer than characters (or JavaScript's UTF-16 units). Zero
	// means no budget: each stream only has its own limits; 50,000 by
	// default.
	ResultBudget int `toml:"result_budget" check:"budget" ceiling:"int32" doc:"the most characters one result shows, all in (read, grep, find and ls: max_bytes at most 1000 less, for notices); 0: no budget"`
	// ErrorResultBudget, when above zero and below ResultBudget, is the
	// budget of a bash result whose command failed (a non-zero exit or a
	// signal): some clients keep less of an error result than of another
	// (Claude Code keeps 10,000 characters of one). The MCP server sets it
	// for the clients it knows; it is not a config key.
	ErrorResultBudget int
	// Spill says where spill files go and how big they may grow.
	Spill SpillPolicy `toml:"spill" doc:"where cut output is kept whole"`
	// Bash, Read, Grep, Find and Ls limit each tool's results.
	Bash BashPolicy `toml:"bash" doc:"both streams; [bash.stdout] / [bash.stderr] take the same keys for one"`
	Read ReadPolicy `toml:"read" doc:"one page of a file"`
	Grep GrepPolicy `toml:"grep" doc:"search results"`
	Find FindPolicy `toml:"find" doc:"file search results"`
	Ls   LsPolicy   `toml:"ls" doc:"one directory"`
	// Cache lets listed bash commands be answered from a recent result.
	Cache CachePolicy `toml:"cache" doc:"bash results reused for the commands listed"`
	// Rules decide, before anything runs, whether a bash command may run,
	// must be approved by the person, or is refused (docs/rules.md).
	Rules RulesPolicy `toml:"rules" doc:"command rules: every part of a bash command decided before it runs (docs/rules.md)"`
	// Secrets says whose password prompts the person is asked to answer.
	Secrets SecretsPolicy `toml:"secrets" doc:"whose password prompts get a page the person answers on"`
}

// BashPolicy limits each stream of a bash result (tool.BashPolicy).
type BashPolicy = tool.BashPolicy

// ReadPolicy limits a read (tool.ReadPolicy).
type ReadPolicy = tool.ReadPolicy

// GrepPolicy limits a grep (tool.GrepPolicy).
type GrepPolicy = tool.GrepPolicy

// FindPolicy limits a find (tool.FindPolicy).
type FindPolicy = tool.FindPolicy

// LsPolicy limits an ls (tool.LsPolicy).
type LsPolicy = tool.LsPolicy

// SpillPolicy says where spill files go and how big they may grow.
type SpillPolicy struct {
	// Dir is the directory in which the spill directories are made
	// (spillway-<pid>-<random>/, or the CLI's spillway-<uid>/cli/).
	// Empty means $TMPDIR.
	Dir string `toml:"dir" doc:"where spill directories are made; \"\": $TMPDIR"`
	// MaxBytes caps one spill file.
	MaxBytes int64 `toml:"max_bytes" min:"1" doc:"one spill file at most (100 MiB)"`
	// BudgetBytes caps a session's spill files, those being written
	// included; past it the oldest finished ones are deleted first, and
	// writers stop when none may go.
	BudgetBytes int64 `toml:"budget_bytes" min:"1" doc:"one session's spill files at most (1 GiB); the oldest go first"`
	// KeepNamed is how long after a result named a spill file the budget
	// leaves it alone.
	KeepNamed time.Duration `toml:"keep_named_ms" min:"1" doc:"a file a result named is kept from the budget this long"`
}

// CachePolicy is the opt-in result cache of bash: a command on the list
// may be answered from the recorded result of the same command, run in
// the same directory with the same environment within TTL, instead of
// running it again. An empty list (the default) caches nothing.
type CachePolicy struct {
	// Commands lists the commands that may be cached, each matched
	// against the whole command with its spaces collapsed; an entry
	// ending in "*" matches every command that starts with the rest.
	Commands []string `toml:"commands,omitempty" check:"commands" doc:"e.g. [\"git status\", \"ls*\"]; empty: nothing is cached"`
	// TTL is how old a result may be to answer a call (30 s by default).
	TTL time.Duration `toml:"ttl_ms" min:"1" ceiling:"int32" doc:"how old a reused result may be"`
}

// RulesPolicy are the command rules: every simple command of a bash
// command is matched on its own against the allow, ask and deny patterns
// (Claude Code's Bash(…) inner syntax: "git status" exactly, "npm test *"
// or "npm test:*" a prefix at a word boundary), and the command gets the
// strictest decision of its parts. The zero lists and "allow" decide
// nothing: no rules are in force and bash results carry no rules details.
type RulesPolicy struct {
	// Default decides a part no rule matches: "allow" (the default),
	// "ask" or "deny".
	Default string `toml:"default" check:"decision" doc:"a part no rule matches: allow, ask or deny (once any rule is set, code spillway cannot read, e.g. python3 -c, is ask)"`
	// Allow, Ask and Deny are patterns; a part that several match gets
	// the strictest.
	Allow []string `toml:"allow,omitempty" check:"patterns" doc:"patterns, e.g. [\"git status\", \"npm test *\"]"`
	Ask   []string `toml:"ask,omitempty" check:"patterns" doc:"the user approves these first, e.g. [\"git push *\"]"`
	Deny  []string `toml:"deny,omitempty" check:"patterns" doc:"never run, e.g. [\"rm *\", \"Edit(.env)\"] (Read/Edit/Write(…) are file rules)"`
	// Import names the tools whose own rules are read too: "claude-code"
	// (the Bash(…) entries of permissions.allow, ask and deny in
	// ~/.claude/settings.json and the working directory's
	// .claude/settings.json and .claude/settings.local.json) and "codex"
	// (the prefix_rule calls of ~/.codex/rules/*.rules and the working
	// directory's .codex/rules/*.rules).
	Import []string `toml:"import,omitempty" check:"import" doc:"also the rules of \"claude-code\", \"codex\""`
	// FileDefault decides a file-tool call (edit, write, apply_patch)
	// on a file no Read, Edit or Write rule matches: "allow" (the
	// default; "" is allow too), "ask" or "deny".
	FileDefault string `toml:"file_default,omitempty" check:"decision_or_unset" doc:"an edit, write or apply_patch no Read/Edit/Write rule matches: allow, ask or deny"`
	// TrustedProjects are the folders whose own rule files' allow
	// entries count (a project's .claude/settings.json,
	// .claude/settings.local.json, .codex/rules/*.rules, a spillway
	// config inside it), as those files are when first seen: a later
	// change suspends them until the person trusts the project again
	// (spillway rules trust). Deny and ask entries count from anywhere.
	TrustedProjects []string `toml:"trusted_projects,omitempty" check:"dirs" doc:"folders whose own allow entries count, e.g. [\"~/src/mine\"]"`
	// SettingsFiles are more Claude Code settings files of the person's
	// own, read after ~/.claude/settings.json whatever Import says.
	SettingsFiles []string `toml:"settings_files,omitempty" check:"files" doc:"more Claude Code settings files of yours"`
	// NoClientForms puts no approval or project-trust question to the
	// MCP client's form elicitation: spillway mcp and serve then treat
	// every client as one without forms, and the question waits in
	// spillway console. For a client that answers every form without
	// showing it to the person (codex exec declines each at once, and
	// the first answer wins). Secret prompts are not forms: they are
	// unchanged.
	NoClientForms bool `toml:"no_client_forms,omitempty" doc:"true: approvals wait in spillway console, not the client's form (codex exec declines every form)"`
	// ManagedDir replaces the system's directory of Claude Code's
	// managed settings (/etc/claude-code; on macOS
	// /Library/Application Support/ClaudeCode and its plists), read
	// whatever Import says; noManagedSettings reads none. It is not a
	// config key: an administrator's settings are not the person's to
	// move.
	ManagedDir string
	// StateFile replaces spillway's state file, where the trust in
	// projects is kept (~/.local/state/spillway/state.json). It is not
	// a config key.
	StateFile string
	// Sources, by list ("allow", "ask", "deny"), say where each entry was
	// written ("spillway.toml:12"), for the rule's source in results; the
	// config file sets them. An entry without one is shown as its field
	// (Policy.Rules.Allow[0]). It is not a config key.
	Sources map[string][]string
}

// Configured reports whether any rule is in force: a pattern, an import,
// or a default other than allow.
func (r RulesPolicy) Configured() bool {
	return len(r.Allow)+len(r.Ask)+len(r.Deny)+len(r.Import)+len(r.SettingsFiles) > 0 || (r.Default != "" && r.Default != "allow")
}

// SecretsPolicy says which programs a secret prompt is verified for: the
// page where the person answers a prompt says whether the program that
// reads the terminal is the system's (a set-user-ID sudo, su, passwd or
// doas, or one of Trusted, each a root-owned file the session cannot
// write) or one the session could have made (docs/interactive.md).
type SecretsPolicy struct {
	// Trusted names the programs, besides the set-user-ID sudo, su,
	// passwd and doas, whose prompts are verified when the system's file
	// of that name reads the terminal: ssh, ssh-add, ssh-keygen and gpg by
	// default. An interpreter (sh, python3 …) cannot be named: it runs
	// whatever script it is given.
	Trusted []string `toml:"trusted" check:"programs" doc:"the system's programs verified besides set-uid sudo, su, passwd, doas"`
	// Unverified says what a prompt that is not verified gets: "warn" (the
	// default), a page that tells the person the program is not the
	// system's; "refuse", no page, and a result that says why.
	Unverified string `toml:"unverified" check:"unverified" doc:"a prompt from any other program: \"warn\" (the page warns) or \"refuse\" (no page)"`
}

// Hard ceilings that no policy or call can pass: one stream of a result
// is at most 1 MiB, and every line or entry limit at most 100,000.
const (
	streamCeiling = policy.StreamCeiling
	linesCeiling  = policy.LinesCeiling
)

// DefaultPolicy returns the default limits (profile "default"), those
// docs/tools.md states.
func DefaultPolicy() Policy {
	return Policy{
		Profile:      "default",
		Shell:        "bash",
		Timeout:      policy.DefaultTimeout,
		ResultBudget: policy.DefaultResultBudget,
		Spill:        SpillPolicy{MaxBytes: spill.DefaultMaxFileBytes, BudgetBytes: spill.DefaultBudgetBytes, KeepNamed: spill.DefaultKeepNamed},
		Bash:         BashPolicy{Stdout: output.DefaultLimits, Stderr: output.DefaultLimits, MaxProcesses: policy.DefaultMaxProcesses, Shapes: true, Binary: output.BinaryRegions},
		Read:         ReadPolicy{MaxLines: 2000, MaxBytes: 50 * 1024, MaxLineChars: 2000},
		Grep:         GrepPolicy{Limit: 100, MaxBytes: 50 * 1024, MaxLineChars: 500},
		Find:         FindPolicy{Limit: 1000, MaxBytes: 50 * 1024},
		Ls:           LsPolicy{Limit: 500, MaxBytes: 50 * 1024},
		Cache:        CachePolicy{TTL: 30 * time.Second},
		Rules:        RulesPolicy{Default: "allow", FileDefault: "allow"},
		Secrets:      SecretsPolicy{Trusted: []string{"ssh", "ssh-add", "ssh-keygen", "gpg"}, Unverified: "warn"},
	}
}

// Validate reports a value of p that a tool could not use; New refuses
// such a policy. Its bounds are the config file's, from the tags.
func (p Policy) Validate() error {
	for _, k := range policy.Keys(fields.Of[Policy]("toml")) {
		if k.Table() || len(k.Fields) > 1 {
			continue // a key [bash] shares is checked on each stream
		}
		if bad := k.Check(k.Value(p)); len(bad) > 0 {
			return fmt.Errorf("%s %s", k.Name, bad[0])
		}
	}
	if b := p.ErrorResultBudget; b != 0 && b < policy.MinResultBudget {
		return fmt.Errorf("error result budget %d: want 0 (the result budget) or at least %d", b, policy.MinResultBudget)
	}
	return nil
}

// noticeReserve is what a one-stream result (read, grep, find, ls) keeps
// of the budget for its notices: the limit reached, the lines cut, how to
// go on, a spill path.
const noticeReserve = 1_000

// WithinBudget returns p as a toolset applies it: the byte limits of
// read, grep, find and ls held to the result budget, less room for their
// notices, so that each of their results fits it (bash shares the budget
// between its streams when it renders).
func (p Policy) WithinBudget() Policy {
	if p.ResultBudget <= 0 {
		return p
	}
	room := max(1, p.ResultBudget-noticeReserve)
	p.Read.MaxBytes = min(p.Read.MaxBytes, room)
	p.Grep.MaxBytes = min(p.Grep.MaxBytes, room)
	p.Find.MaxBytes = min(p.Find.MaxBytes, room)
	p.Ls.MaxBytes = min(p.Ls.MaxBytes, room)
	return p
}
