package e2e

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/spillway-dev/spillway/internal/rules"
)

// runCodexRules runs one headless Codex session whose stand-in model
// calls exec_command with each command in turn, through shell, under the
// given .rules text and approval policy, and returns what Codex handed
// back for each.
func runCodexRules(t *testing.T, bin, dir, shell, rulesText, approval string, cmds []string) []seen {
	t.Helper()
	calls := make([]call, len(cmds))
	for i, c := range cmds {
		calls[i] = call{Tool: "exec_command", Args: map[string]any{"cmd": c, "shell": shell, "login": false}}
	}
	api := &modelAPI{t: t, script: calls, toolName: func(s string) string { return s }}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: api}
	go srv.Serve(ln)
	defer srv.Close()

	home, err := os.MkdirTemp(dir, "codex")
	if err != nil {
		t.Fatal(err)
	}
	work := filepath.Join(home, "work")
	os.MkdirAll(work, 0o755)
	os.MkdirAll(filepath.Join(home, "rules"), 0o755)
	if err := os.WriteFile(filepath.Join(home, "rules", "default.rules"), []byte(rulesText), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := fmt.Sprintf(`model = "gpt-5"
model_provider = "standin"
approval_policy = %q
sandbox_mode = "danger-full-access"

[model_providers.standin]
name = "stand-in"
base_url = %q
wire_api = "responses"
env_key = "STANDIN_KEY"
`, approval, "http://"+ln.Addr().String()+"/v1")
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	// Codex runs commands with /bin/bash (/usr/bin/bash) whatever SHELL
	// says: in a mount namespace of its own, the stand-in is bound there.
	cmd := exec.CommandContext(ctx, "unshare", "-m", "--propagation", "private", "sh", "-c",
		`mount --bind "$0" /usr/bin/bash && exec "$@"`, shell, bin, "exec", "--skip-git-repo-check", "run the commands")
	cmd.Dir = work
	cmd.Env = append(cleanEnv(t), "CODEX_HOME="+home, "STANDIN_KEY=stand-in", "SHELL="+shell, "PWD="+work)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("codex: %v\n%s", err, tail(out.String(), 3000))
	}
	got := api.Results()
	if len(got) != len(calls) {
		t.Fatalf("Codex handed back %d of %d results\n%s", len(got), len(calls), tail(out.String(), 3000))
	}
	return got
}

// TestRulesRound2Codex is TestRulesRound2ClaudeCode for Codex 0.169.0:
// the deny and ask rules as Codex prefix_rule entries (forbidden,
// prompt), under approval_policy "never": what no rule forbids or
// asks runs. Only set (b): Codex 0.169.0 has no policy that asks for a
// command no rule names ("untrusted" is refused at start as no longer
// supported; under the others such a command runs in Codex's sandbox),
// so set (a)'s default ask has no Codex counterpart. Codex runs commands with
// /bin/bash whatever SHELL says, so, as root, Codex runs in a mount
// namespace of its own where the stand-in shell is bound over
// /usr/bin/bash; a first session checks that a real shell is not used.
// Opt in with SPILLWAY_E2E_RULES=1.
func TestRulesRound2Codex(t *testing.T) {
	bin := clientBin(t, codex)
	if os.Getenv("SPILLWAY_E2E_RULES") == "" {
		t.Skip("set SPILLWAY_E2E_RULES=1 to run the second bypass table through Codex")
	}
	if os.Geteuid() != 0 {
		t.Skip("Codex runs /bin/bash whatever SHELL says: only as root can the test put a stand-in shell in its place")
	}
	if _, err := exec.LookPath("unshare"); err != nil {
		t.Skip("unshare is missing")
	}
	cases := readRound2Corpus(t)
	if n, err := strconv.Atoi(os.Getenv("SPILLWAY_E2E_RULES")); err == nil && n > 1 && n < len(cases) {
		cases = cases[:n]
	}
	dir := t.TempDir()
	shell := filepath.Join(dir, "bin", "bash")
	os.MkdirAll(filepath.Dir(shell), 0o755)
	if err := os.WriteFile(shell, []byte("#!/bin/sh\nprintf '"+fakeShellMark+"\\n'\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	probe := filepath.Join(dir, "probe")
	got := runCodexRules(t, bin, dir, shell, "", "never", []string{"touch " + probe})
	if _, err := os.Stat(probe); err == nil {
		t.Fatalf("Codex ran the probe with a real shell; the table is not run")
	}
	if !strings.Contains(got[0].Text(), fakeShellMark) {
		t.Fatalf("the probe did not reach the stand-in shell: %s", tail(got[0].Text(), 500))
	}
	cmds := make([]string, len(cases))
	for i, c := range cases {
		cmds[i] = c.Command
	}
	prefix := func(p string) string {
		p = strings.TrimSuffix(strings.TrimSuffix(p, " *"), ":*")
		var q []string
		for _, w := range strings.Fields(p) {
			q = append(q, strconv.Quote(w))
		}
		return "[" + strings.Join(q, ", ") + "]"
	}
	var denyAsk strings.Builder
	for _, p := range round2Deny {
		fmt.Fprintf(&denyAsk, "prefix_rule(pattern = %s, decision = \"forbidden\")\n", prefix(p))
	}
	for _, p := range round2Ask {
		fmt.Fprintf(&denyAsk, "prefix_rule(pattern = %s, decision = \"prompt\")\n", prefix(p))
	}
	for _, v := range []struct {
		name, rules, approval string
		set                   *rules.Set
	}{
		{"(b) default allow, deny and ask only", denyAsk.String(), "never", round2Set(t, rules.Allow, nil)},
	} {
		t.Run(v.name, func(t *testing.T) {
			got := runCodexRules(t, bin, dir, shell, v.rules, v.approval, cmds)
			countRound2(t, "Codex 0.169.0", v.name, cases, got, v.set)
		})
	}
}
