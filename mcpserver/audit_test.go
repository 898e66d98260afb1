package mcpserver_test

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The audit log has a line for every call of a session that used every
// tool, with what was run where and what came of it, and never the token,
// the session id, an environment value or what was typed to a job.
func TestAuditLogEveryTool(t *testing.T) {
	t.Parallel()
	const token, secretEnv, secretInput = "aud1t-t0ken", "env-s3cret-value", "typed-s3cret"
	log := filepath.Join(t.TempDir(), "audit.jsonl")
	// A line from before: the log is appended to, never truncated.
	if err := os.WriteFile(log, []byte("{\"earlier\":true}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	s := startHTTP(t, []string{"SPILLWAY_TOKEN=" + token}, "--audit-log", log)
	cs := connectHTTP(t, s.url, nil, http.Header{"Authorization": {"Bearer " + token}}, false)
	dir := t.TempDir()
	file := filepath.Join(dir, "notes.txt")
	os.WriteFile(file, []byte("alpha\nbeta\n"), 0o600)

	call(t, cs, "bash", map[string]any{"command": "echo hi", "cwd": dir, "env": map[string]any{"API_KEY": secretEnv}})
	call(t, cs, "bash", map[string]any{"command": "seq 1 100000"})
	job := call(t, cs, "bash", map[string]any{"command": "cat", "stdin": true, "run_in_background": true})
	pid := field(details(t, job), "pid")
	call(t, cs, "write_stdin", map[string]any{"pid": pid, "input": secretInput + "\n"})
	call(t, cs, "bash", map[string]any{"check_pid": pid})
	call(t, cs, "jobs", map[string]any{})
	call(t, cs, "bash", map[string]any{"kill_pid": pid})
	call(t, cs, "read", map[string]any{"path": file})
	call(t, cs, "grep", map[string]any{"pattern": "beta", "path": dir})
	call(t, cs, "find", map[string]any{"pattern": "*.txt", "path": dir})
	call(t, cs, "ls", map[string]any{"path": dir})
	call(t, cs, "history", map[string]any{})
	id := cs.ID()
	cs.Close()

	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(id))
	hash := hex.EncodeToString(sum[:6])
	for _, secret := range []string{token, id, secretEnv, secretInput} {
		if strings.Contains(string(data), secret) {
			t.Errorf("the audit log holds %q:\n%s", secret, data)
		}
	}
	if !strings.HasPrefix(string(data), "{\"earlier\":true}\n") {
		t.Errorf("the audit log lost what it held before")
	}
	type line struct {
		Time         string   `json:"time"`
		Session      string   `json:"session"`
		Tool         string   `json:"tool"`
		Command      string   `json:"command"`
		Path         string   `json:"path"`
		Pattern      string   `json:"pattern"`
		PID          int      `json:"pid"`
		Cwd          string   `json:"cwd"`
		ExitCode     *int     `json:"exit_code"`
		IsError      bool     `json:"is_error"`
		DurationMS   *int64   `json:"duration_ms"`
		BytesShown   int64    `json:"bytes_shown"`
		BytesSpilled int64    `json:"bytes_spilled"`
		SpillPaths   []string `json:"spill_paths"`
	}
	var lines []line
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	sc.Scan() // the earlier line
	for sc.Scan() {
		var l line
		dec := json.NewDecoder(strings.NewReader(sc.Text()))
		if err := dec.Decode(&l); err != nil {
			t.Fatalf("audit line %q: %v", sc.Text(), err)
		}
		if l.Time == "" || l.Session != hash || l.DurationMS == nil || l.IsError || l.BytesShown <= 0 {
			t.Errorf("audit line %s: want a time, session %s, a duration, no error, bytes shown", sc.Text(), hash)
		}
		lines = append(lines, l)
	}
	var tools []string
	for _, l := range lines {
		tools = append(tools, l.Tool)
	}
	want := []string{"bash", "bash", "bash", "write_stdin", "bash", "jobs", "bash", "read", "grep", "find", "ls", "history"}
	if !slices.Equal(tools, want) {
		t.Fatalf("audit lines for %q, want %q", tools, want)
	}
	if l := lines[0]; l.Command != "echo hi" || l.Cwd != dir || l.ExitCode == nil || *l.ExitCode != 0 {
		t.Errorf("bash line: %+v", l)
	}
	if l := lines[1]; len(l.SpillPaths) != 1 || l.BytesSpilled != 588895 || !strings.HasPrefix(l.SpillPaths[0], s.tmp) {
		t.Errorf("spilled bash line: %+v (want its spill file and 588895 bytes spilled)", l)
	}
	if l := lines[3]; l.PID == 0 || float64(l.PID) != pid.(float64) {
		t.Errorf("write_stdin line: %+v (want the job's pid)", l)
	}
	if l := lines[7]; l.Path != file {
		t.Errorf("read line: %+v", l)
	}
	if l := lines[8]; l.Pattern != "beta" || l.Path != dir {
		t.Errorf("grep line: %+v", l)
	}
}
