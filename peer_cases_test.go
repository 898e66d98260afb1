package spillway_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/spillway-dev/spillway"
)

// The peers' own test cases, ported: each is a test of one of the systems
// the profiles follow, run through spillway under that system's profile,
// and each assertion of the peer's test compared with what spillway gives.
// A case is
//
//   - exact: every assertion holds on spillway's result (the same text,
//     the same numbers);
//   - documented: some do not, and the difference is written in the docs
//     (the case names the file and a passage the file must hold);
//   - undocumented: it differs and no doc says so, which fails the test.
//
// TestPeerCases logs the totals (go test -run TestPeerCases -v); the
// totals in docs/profiles.md must be those it counts. The sources:
//
//   - pipe: github.com/fwojciec/pipe at 712557e, exec/sanitize_test.go
//     (TestSanitize), exec/truncate_test.go (TestTruncateTail; pipe's
//     TruncateTail run on each input gave the values its test only bounds)
//     exec/bash_test.go (TestBashExecutor) and exec/background_test.go
//     (TestBackgroundExecution).
//   - opencode, the Go fork the opencode profile follows:
//     github.com/obukhovaa/opencode, internal/llm/tools/bash_test.go
//     (TestBuildPreview, TestPersistAndTruncate, TestCleanupTempDir).
//   - macos-shell: github.com/quanticsoul4772/macos-shell at e4566a6,
//     src/tools/command/command-executor.test.ts, through run_command.
//   - pi: github.com/badlogic/pi-mono, packages/coding-agent/test/tools.test.ts
//     (read, bash, grep, find and ls).
//   - zdx: github.com/tallesborges/zdx, crates/zdx-tools/src/read.rs and
//     bash.rs (their tests), through zdx's {ok, data} surface.
//
// Tests of a peer's own internals (mocked session managers, MIME tables,
// command prefixes, whole-response caps) have nothing in spillway to run
// through; portedNot lists them with the reason.

// seen is one assertion of a peer's test: what the peer gives (or its
// test requires) and what spillway gives.
type seen struct {
	what           string
	peer, spillway any
}

func (s seen) same() bool { return fmt.Sprint(s.peer) == fmt.Sprint(s.spillway) }

// has is a "contains" assertion of the peer's test on spillway's text.
func has(text, want string) seen {
	return seen{"text holds " + clip(want), true, strings.Contains(text, want)}
}

// hasNot is a "does not contain" assertion.
func hasNot(text, unwanted string) seen {
	return seen{"text lacks " + clip(unwanted), true, !strings.Contains(text, unwanted)}
}

func clip(s string) string {
	if len(s) > 60 {
		return fmt.Sprintf("%q…", s[:60])
	}
	return fmt.Sprintf("%q", s)
}

// docRef is where a difference is written: a file of the repository and
// a passage of it.
type docRef struct{ file, passage string }

type portedCase struct {
	peer, test string
	run        func(t *testing.T) []seen
	doc        docRef
}

// portedNot are the peers' tests that have nothing in spillway to run
// through, with why.
var portedNot = map[string][]string{
	"opencode": {
		"TestTruncateToMaxChars (3 cases): the fork's cap on a whole tool response; a profile sets no whole-result budget",
	},
	"macos-shell": {
		"Session History Recording (3 cases): they assert calls on a mocked SessionManager",
		"Edge Cases: non-string error messages: a mocked execa error whose stdout is a number",
		"Basic Command Execution: timeout: a mocked rejection (spillway's timeout is ported under pi and the designs' examples)",
	},
	"pi": {
		"bash: process spawn errors: a mocked shell path",
		"bash: command prefix (3 cases): createBashTool's commandPrefix option, which spillway has not",
		"read: image MIME type from file magic: pi's text 'Read image file [image/png]' beside an image block; spillway returns the image as MCP image content (docs/tools.md), a different result type",
	},
	"zdx": {
		"test_detect_* (8 cases): zdx's MIME helper, by file extension",
		"test_read_image_* (3 cases): image payloads, not the text read",
		"test_read_invalid_input, test_read_rejects_empty_path (2 cases): zdx's error codes for a malformed call, which MCP's schema validation answers before a tool runs",
		"test_bash_invalid_input, test_bash_rejects_empty_command, test_bash_run_rejects_empty_command (3 cases): the same, for bash",
		"test_bash_resolves_timeout, test_bash_timeout_secs_as_string, test_bash_timeout_secs_zero_as_string_disables_timeout (3 cases): zdx's timeout_secs parameter and its parsing; spillway's timeout is in milliseconds, and test_bash_timeout is ported",
	},
}

func TestPeerCases(t *testing.T) {
	type tally struct{ exact, documented, undocumented int }
	totals := map[string]*tally{}
	var all tally
	cases, ran := portedCases(), 0
	for _, c := range cases {
		if totals[c.peer] == nil {
			totals[c.peer] = &tally{}
		}
		tl := totals[c.peer]
		t.Run(c.peer+"/"+c.test, func(t *testing.T) {
			ran++
			var diff []string
			for _, s := range c.run(t) {
				if !s.same() {
					diff = append(diff, fmt.Sprintf("%s: %s %s, spillway %s", s.what, c.peer, clip(fmt.Sprint(s.peer)), clip(fmt.Sprint(s.spillway))))
				}
			}
			switch {
			case len(diff) == 0 && c.doc.file != "":
				t.Errorf("the same as %s, but %s says they differ (%q): drop the doc reference, or the passage", c.peer, c.doc.file, c.doc.passage)
				tl.exact++
			case len(diff) == 0:
				tl.exact++
			case c.doc.file != "" && docHolds(t, c.doc):
				tl.documented++
				t.Logf("documented in %s (%q):\n  %s", c.doc.file, c.doc.passage, strings.Join(diff, "\n  "))
			default:
				tl.undocumented++
				t.Errorf("differs from %s and no doc says so:\n  %s", c.peer, strings.Join(diff, "\n  "))
			}
		})
	}
	peers := make([]string, 0, len(totals))
	for p := range totals {
		peers = append(peers, p)
	}
	sort.Strings(peers)
	var lines []string
	for _, p := range peers {
		tl := totals[p]
		all.exact, all.documented, all.undocumented = all.exact+tl.exact, all.documented+tl.documented, all.undocumented+tl.undocumented
		lines = append(lines, fmt.Sprintf("%s: %d cases, %d exact, %d documented, %d undocumented (%d not ported)",
			p, tl.exact+tl.documented+tl.undocumented, tl.exact, tl.documented, tl.undocumented, notPorted(p)))
	}
	total := fmt.Sprintf("%d cases, %d exact, %d documented, %d undocumented", all.exact+all.documented+all.undocumented, all.exact, all.documented, all.undocumented)
	t.Logf("the peers' own test cases through spillway:\n  %s\n  all: %s", strings.Join(lines, "\n  "), total)
	if t.Failed() || ran < len(cases) {
		return
	}
	// The docs state the totals this test counts, when it ran them all.
	doc, err := os.ReadFile("docs/profiles.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range append(lines, "all: "+total) {
		if !strings.Contains(string(doc), "`"+l+"`") {
			t.Errorf("docs/profiles.md does not state `%s`", l)
		}
	}
}

// notPorted counts a peer's cases portedNot lists: one a line, or the
// number a line gives as "(N cases".
func notPorted(peer string) int {
	n := 0
	re := regexp.MustCompile(`\((\d+) cases`)
	for _, s := range portedNot[peer] {
		k := 1
		if m := re.FindStringSubmatch(s); m != nil {
			fmt.Sscan(m[1], &k)
		}
		n += k
	}
	return n
}

// docHolds reports whether a doc holds the passage, spaces and line
// breaks counted as one.
func docHolds(t *testing.T, d docRef) bool {
	t.Helper()
	b, err := os.ReadFile(d.file)
	if err != nil {
		t.Errorf("%s: %v", d.file, err)
		return false
	}
	squash := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	if !strings.Contains(squash(string(b)), squash(d.passage)) {
		t.Errorf("%s does not hold %q", d.file, d.passage)
		return false
	}
	return true
}

// toolText calls a tool by name with JSON arguments and returns its text,
// or the error's.
func toolText(t *testing.T, ts *spillway.Toolset, tool, args string) (string, spillway.Result[any], error) {
	t.Helper()
	res, err := ts.Call(context.Background(), spillway.ToolCall{Name: tool, Args: json.RawMessage(args)})
	if err != nil {
		return err.Error(), res, err
	}
	return res.Text, res, nil
}

func jsonArgs(kv ...any) string {
	m := map[string]any{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	b, _ := json.Marshal(m)
	return string(b)
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func portedCases() []portedCase {
	var cs []portedCase
	cs = append(cs, pipeCases()...)
	cs = append(cs, pipeBashCases()...)
	cs = append(cs, pipeBackgroundCases()...)
	cs = append(cs, opencodePorted()...)
	cs = append(cs, macosShellPorted()...)
	cs = append(cs, piPorted()...)
	cs = append(cs, zdxPorted()...)
	cs = append(cs, zdxBashPorted()...)
	return cs
}

func jsonMarshal(v any) ([]byte, error)   { return json.Marshal(v) }
func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }
