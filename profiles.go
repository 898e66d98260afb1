package spillway

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spillway-dev/spillway/internal/policy"
	"github.com/spillway-dev/spillway/internal/surface"
	"github.com/spillway-dev/spillway/output"
)

// A profile follows the design of one of the systems docs/profiles.md
// names, quoting it, and lists the shipped system's differences. Its
// policy is only data: strategies, limits, which streams merge and when to
// spill. Each starts from Default and changes what its design says; every
// number is cited below and in docs/profiles.md. Shell and timeout are
// never part of a profile.
type profile struct {
	name string
	// words say what it is in a few words, in spillway --help.
	words  string
	policy func() Policy
	// peer is what its design changes in the tools' names, parameters
	// and JSON results (internal/surface); nil keeps spillway's own.
	peer *surface.Peer
}

// profiles is the one table of profiles, in the order docs and help list
// them, "default" first. The config file's check and the CLI's flag and
// help read it from internal/policy, and the peers' surfaces from
// internal/surface, where init registers it.
var profiles = []profile{
	{"default", "spillway's own: head and tail, 2000 lines or 50 KiB a stream", DefaultPolicy, nil},
	{"pi", "the pi coding agent (pi-mono): its tools' limits and notices", piProfile, surface.Pi},
	{"zdx", "the zdx agent (Rust): per-stream byte limits, {ok, data} JSON", zdxProfile, surface.Zdx},
	{"opencode", "the opencode Go fork: first and last 500 lines past 2000", opencodeProfile, surface.Opencode},
	{"macos-shell", "macos-shell MCP server: per-stream line limits, 60/40 head/tail", macosShellProfile, surface.MacosShell},
	{"pipe", "the pipe agent (Go): the tail of the output, spilled to a file", pipeProfile, nil},
	{"claude-code", "Claude Code's own Bash and Read tools", claudeCodeProfile, nil},
}

func init() {
	names := make([]policy.Profile, len(profiles))
	peers := map[string]*surface.Peer{}
	for i, p := range profiles {
		names[i] = policy.Profile{Name: p.name, Words: p.words}
		if p.peer != nil {
			peers[p.name] = p.peer
		}
	}
	policy.RegisterProfiles(names)
	surface.Register(peers)
}

// Profile returns the policy of a named profile: the truncation behaviour
// of another agent harness (docs/profiles.md); "" is "default".
func Profile(name string) (Policy, error) {
	if name == "" {
		name = "default"
	}
	i := slices.IndexFunc(profiles, func(p profile) bool { return p.name == name })
	if i < 0 {
		return Policy{}, fmt.Errorf("unknown profile %q: want one of %s", name, strings.Join(policy.ProfileNames(), ", "))
	}
	pol := profiles[i].policy()
	pol.Profile = name
	if name != "default" {
		// A profile reproduces the limits of the system it names, per
		// stream; no result budget of spillway's own is laid over them
		// unless the config sets one.
		pol.ResultBudget = 0
		pol.Bash.Shapes = false
	}
	return pol, nil
}

// piProfile: the pi design (pi).
func piProfile() Policy {
	const (
		lines = 2000      // pi's design, "## Limits": "Line limit: 2000 lines"
		bytes = 30 * 1024 // pi's design, "## Limits": "Byte limit: 30KB" (30.0KB in notices, as the design prints "(30KB limit)")
	)
	p := DefaultPolicy()
	// pi's design, "## bash": "Tail truncation (last N lines). Writes full output to
	// temp file if truncated." One numbering and one file for the whole
	// command ("Showing lines 48001-50000 of 50000. Full output:
	// /tmp/pi-bash-xxx.log"): the streams are merged. No per-line cut
	// ("Never return partial lines (except bash edge case)": a last line
	// over the byte limit shows its end).
	stream := p.Bash.Stdout
	stream.Strategy, stream.MaxLines, stream.MaxBytes, stream.MaxLineChars = output.Tail, lines, bytes, 0
	p.Bash = BashPolicy{MaxProcesses: p.Bash.MaxProcesses, Stdout: stream, Stderr: stream, MergeStreams: true, SpillWhen: output.SpillOnCut}
	// pi's design, "## read": head, 2000 lines / 30KB, no per-line cut (a first line
	// over 30KB gets a notice, "Line 1 is 50KB, exceeds 30KB limit").
	p.Read = ReadPolicy{MaxLines: lines, MaxBytes: bytes, MaxLineChars: 0, NoPartialLines: true}
	// pi's design, "## Limits" "Grep line limit: 500 chars per match line";
	// "## grep" "Primary limit: 100 matches", "30KB".
	p.Grep = GrepPolicy{Limit: 100, MaxBytes: bytes, MaxLineChars: 500, NoTotal: true}
	// pi's design, "## find" "Primary limit: 1000 results", "30KB".
	p.Find = FindPolicy{Limit: 1000, MaxBytes: bytes, NoTotal: true}
	// pi's design, "## ls" "Primary limit: 500 entries", "30KB".
	p.Ls = LsPolicy{Limit: 500, MaxBytes: bytes}
	return p
}

// zdxProfile: the zdx design (zdx).
func zdxProfile() Policy {
	p := DefaultPolicy()
	// zdx's design, "Slice 1": MAX_LINES = 2000, MAX_LINE_LENGTH = 500 (lines cut at a
	// char boundary). Line limits replace the old 50KB byte cut ("Existing
	// state", "Slice 1" goal); a line holds at most MAX_LINE_LENGTH * 4 =
	// 2000 bytes ("Key decisions" 9), so 2000 lines are up to 4,000,000
	// bytes, held to streamCeiling.
	p.Read = ReadPolicy{MaxLines: 2000, MaxBytes: streamCeiling, MaxLineChars: 500}
	// zdx's design, "Slice 3": MAX_OUTPUT_BYTES = 50 * 1024 per stream, stdout and
	// stderr cut independently, keeping the start; no line limit (so the
	// lines ceiling, which 50 KiB can never reach) and no per-line cut.
	// "Polish phases" Phase 1: the full output goes to a temp file when
	// truncated.
	stream := p.Bash.Stdout
	stream.Strategy, stream.MaxLines, stream.MaxBytes, stream.MaxLineChars = output.Head, linesCeiling, 50*1024, 0
	p.Bash = BashPolicy{MaxProcesses: p.Bash.MaxProcesses, Stdout: stream, Stderr: stream, SpillWhen: output.SpillOnCut}
	return p
}

// opencodeProfile: the opencode design (opencode).
func opencodeProfile() Policy {
	p := DefaultPolicy()
	// opencode's design, "Motivation": MaxOutputBytes = 50 * 1024, MaxOutputLines = 2000
	// decide whether output is cut; "Phase 2" 2.3: TruncatedHeadLines = 500,
	// TruncatedTailLines = 500 are shown; "Phase 1" 1.1: MaxOutputBytes
	// stays a secondary cap on the preview. Stderr the same as stdout, in a
	// file of its own ("Design Decisions", "Open Questions" 3). A file is
	// written whenever the output is cut ("Phase 3" 3.1). Lines are never
	// cut inside ("Line-aligned truncation").
	stream := p.Bash.Stdout
	stream.Strategy, stream.HeadShare = output.HeadTail, 0.5
	stream.MaxLines, stream.MaxBytes, stream.ShownLines, stream.MaxLineChars = 2000, 50*1024, 1000, 0
	p.Bash = BashPolicy{MaxProcesses: p.Bash.MaxProcesses, Stdout: stream, Stderr: stream, SpillWhen: output.SpillOnCut}
	// opencode's design, "Phase 2" 2.3: MaxPersistBytes = 100 * 1024 * 1024.
	p.Spill.MaxBytes = 100 * 1024 * 1024
	// opencode's design, "References": view's DefaultReadLimit (2000 lines) and MaxReadSize
	// (250KB).
	p.Read.MaxLines, p.Read.MaxBytes = 2000, 250*1024
	return p
}

// macosShellProfile: the macos-shell design (macos-shell).
func macosShellProfile() Policy {
	p := DefaultPolicy()
	// macos-shell's design, "1. Schema Updates": maxOutputLines default 500, maxErrorLines
	// default 750. "3. Core Implementation" truncateOutput: head
	// Math.ceil(maxLines * 0.6), tail Math.floor(maxLines * 0.4), an
	// omission marker between; MAX_SINGLE_LINE_LENGTH = 10000 (long lines
	// detected: here cut, with a notice). No byte limit on the text (only
	// the 10 MB capture buffer, MAX_BUFFER_SIZE), so streamCeiling. Full
	// output is kept ("4. Cache Strategy Update": cache stores full output):
	// spill on any cut. isBinaryOutput: "nullBytes > 0 || (nonPrintable /
	// totalChars) > 0.3" over output.substring(0, 1000), so one NUL in the
	// first 1000 characters makes the stream binary.
	stream := output.Limits{Strategy: output.HeadTail, HeadShare: 0.6, MaxBytes: streamCeiling, MaxLineChars: 10000}
	p.Bash = BashPolicy{MaxProcesses: p.Bash.MaxProcesses, Stdout: stream, Stderr: stream, SpillWhen: output.SpillOnCut, Binary: output.BinaryAnyNUL}
	p.Bash.Stdout.MaxLines = 500
	p.Bash.Stderr.MaxLines = 750
	return p
}

// pipeProfile: the pipe design (pipe).
func pipeProfile() Policy {
	p := DefaultPolicy()
	// pipe's design, "Design Decisions" and "Tail Truncation": tail, 2000 lines or
	// 50 KB (51,200 bytes), whichever first; stdout and stderr separate; a
	// single line over 50KB shows its tail (no per-line cut).
	// "Filesystem Offloading": a file only when total bytes exceed 50KB
	// ("3000 short lines totaling 20KB does NOT create a temp file").
	stream := p.Bash.Stdout
	stream.Strategy, stream.MaxLines, stream.MaxBytes, stream.MaxLineChars = output.Tail, 2000, 51200, 0
	p.Bash = BashPolicy{MaxProcesses: p.Bash.MaxProcesses, Stdout: stream, Stderr: stream, SpillWhen: output.SpillPastBytes}
	return p
}

// claudeCodeProfile: Claude Code's own tools, for an agent tuned to them
// (docs/profiles.md gives the sources).
func claudeCodeProfile() Policy {
	p := DefaultPolicy()
	// Bash: BASH_MAX_OUTPUT_DEFAULT = 30_000 characters, the middle cut
	// out (head and tail kept), stdout and stderr each; no line limit and
	// no per-line cut. Characters are counted here as bytes, so non-ASCII
	// output keeps fewer characters than Claude Code would.
	stream := output.Limits{Strategy: output.HeadTail, HeadShare: 0.5, MaxLines: linesCeiling, MaxBytes: 30_000}
	p.Bash = BashPolicy{MaxProcesses: p.Bash.MaxProcesses, Stdout: stream, Stderr: stream, SpillWhen: output.SpillOnCut}
	// Read: "reads up to 2000 lines", "lines longer than 2000 characters
	// will be truncated", "cat -n format, with line numbers starting at 1";
	// files over 256 KB are refused there, here paged.
	p.Read = ReadPolicy{MaxLines: 2000, MaxBytes: 256 * 1024, MaxLineChars: 2000, LineNumbers: true}
	// Grep: head_limit 250 by default, results over 20,000 characters
	// persisted to a file.
	p.Grep.Limit, p.Grep.MaxBytes = 250, 20_000
	// Glob: the first 100 files.
	p.Find.Limit = 100
	return p
}
