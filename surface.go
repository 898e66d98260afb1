package spillway

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode"

	"github.com/spillway-dev/spillway/internal/registry"
	"github.com/spillway-dev/spillway/internal/render"
	"github.com/spillway-dev/spillway/internal/shell"
)

// Peer surfaces: under the profile of a peer system, the tools also take
// that system's parameter names, and with --format json their results are
// that system's result objects, so that a client written against it works
// unchanged. docs/profiles.md maps each name to the design it comes
// from. The default surface is never changed by this: without such a
// profile, or without --format json, results are spillway's own.

// A peerParam is a parameter of a peer system that spillway's tools do not
// name the same way: it is taken out of a call's arguments and applied by
// set (after the arguments are decoded) or renamed to one of ours.
type peerParam struct {
	param
	rename string                                  // the parameter of ours it is, or ""
	set    func(*BashInput, json.RawMessage) error // sets what no parameter of ours sets
}

// peerTools is a tool name a peer system uses for one of ours.
var peerTools = map[string]map[string]string{
	"macos-shell": {"run_command": "bash"}, // macos-shell's design, 1 Schema Updates
}

// peerParams are the parameters of each peer system, by profile and tool.
var peerParams = map[string]map[string][]peerParam{
	"macos-shell": {"bash": {
		{param: param{Name: "maxOutputLines", Type: registry.Int, Min: 1, Doc: "Most lines of stdout to return (max_lines for stdout alone)."},
			set: func(in *BashInput, v json.RawMessage) error { return positive(v, &in.StdoutMaxLines) }},
		{param: param{Name: "maxErrorLines", Type: registry.Int, Min: 1, Doc: "Most lines of stderr to return (max_lines for stderr alone)."},
			set: func(in *BashInput, v json.RawMessage) error { return positive(v, &in.StderrMaxLines) }},
		{param: param{Name: "includeFullOutput", Type: registry.Bool, Doc: "Return the full output (full_output)."}, rename: "full_output"},
	}},
}

// peerDeclarations are the peer systems' tool names and parameters, as
// the registry gives them to the packages that describe the tools.
func peerDeclarations() registry.Peers[Policy] {
	peers := registry.Peers[Policy]{Tools: peerTools, Params: map[string]map[string][]param{}}
	for profile, tools := range peerParams {
		peers.Params[profile] = map[string][]param{}
		for tool, params := range tools {
			for _, p := range params {
				peers.Params[profile][tool] = append(peers.Params[profile][tool], p.param)
			}
		}
	}
	return peers
}

func positive(v json.RawMessage, dst *int) error {
	var n int
	if err := json.Unmarshal(v, &n); err != nil || n < 1 {
		return fmt.Errorf("want a positive integer, got %s", v)
	}
	*dst = n
	return nil
}

// peerCall takes a call apart under the profile: the tool it names, the
// arguments with the design's names renamed or taken out, and what the
// taken ones set.
func peerCall(profile, tool string, raw json.RawMessage) (string, json.RawMessage, []func(*BashInput) error, error) {
	if t, ok := peerTools[profile][tool]; ok {
		tool = t
	}
	params := peerParams[profile][tool]
	if len(params) == 0 {
		return tool, raw, nil, nil
	}
	var args map[string]json.RawMessage
	if err := json.Unmarshal(bytes.TrimSpace(orEmpty(raw)), &args); err != nil {
		return tool, raw, nil, nil // decodeArgs says what is wrong
	}
	var sets []func(*BashInput) error
	for _, p := range params {
		v, ok := args[p.Name]
		if !ok || bytes.Equal(v, []byte("null")) {
			continue
		}
		delete(args, p.Name)
		if p.rename != "" {
			if _, both := args[p.rename]; both {
				return "", nil, nil, &ArgsError{Tool: tool, Err: fmt.Errorf("give %s or %s, not both", p.Name, p.rename)}
			}
			args[p.rename] = v
			continue
		}
		name, set := p.Name, p.set
		sets = append(sets, func(in *BashInput) error {
			if err := set(in, v); err != nil {
				return &ArgsError{Tool: tool, Err: fmt.Errorf("parameter %q: %v", name, err)}
			}
			return nil
		})
	}
	out, err := json.Marshal(args)
	return tool, out, sets, err
}

func orEmpty(raw json.RawMessage) json.RawMessage {
	if len(bytes.TrimSpace(raw)) == 0 {
		return json.RawMessage("{}")
	}
	return raw
}

// peerJSON renders a successful result as the peer system of the
// profile does; ok is false when the profile has no surface of its own
// for the tool (the default envelope then stands).
func (t *Toolset) peerJSON(text string, details any, content []render.Field) (string, bool) {
	switch t.policy.Profile {
	case "macos-shell":
		if d, ok := details.(BashDetails); ok {
			return t.runCommandJSON(d, content), true
		}
	case "zdx":
		return zdxJSON(details, content)
	case "pi":
		return piJSON(text, details)
	case "opencode":
		if d, ok := details.(BashDetails); ok {
			return opencodeJSON(d, content)
		}
	}
	return "", false
}

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
func (t *Toolset) runCommandJSON(d BashDetails, content []render.Field) string {
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
	r := response{Stdout: contentOf(content, "stdout"), Stderr: contentOf(content, "stderr"), Duration: d.DurationMS, ExitCode: -1}
	if d.ExitCode != nil {
		r.ExitCode = *d.ExitCode
	}
	r.Success = d.ExitCode != nil && *d.ExitCode == 0
	if d.HistoryID > 0 {
		for _, rec := range newHistoryRecords(t.shell.History(shell.HistoryFilter{})) {
			if rec.ID == d.HistoryID {
				r.Command = strings.Join(append([]string{rec.Command}, rec.Args...), " ")
			}
		}
	}
	if d.Cached {
		yes := true
		r.Cached = &yes
	}
	for _, s := range []struct {
		name string
		d    StreamDetails
	}{{"stdout", d.Stdout}, {"stderr", d.Stderr}} {
		tr := s.d.Truncation
		if !tr.Truncated {
			continue
		}
		if r.Truncation == nil {
			r.Truncation = map[string]*streamTrunc{}
		}
		// Returned is what the stream's field holds, the omission marker
		// line included, as the design counts it (macos-shell's design, 3 Core Implementation).
		shown := contentOf(content, s.name)
		returned := int64(strings.Count(shown, "\n"))
		if shown != "" && !strings.HasSuffix(shown, "\n") {
			returned++
		}
		r.Truncation[s.name] = &streamTrunc{Truncated: true, TotalLines: tr.TotalLines, TotalBytes: tr.TotalBytes,
			ReturnedLines: returned, ReturnedBytes: int64(len(shown))}
		// What the text's notices say goes in warnings: where the whole
		// stream is, and why it was cut.
		switch {
		case s.d.Binary:
			r.Warnings = append(r.Warnings, fmt.Sprintf("%s: binary output detected (%d bytes), content omitted. Full output: %s", s.name, tr.TotalBytes, s.d.FullOutputPath))
		case s.d.FullOutputPath != "":
			r.Warnings = append(r.Warnings, fmt.Sprintf("%s: showing %d of %d lines. Full output: %s", s.name, tr.OutputLines, tr.TotalLines, s.d.FullOutputPath))
		}
		if s.d.SpillCapped {
			r.Warnings = append(r.Warnings, s.name+": the full output was capped at the spill file's size limit")
		}
		if s.d.SpillError != "" {
			r.Warnings = append(r.Warnings, s.name+": full output could not be saved: "+s.d.SpillError)
		}
	}
	if d.Running {
		r.Warnings = append(r.Warnings, fmt.Sprintf("still running in the background as pid %d: use check_pid or kill_pid", d.PID))
		if d.TimedOut {
			r.Error = "TIMEOUT_BACKGROUNDED"
		}
	}
	out, _ := json.Marshal(r)
	return string(out)
}

// zdxJSON is zdx's envelope with its flat fields (zdx's design, Slice 3,
// "Slice 1", "Inputs"): stdout_truncated, stdout_total_bytes and the same for
// stderr, and a top-level truncated.
func zdxJSON(details any, content []render.Field) (string, bool) {
	m, err := toMap(details)
	if err != nil {
		return "", false
	}
	truncated := false
	if d, ok := details.(BashDetails); ok {
		for _, s := range []struct {
			name string
			d    StreamDetails
		}{{"stdout", d.Stdout}, {"stderr", d.Stderr}} {
			m[s.name+"_truncated"] = s.d.Truncation.Truncated
			m[s.name+"_total_bytes"] = s.d.Truncation.TotalBytes
			truncated = truncated || s.d.Truncation.Truncated
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
func opencodeJSON(d BashDetails, content []render.Field) (string, bool) {
	m, err := toMap(d)
	if err != nil {
		return "", false
	}
	path := d.Stdout.FullOutputPath
	if path == "" {
		path = d.Stderr.FullOutputPath
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
func piJSON(text string, details any) (string, bool) {
	m, err := toMap(details)
	if err != nil {
		return "", false
	}
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
	if d, ok := details.(BashDetails); ok {
		// pi's bash has one output and one file (pi's design, bash).
		if d.Stdout.FullOutputPath != "" {
			m["full_output_path"] = d.Stdout.FullOutputPath
		}
		m["truncation"] = m["stdout"].(map[string]any)["truncation"]
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
