package rules

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// codexCheckFile holds what `codex execpolicy check` (Codex 0.169.0)
// printed for each command of the Codex fixtures' table, one JSON object
// a line. The table's "theirs" column for a Codex file is read from it;
// TestCodexExecpolicyCheck runs the real binary to hold it true, and
// rewrites it with -update-table.
const codexCheckFile = "testdata/real/codex/execpolicy-check.jsonl"

// codexVersion is the Codex whose output the file holds.
const codexVersion = "codex-cli 0.169.0"

// A codexCheck is one run of `codex execpolicy check -r FILE -- ARGV`:
// its stdout, or the first line of its error when it refused the file.
type codexCheck struct {
	Dir    string          `json:"dir"`
	Argv   []string        `json:"argv"`
	Output json.RawMessage `json:"output,omitempty"`
	Error  string          `json:"error,omitempty"`
}

// codexRefused are commands checked under the Codex file that Codex
// refuses to load: every one is refused, and spillway asks for each.
var codexRefused = []realCase{
	{"cat .env", "ask", "", "both refuse the file: Codex's check fails to parse it (its own match examples cat .env.local and cat tdrs-backend/.env are not matched by its pattern [\"cat\", \".env\"]); spillway makes it an import failure, so every command asks"},
	{"cat tdrs-frontend/.env", "ask", "", "the same"},
	{"ls", "ask", "", "the same"},
}

// codexArgv splits a table command into the words codex execpolicy check
// takes; the table's Codex commands hold no quotes.
func codexArgv(t *testing.T, command string) []string {
	if strings.ContainsAny(command, `'"\$`) {
		t.Fatalf("%q: a Codex table command must be plain words", command)
	}
	return strings.Fields(command)
}

// codexCases are the Codex fixtures' commands, in the table's order.
func codexCases(t *testing.T) []codexCheck {
	var out []codexCheck
	for _, f := range realFixtures {
		if f.tool == "codex" {
			for _, c := range f.cases {
				out = append(out, codexCheck{Dir: f.dir, Argv: codexArgv(t, c.command)})
			}
		}
	}
	for _, c := range codexRefused {
		out = append(out, codexCheck{Dir: "HHS__TANF-app", Argv: codexArgv(t, c.command)})
	}
	return out
}

func readCodexChecks(t *testing.T) map[string]codexCheck {
	f, err := os.Open(codexCheckFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m := map[string]codexCheck{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var c codexCheck
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("%s: %v", codexCheckFile, err)
		}
		m[c.Dir+"\x00"+strings.Join(c.Argv, " ")] = c
	}
	return m
}

// codexTheirs is Codex's decision as the table shows it: prompt is ask,
// forbidden is deny, no matching rule is the table's default (ask), and
// a file Codex cannot load is refused.
func codexTheirs(t *testing.T, checks map[string]codexCheck, dir, command string) string {
	c, ok := checks[dir+"\x00"+command]
	if !ok {
		t.Errorf("%s: %q: not in %s: run TestCodexExecpolicyCheck with SPILLWAY_E2E_CODEX and -update-table", dir, command, codexCheckFile)
		return "?"
	}
	if c.Error != "" {
		return "refused"
	}
	var out struct {
		Decision string `json:"decision"`
	}
	if err := json.Unmarshal(c.Output, &out); err != nil {
		t.Errorf("%s: %q: %v", dir, command, err)
	}
	switch out.Decision {
	case "":
		return "ask"
	case "prompt":
		return "ask"
	case "forbidden":
		return "deny"
	default:
		return out.Decision
	}
}

// TestCodexExecpolicyCheck runs Codex's own `codex execpolicy check` on
// the Codex fixtures with the table's commands and holds codexCheckFile
// to what it prints. It needs the Codex binary (SPILLWAY_E2E_CODEX, as
// .ci/clients.sh installs it) and SPILLWAY_E2E_SLOW=1: each check starts
// Codex, about a second, and .ci/run runs it in the step of the slow
// client sessions, outside go test ./...
func TestCodexExecpolicyCheck(t *testing.T) {
	bin := os.Getenv("SPILLWAY_E2E_CODEX")
	if bin == "" || os.Getenv("SPILLWAY_E2E_SLOW") == "" {
		t.Skip("set SPILLWAY_E2E_CODEX to Codex's codex binary (.ci/clients.sh installs it) and SPILLWAY_E2E_SLOW=1 to run its execpolicy check")
	}
	home := t.TempDir()
	env := append(os.Environ(), "HOME="+home, "CODEX_HOME="+home)
	version, err := exec.Command(bin, "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	if strings.TrimSpace(string(version)) != codexVersion {
		t.Skipf("%s is %s; the table holds %s's output", bin, strings.TrimSpace(string(version)), codexVersion)
	}
	var lines bytes.Buffer
	for _, c := range codexCases(t) {
		files, _ := filepath.Glob(filepath.Join("testdata/real/codex", c.Dir, "*.rules"))
		if len(files) != 1 {
			t.Fatalf("%s: want one .rules file, have %v", c.Dir, files)
		}
		rules, err := filepath.Abs(files[0])
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(bin, append([]string{"execpolicy", "check", "-r", rules, "--"}, c.Argv...)...)
		cmd.Env = env
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			// The error's first line after "Error:", and its cause,
			// without the file's absolute path.
			for _, l := range strings.Split(stderr.String(), "\n") {
				if strings.HasPrefix(l, "Error: ") || strings.Contains(l, "expected every example") {
					c.Error += strings.ReplaceAll(strings.TrimSpace(l), rules, filepath.Base(rules)) + " "
				}
			}
			c.Error = strings.TrimSpace(c.Error)
			if c.Error == "" {
				t.Fatalf("%s %v: %v\n%s", c.Dir, c.Argv, err, stderr.String())
			}
		} else {
			c.Output = json.RawMessage(bytes.TrimSpace(stdout.Bytes()))
		}
		b, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		lines.Write(b)
		lines.WriteByte('\n')
	}
	if *updateTable {
		if err := os.WriteFile(codexCheckFile, lines.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(codexCheckFile)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != lines.String() {
		t.Errorf("%s is not what %s prints now: run this test with -update-table.\nnow:\n%s", codexCheckFile, codexVersion, lines.String())
	}
}
