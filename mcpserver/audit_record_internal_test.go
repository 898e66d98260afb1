package mcpserver

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spillway-dev/spillway"
	"github.com/spillway-dev/spillway/internal/ops"
)

// A bash call's audit line holds the rules' decision with its parts,
// the names of its env parameter (never their values) and how the deny
// rules that name a program held at exec (parser-only without
// --sandbox).
func TestAuditRecordsRulesEnvNamesAndExecCheck(t *testing.T) {
	const secret = "env-s3cret-value"
	dir := t.TempDir()
	policy := func() spillway.Policy {
		p := spillway.DefaultPolicy()
		p.Spill.Dir = filepath.Join(dir, "spill")
		p.Rules = spillway.RulesPolicy{Default: "allow", Deny: []string{"rm *"}, ManagedDir: "-"} // no managed settings
		return p
	}
	line := func(t *testing.T, opts spillway.Options) map[string]any {
		t.Helper()
		ts, err := spillway.New(opts)
		if err != nil {
			t.Fatal(err)
		}
		defer ts.Close()
		in := spillway.BashInput{Command: "echo hi | wc -l", Env: map[string]string{"API_KEY": secret, "B_FLAG": "1"}}
		res, err := ts.Bash(t.Context(), in)
		if err != nil {
			t.Fatal(err)
		}
		c := callRecord(&session{id: "s"}, ts, "bash", spillway.Result[any]{Input: in, Details: res.Details}, time.Now(), len(res.Text), res.IsError)
		var buf bytes.Buffer
		if err := ops.NewAudit(&buf).Write(c); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(buf.String(), secret) {
			t.Fatalf("the audit line holds an env value: %s", buf.String())
		}
		var v map[string]any
		if err := json.Unmarshal(buf.Bytes(), &v); err != nil {
			t.Fatal(err)
		}
		return v
	}

	pol := policy()
	v := line(t, spillway.Options{Cwd: dir, Policy: &pol})
	names, _ := v["env_names"].([]any)
	if !slices.Equal(names, []any{"API_KEY", "B_FLAG"}) {
		t.Errorf("env_names = %v, want [API_KEY B_FLAG]", v["env_names"])
	}
	rules, _ := v["rules"].(map[string]any)
	if rules["decision"] != "allow" || len(rules["parts"].([]any)) != 2 {
		t.Errorf("rules = %v, want allow with the parts echo and wc", v["rules"])
	}
	if got, _ := v["exec_check"].(string); !strings.HasPrefix(got, "parser-only: without --sandbox") {
		t.Errorf("exec_check without --sandbox = %q", got)
	}

	// Under --sandbox, Toolset.ExecCheck names the denied files
	// (internal/sandbox's TestToolsetDenyAtExec).

	// Without deny rules there is no exec check to record.
	p := policy()
	p.Rules.Deny = nil
	p.Rules.Allow = []string{"echo *"}
	v = line(t, spillway.Options{Cwd: dir, Policy: &p})
	if _, ok := v["exec_check"]; ok {
		t.Errorf("exec_check without deny rules = %v, want none", v["exec_check"])
	}
}
