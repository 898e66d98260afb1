package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// doctorEnv is a home and a project of the test's own, with nothing of
// the person's: no HOME, XDG or SPILLWAY_* variable leaks in.
type doctorEnv struct {
	cli        bashCLI
	home, proj string
	bin        string // a stand-in spillway on the fixtures' PATH
}

func newDoctorEnv(t *testing.T) doctorEnv {
	t.Helper()
	cli := attackCLI(t)
	dir := t.TempDir()
	e := doctorEnv{home: filepath.Join(dir, "home"), proj: filepath.Join(dir, "proj")}
	binDir := filepath.Join(dir, "bin")
	for _, d := range []string{e.home, e.proj, binDir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	e.bin = filepath.Join(binDir, "spillway")
	if err := os.WriteFile(e.bin, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	cli.env = []string{"HOME=" + e.home, "PATH=" + binDir + ":/usr/bin:/bin", "TMPDIR=" + cli.tmp}
	e.cli = cli
	return e
}

func (e doctorEnv) write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func (e doctorEnv) doctor(t *testing.T, args ...string) cliRun {
	t.Helper()
	return e.cli.runBounded(t, e.proj, append([]string{"doctor"}, args...)...)
}

// wantLine fails unless out has a line with the status and every part.
func wantLine(t *testing.T, out, status string, parts ...string) {
	t.Helper()
	for _, line := range strings.Split(out, "\n") {
		if !strings.HasPrefix(line, status+" ") {
			continue
		}
		all := true
		for _, p := range parts {
			all = all && strings.Contains(line, p)
		}
		if all {
			return
		}
	}
	t.Errorf("no %q line with %q in:\n%s", status, parts, out)
}

// Every client's entry, well formed, passes: exit 0.
func TestDoctorHealthy(t *testing.T) {
	e := newDoctorEnv(t)
	e.write(t, filepath.Join(e.home, ".claude.json"), `{"mcpServers": {"spillway": {"command": "spillway", "args": ["mcp"]}}}`)
	e.write(t, filepath.Join(e.home, ".codex", "config.toml"), "[mcp_servers.spillway]\ncommand = \"spillway\"\nargs = [\"mcp\"]\n")
	e.write(t, filepath.Join(e.home, ".gemini", "settings.json"), `{"mcpServers": {"spillway": {"command": "spillway", "args": ["mcp"]}}}`)
	e.write(t, filepath.Join(e.home, ".gemini", "trustedFolders.json"), `{"`+e.proj+`": "TRUST_FOLDER"}`)
	e.write(t, filepath.Join(e.home, ".config", "opencode", "opencode.json"),
		`{"$schema": "https://opencode.ai/config.json", "mcp": {"spillway": {"type": "local", "command": ["spillway", "mcp"], "enabled": true}}}`)
	e.write(t, filepath.Join(e.home, ".cursor", "mcp.json"), `{"mcpServers": {"spillway": {"command": "`+e.bin+`", "args": ["mcp"]}}}`)
	// VS Code's file is JSON with comments and trailing commas.
	e.write(t, filepath.Join(e.proj, ".vscode", "mcp.json"), "{\n  // spillway\n  \"servers\": {\n    \"spillway\": {\"type\": \"stdio\", \"command\": \"spillway\", \"args\": [\"mcp\"],},\n  },\n}\n")
	e.write(t, filepath.Join(e.home, ".config", "spillway", "config.toml"), "profile = \"pi\"\n[bash]\nmax_lines = 500\n")
	r := e.doctor(t)
	if r.status != 0 {
		t.Fatalf("status %d, want 0\nstdout:\n%s\nstderr:\n%s", r.status, r.stdout, r.stderr)
	}
	for _, c := range []string{"Claude Code", "Codex", "Gemini CLI", "opencode", "Cursor", "VS Code"} {
		wantLine(t, r.stdout, statusOK, c, "runs "+e.bin+" mcp")
	}
	wantLine(t, r.stdout, statusOK, "config:", "config.toml parses (profile pi)")
	wantLine(t, r.stdout, statusOK, "spill:", e.cli.tmp)
	wantLine(t, r.stdout, statusOK, "sandbox:", "not asked for")
	if !strings.Contains(r.stdout, "no problems found") {
		t.Errorf("no summary:\n%s", r.stdout)
	}
}

// Each problem is one line naming where it is, and any problem makes the
// exit status 1.
func TestDoctorProblems(t *testing.T) {
	e := newDoctorEnv(t)
	cfg := filepath.Join(e.home, ".config", "spillway", "config.toml")
	e.write(t, cfg, "shell = \"bash\"\n[bash]\nmax_lines = \"many\"\n[read]\nmax_line = 3\n")
	// A local-scope entry whose binary is gone, beside a good user one.
	e.write(t, filepath.Join(e.home, ".claude.json"), `{"mcpServers": {"spillway": {"command": "spillway", "args": ["mcp"]}},
 "projects": {"`+e.proj+`": {"mcpServers": {"sw": {"command": "/gone/spillway", "args": ["mcp"]}}}}}`)
	e.write(t, filepath.Join(e.home, ".codex", "config.toml"), "[mcp_servers.spillway]\ncommand = \"spillway\"\nargs = [\"mcp\"\n")
	e.write(t, filepath.Join(e.proj, ".cursor", "mcp.json"), "{\n  \"mcpServers\": {\n    \"spillway\": {\"command\": \"spillway\" \"args\": [\"mcp\"]}\n  }\n}\n")
	e.write(t, filepath.Join(e.home, ".gemini", "settings.json"), `{"mcpServers": {"spillway": {"command": "spillway", "args": ["--root", "."]}}}`)
	e.write(t, filepath.Join(e.home, ".config", "opencode", "opencode.json"), `{"mcp": {"spillway": {"type": "local", "command": ["nosuch-spillway", "mcp"]}}}`)
	r := e.doctor(t)
	if r.status != 1 {
		t.Fatalf("status %d, want 1\nstdout:\n%s\nstderr:\n%s", r.status, r.stdout, r.stderr)
	}
	wantLine(t, r.stdout, statusProblem, "config:", cfg+":3:", "bash.max_lines", "want an integer")
	wantLine(t, r.stdout, statusProblem, "config:", cfg+":5:", "read.max_line", "unknown key")
	wantLine(t, r.stdout, statusOK, "Claude Code ~/.claude.json spillway", "runs "+e.bin)
	wantLine(t, r.stdout, statusProblem, "Claude Code ~/.claude.json sw", "/gone/spillway does not exist")
	wantLine(t, r.stdout, statusProblem, "Codex", "does not parse", "line 3")
	wantLine(t, r.stdout, statusProblem, "Cursor", "does not parse", "line 3")
	wantLine(t, r.stdout, statusProblem, "Gemini CLI", "without the mcp argument")
	wantLine(t, r.stdout, statusNote, "Gemini CLI", "Disabled", e.proj)
	wantLine(t, r.stdout, statusProblem, "opencode", "nosuch-spillway is not on PATH")
	wantLine(t, r.stdout, statusAbsent, "VS Code", "no config file")
	if !strings.Contains(r.stderr, "doctor: 7 problems") {
		t.Errorf("stderr %q: want the count of problems", r.stderr)
	}
}

// A client entry that starts spillway with --sandbox makes the sandbox a
// requirement: on a machine without it, that is a problem.
func TestDoctorSandboxFromEntry(t *testing.T) {
	e := newDoctorEnv(t)
	e.write(t, filepath.Join(e.home, ".cursor", "mcp.json"), `{"mcpServers": {"spillway": {"command": "spillway", "args": ["mcp", "--sandbox", "--root", "."]}}}`)
	r := e.doctor(t)
	if !strings.Contains(r.stdout, "sandbox: --sandbox works here") && !strings.Contains(r.stdout, statusProblem+"  sandbox:") {
		t.Errorf("the entry's --sandbox was not checked:\n%s", r.stdout)
	}
}

// JSON with comments: comments and trailing commas go, strings stay, and
// lines keep their numbers.
func TestStripJSONC(t *testing.T) {
	in := "{\n \"a\": \"// not a comment\", /* gone\n */ \"b\": [1, 2,], // gone\n \"c\": \"a,}\",\n}\n"
	doc, err := parseClientFile([]byte(in), false)
	if err != nil {
		t.Fatal(err)
	}
	if doc["a"] != "// not a comment" || doc["c"] != "a,}" || len(doc["b"].([]any)) != 2 {
		t.Errorf("parsed %v", doc)
	}
	if got := strings.Count(string(stripJSONC([]byte(in))), "\n"); got != strings.Count(in, "\n") {
		t.Errorf("%d lines, want %d", got, strings.Count(in, "\n"))
	}
	if _, err := parseClientFile([]byte("{\n\n \"a\": 1 \"b\": 2}"), false); err == nil || !strings.Contains(err.Error(), "line 3") {
		t.Errorf("error %v: want line 3", err)
	}
}

// A config file that does not load fails spillway version (the check
// install.md gives) and says why, line by line; mcp refuses to start and
// points at doctor.
func TestVersionChecksTheConfig(t *testing.T) {
	e := newDoctorEnv(t)
	cfg := filepath.Join(e.home, ".config", "spillway", "config.toml")
	e.write(t, cfg, "[bash]\nmax_lines = -1\n")
	r := e.cli.runBounded(t, e.proj, "version")
	if r.status != 1 || !strings.Contains(r.stdout, cfg+":2: bash.max_lines") || !strings.Contains(r.stderr, "spillway doctor") {
		t.Errorf("version with a broken config: status %d\nstdout:\n%s\nstderr:\n%s", r.status, r.stdout, r.stderr)
	}
	r = e.cli.runBounded(t, e.proj, "mcp")
	if r.status == 0 || !strings.Contains(r.stderr, cfg+":2: bash.max_lines") || !strings.Contains(r.stderr, "spillway doctor") {
		t.Errorf("mcp with a broken config: status %d, stderr %q", r.status, r.stderr)
	}
	e.write(t, cfg, "[bash]\nmax_lines = 10\n")
	if r := e.cli.runBounded(t, e.proj, "version"); r.status != 0 || !strings.Contains(r.stdout, "config: "+cfg) {
		t.Errorf("version with a good config: status %d\n%s%s", r.status, r.stdout, r.stderr)
	}
}

// A timeout_ms at or over the clients' 60 s warns when mcp starts; the
// servers' own default does not.
func TestServerWarnsOfALongTimeout(t *testing.T) {
	e := newDoctorEnv(t)
	cfg := filepath.Join(e.home, ".config", "spillway", "config.toml")
	if r := e.cli.runBounded(t, e.proj, "mcp"); r.status != 0 || strings.Contains(r.stderr, "timeout_ms") {
		t.Errorf("no config: status %d, stderr %q", r.status, r.stderr)
	}
	e.write(t, cfg, "timeout_ms = 60000\n")
	r := e.cli.runBounded(t, e.proj, "mcp")
	if r.status != 0 || !strings.Contains(r.stderr, "timeout_ms = 60000 is at or over the 60 s") {
		t.Errorf("timeout_ms = 60000: status %d, stderr %q", r.status, r.stderr)
	}
	if r := e.doctor(t); !strings.Contains(r.stdout, "note     config: timeout_ms = 60000") {
		t.Errorf("doctor does not note the timeout:\n%s", r.stdout)
	}
}

// [rules] no_client_forms is said by doctor: where a question goes is
// not what a person expects of a client that shows forms.
func TestDoctorNotesNoClientForms(t *testing.T) {
	e := newDoctorEnv(t)
	cfg := filepath.Join(e.home, ".config", "spillway", "config.toml")
	e.write(t, cfg, "[rules]\nask = [\"touch *\"]\n")
	if r := e.doctor(t); strings.Contains(r.stdout, "no_client_forms") {
		t.Errorf("doctor notes no_client_forms unset:\n%s", r.stdout)
	}
	e.write(t, cfg, "[rules]\nask = [\"touch *\"]\nno_client_forms = true\n")
	wantLine(t, e.doctor(t).stdout, statusNote, "rules:", "no_client_forms = true", "spillway console")
}
