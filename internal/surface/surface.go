// Package surface is what a peer system (a design an agent was written
// against) changes in spillway's tools: the tool names it uses for ours,
// the parameters it names otherwise, and, with --format json, its own
// result objects, so that a client written against it works unchanged.
// Each peer is a Peer value here; which profile follows which peer is the
// root package's table of profiles, registered at init. docs/profiles.md
// maps each profile to the design it comes from. Without such a profile,
// or without --format json, results are spillway's own.
package surface

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode"

	"github.com/spillway-dev/spillway/internal/registry"
	"github.com/spillway-dev/spillway/internal/render"
)

// A Param is a parameter of a peer system that spillway's tools do not
// name the same way: renamed to one of ours, or taken out of the call and
// given back as what it sets (Lines).
type Param struct {
	Name string
	Type registry.ParamType
	Min  int64
	Doc  string
	// Rename is the parameter of ours it is, or "".
	Rename string
	// set records its value in Lines, when Rename is "".
	set func(*Lines, json.RawMessage) error
}

// Lines are the per-stream line limits that a peer's parameters set and no
// parameter of ours does (macos-shell's maxOutputLines, maxErrorLines).
type Lines struct {
	Stdout, Stderr int
}

// A Peer is what one peer system's design changes in spillway's tools.
// The root package's table of profiles says which profile follows which
// peer, and registers them (Register); the functions below look a
// profile's peer up there.
type Peer struct {
	// Tools maps a tool name of the design to ours.
	Tools map[string]string
	// Params are the design's parameters, by our tool's name.
	Params map[string][]Param
	// json renders a successful result as the design does; ok is false
	// when the design has no result of its own for the tool.
	json func(r result) (string, bool)
}

// result is a successful result as a peer's json reads it: the text,
// the details as a JSON object's map, whether they are bash's, the pure
// content fields, and the command a bash history id ran.
type result struct {
	text    string
	details map[string]any
	bash    bool
	content []render.Field
	command func(historyID int) string
}

// The peer systems that have a surface of their own.
var (
	// MacosShell is macos-shell's: run_command for bash, its line
	// parameters (macos-shell's design, 1 Schema Updates) and its
	// run_command result.
	MacosShell = &Peer{
		Tools: map[string]string{"run_command": "bash"},
		Params: map[string][]Param{"bash": {
			{Name: "maxOutputLines", Type: registry.Int, Min: 1, Doc: "Most lines of stdout to return (max_lines for stdout alone).",
				set: func(l *Lines, v json.RawMessage) error { return positive(v, &l.Stdout) }},
			{Name: "maxErrorLines", Type: registry.Int, Min: 1, Doc: "Most lines of stderr to return (max_lines for stderr alone).",
				set: func(l *Lines, v json.RawMessage) error { return positive(v, &l.Stderr) }},
			{Name: "includeFullOutput", Type: registry.Bool, Doc: "Return the full output (full_output).", Rename: "full_output"},
		}},
		json: func(r result) (string, bool) {
			if !r.bash {
				return "", false
			}
			return runCommandJSON(r.details, r.content, r.command), true
		},
	}
	// Zdx is zdx's {ok, data} envelope with its flat fields.
	Zdx = &Peer{json: func(r result) (string, bool) { return zdxJSON(r.details, r.bash, r.content) }}
	// Pi is pi's tool result, camelCase details beside the text.
	Pi = &Peer{json: func(r result) (string, bool) { return piJSON(r.text, r.details, r.bash) }}
	// Opencode is the envelope with opencode's temp_file_path, for bash.
	Opencode = &Peer{json: func(r result) (string, bool) {
		if !r.bash {
			return "", false
		}
		return opencodeJSON(r.details, r.content)
	}}
)

// peers are the registered peers, by profile.
var peers map[string]*Peer

// Register records which profile follows which peer. The root package
// calls it once, at init, from its table of profiles.
func Register(byProfile map[string]*Peer) { peers = byProfile }

// Tools returns the tools that the peer system of profile names
// otherwise, by the design's name (macos-shell's run_command is bash).
func Tools(profile string) map[string]string {
	if p := peers[profile]; p != nil {
		return p.Tools
	}
	return nil
}

// Params returns the parameters that the peer system of profile adds to
// tool, which calls under that profile accept beside tool's own.
func Params(profile, tool string) []Param {
	if p := peers[profile]; p != nil {
		return p.Params[tool]
	}
	return nil
}

func positive(v json.RawMessage, dst *int) error {
	var n int
	if err := json.Unmarshal(v, &n); err != nil || n < 1 {
		return fmt.Errorf("want a positive integer, got %s", v)
	}
	*dst = n
	return nil
}

// Call takes a call apart under the profile: the tool it names, the
// arguments with the design's names renamed or taken out, and the line
// limits the taken ones set. Its error is always one of the arguments,
// of the tool it returns.
func Call(profile, tool string, raw json.RawMessage) (string, json.RawMessage, Lines, error) {
	var lines Lines
	if t, ok := Tools(profile)[tool]; ok {
		tool = t
	}
	ps := Params(profile, tool)
	if len(ps) == 0 {
		return tool, raw, lines, nil
	}
	var args map[string]json.RawMessage
	if err := json.Unmarshal(bytes.TrimSpace(orEmpty(raw)), &args); err != nil {
		return tool, raw, lines, nil // the arguments' own check says what is wrong
	}
	for _, p := range ps {
		v, ok := args[p.Name]
		if !ok || bytes.Equal(v, []byte("null")) {
			continue
		}
		delete(args, p.Name)
		if p.Rename != "" {
			if _, both := args[p.Rename]; both {
				return tool, nil, lines, fmt.Errorf("give %s or %s, not both", p.Name, p.Rename)
			}
			args[p.Rename] = v
			continue
		}
		if err := p.set(&lines, v); err != nil {
			return tool, nil, lines, fmt.Errorf("parameter %q: %v", p.Name, err)
		}
	}
	out, err := json.Marshal(args) // of values json.Unmarshal gave: it cannot fail
	return tool, out, lines, err
}

func orEmpty(raw json.RawMessage) json.RawMessage {
	if len(bytes.TrimSpace(raw)) == 0 {
		return json.RawMessage("{}")
	}
	return raw
}

// JSON renders a successful result as the peer system of the profile
// does; ok is false when the profile has no surface of its own for the
// tool (the default envelope then stands). details are the tool's, content
// the pure content fields, and command names the command a bash result's
// history id ran (macos-shell's result repeats it).
func JSON(profile, text string, details any, content []render.Field, command func(historyID int) string) (string, bool) {
	p := peers[profile]
	if p == nil || p.json == nil {
		return "", false // the default envelope, without a map of the details
	}
	m, err := toMap(details)
	if err != nil {
		return "", false
	}
	return p.json(result{text: text, details: m, bash: isBash(m), content: content, command: command})
}

// isBash reports whether m are a bash result's details: they alone have
// a stdout object with a truncation.
func isBash(m map[string]any) bool {
	s, ok := m["stdout"].(map[string]any)
	if !ok {
		return false
	}
	_, ok = s["truncation"].(map[string]any)
	return ok
}

// obj, num, str and flag read a details map as encoding/json wrote it.
func obj(m map[string]any, key string) map[string]any { o, _ := m[key].(map[string]any); return o }
func num(m map[string]any, key string) int64          { f, _ := m[key].(float64); return int64(f) }
func str(m map[string]any, key string) string         { s, _ := m[key].(string); return s }
func flag(m map[string]any, key string) bool          { b, _ := m[key].(bool); return b }

// contentOf returns the content field named name.
func contentOf(content []render.Field, name string) string {
	for _, f := range content {
		if f.Name == name {
			return f.Value
		}
	}
	return ""
}

// runCommandJSON is macos-shell's run_command result (macos-shell's design, 2 Interface
// Updates, "5 Response Formatting").
func runCommandJSON(d map[string]any, content []render.Field, command func(int) string) string {
	type streamTrunc struct {
		Truncated     bool  `json:"truncated"`
		TotalLines    int64 `json:"totalLines"`
		TotalBytes    int64 `json:"totalBytes"`
		ReturnedLines int64 `json:"returnedLines"`
		ReturnedBytes int64 `json:"returnedBytes"`
	}
	type response struct {
		Stdout     string                  `json:"stdout"`
		Stderr     string                  `json:"stderr"`
		ExitCode   int                     `json:"exitCode"`
		Success    bool                    `json:"success"`
		Duration   int64                   `json:"duration"`
		Command    string                  `json:"command"`
		Cached     *bool                   `json:"cached,omitempty"`
		Truncation map[string]*streamTrunc `json:"truncation,omitempty"`
		Warnings   []string                `json:"warnings,omitempty"`
		Error      string                  `json:"error,omitempty"`
	}
	r := response{Stdout: contentOf(content, "stdout"), Stderr: contentOf(content, "stderr"), Duration: num(d, "duration_ms"), ExitCode: -1}
	if _, ran := d["exit_code"].(float64); ran {
		r.ExitCode = int(num(d, "exit_code"))
	}
	r.Success = r.ExitCode == 0
	if id := num(d, "history_id"); id > 0 && command != nil {
		r.Command = command(int(id))
	}
	if flag(d, "cached") {
		yes := true
		r.Cached = &yes
	}
	for _, name := range []string{"stdout", "stderr"} {
		s := obj(d, name)
		tr := obj(s, "truncation")
		if !flag(tr, "truncated") {
			continue
		}
		if r.Truncation == nil {
			r.Truncation = map[string]*streamTrunc{}
		}
		// Returned is what the stream's field holds, the omission marker
		// line included, as the design counts it (macos-shell's design, 3 Core Implementation).
		shown := contentOf(content, name)
		returned := int64(strings.Count(shown, "\n"))
		if shown != "" && !strings.HasSuffix(shown, "\n") {
			returned++
		}
		r.Truncation[name] = &streamTrunc{Truncated: true, TotalLines: num(tr, "total_lines"), TotalBytes: num(tr, "total_bytes"),
			ReturnedLines: returned, ReturnedBytes: int64(len(shown))}
		// What the text's notices say goes in warnings: where the whole
		// stream is, and why it was cut.
		switch path := str(s, "full_output_path"); {
		case flag(s, "binary"):
			r.Warnings = append(r.Warnings, fmt.Sprintf("%s: binary output detected (%d bytes), content omitted. Full output: %s", name, num(tr, "total_bytes"), path))
		case path != "":
			r.Warnings = append(r.Warnings, fmt.Sprintf("%s: showing %d of %d lines. Full output: %s", name, num(tr, "output_lines"), num(tr, "total_lines"), path))
		}
		if flag(s, "spill_capped") {
			r.Warnings = append(r.Warnings, name+": the full output was capped at the spill file's size limit")
		}
		if e := str(s, "spill_error"); e != "" {
			r.Warnings = append(r.Warnings, name+": full output could not be saved: "+e)
		}
	}
	if flag(d, "running") {
		r.Warnings = append(r.Warnings, fmt.Sprintf("still running in the background as pid %d: use check_pid or kill_pid", num(d, "pid")))
		if flag(d, "timed_out") {
			r.Error = "TIMEOUT_BACKGROUNDED"
		}
	}
	out, _ := json.Marshal(r)
	return string(out)
}

// zdxJSON is zdx's envelope with its flat fields (zdx's design, Slice 3,
// "Slice 1", "Inputs"): stdout_truncated, stdout_total_bytes and the same for
// stderr, and a top-level truncated.
func zdxJSON(m map[string]any, bash bool, content []render.Field) (string, bool) {
	truncated := false
	if bash {
		for _, name := range []string{"stdout", "stderr"} {
			tr := obj(obj(m, name), "truncation")
			m[name+"_truncated"] = flag(tr, "truncated")
			m[name+"_total_bytes"] = num(tr, "total_bytes")
			truncated = truncated || flag(tr, "truncated")
		}
	} else if tr, ok := m["truncation"].(map[string]any); ok {
		truncated, _ = tr["truncated"].(bool)
	}
	m["truncated"] = truncated
	out, err := render.Envelope(m, content...)
	return out, err == nil
}

// opencodeJSON adds opencode's temp_file_path (opencode's design, Open Questions)
// to the envelope: the file of stdout, or of stderr when only it spilled.
func opencodeJSON(m map[string]any, content []render.Field) (string, bool) {
	path := str(obj(m, "stdout"), "full_output_path")
	if path == "" {
		path = str(obj(m, "stderr"), "full_output_path")
	}
	if path != "" {
		m["temp_file_path"] = path
	}
	out, err := render.Envelope(m, content...)
	return out, err == nil
}

// piJSON is pi's tool result (pi's design, bash, "grep", "find",
// "ls"): {"content":[{"type":"text","text":…}],"details":{…}}, the
// text what pi's model sees (notices included), with
// camelCase details, and the limits reached as the counts they stopped at
// (matchLimitReached: 100).
func piJSON(text string, m map[string]any, bash bool) (string, bool) {
	for _, k := range []string{"match_limit_reached", "result_limit_reached", "entry_limit_reached"} {
		reached, ok := m[k].(bool)
		if !ok {
			continue
		}
		delete(m, k)
		if reached {
			for _, count := range []string{"match_count", "count"} {
				if n, ok := m[count]; ok {
					m[k] = n
					break
				}
			}
		}
	}
	if n, ok := m["lines_cut"].(float64); ok && n > 0 {
		if _, grep := m["match_count"]; grep {
			m["lines_truncated"] = true // pi's design, grep
		}
	}
	if bash {
		// pi's bash has one output and one file (pi's design, bash).
		if path := str(obj(m, "stdout"), "full_output_path"); path != "" {
			m["full_output_path"] = path
		}
		m["truncation"] = obj(m, "stdout")["truncation"]
	}
	out, err := json.Marshal(map[string]any{
		"content": []map[string]string{{"type": "text", "text": text}},
		"details": camelKeys(m),
	})
	return string(out), err == nil
}

// toMap turns details into a JSON object's map.
func toMap(details any) (map[string]any, error) {
	raw, err := json.Marshal(details)
	if err != nil {
		return nil, err
	}
	m := map[string]any{}
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, err
	}
	return m, nil
}

// camelKeys renames the keys of m, deeply, from snake_case to camelCase.
func camelKeys(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, val := range x {
			out[camel(k)] = camelKeys(val)
		}
		return out
	case []any:
		for i := range x {
			x[i] = camelKeys(x[i])
		}
		return x
	}
	return v
}

func camel(s string) string {
	var b strings.Builder
	up := false
	for _, r := range s {
		if r == '_' {
			up = true
			continue
		}
		if up {
			r = unicode.ToUpper(r)
			up = false
		}
		b.WriteRune(r)
	}
	return b.String()
}
