package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// A clientFile is one file where a client keeps its MCP servers.
type clientFile struct {
	client string
	path   string
	// scope says whose the file is, for the finding ("user", "project").
	scope string
	// servers returns the file's servers by name, from the parsed file;
	// nil when the file has none.
	servers func(doc map[string]any) map[string]any
	toml    bool // else JSON with comments and trailing commas (JSONC)
	// elsewhere, when set, lists the other folders whose entries for
	// spillway the file holds, which the client uses only there.
	elsewhere func(doc map[string]any) []string
}

// serverEntry is one server of a client's config, reduced to what doctor
// checks.
type serverEntry struct {
	name     string
	command  string
	args     []string
	url      string
	disabled bool
	// Of an entry over HTTP: its headers (Codex's http_headers), the
	// headers whose value is an environment variable's (Codex's
	// env_http_headers), and the variable holding its bearer token
	// (Codex's bearer_token_env_var).
	headers    map[string]string
	envHeaders map[string]string
	tokenEnv   string
	// project is set for an entry of a project's file, which whoever
	// wrote the project chose: doctor reads no variable for it.
	project bool
}

// clientFiles lists the files of the six clients doctor knows, in the
// user's home and in the current directory.
func (d *doctor) clientFiles() []clientFile {
	h := func(parts ...string) string { return filepath.Join(append([]string{d.home}, parts...)...) }
	c := func(parts ...string) string { return filepath.Join(append([]string{d.cwd}, parts...)...) }
	key := func(k string) func(map[string]any) map[string]any {
		return func(doc map[string]any) map[string]any { m, _ := doc[k].(map[string]any); return m }
	}
	codexHome := d.getenv("CODEX_HOME")
	if codexHome == "" {
		codexHome = h(".codex")
	}
	xdg := d.getenv("XDG_CONFIG_HOME")
	if xdg == "" {
		xdg = h(".config")
	}
	cwd := d.cwd
	files := []clientFile{
		{client: "Claude Code", path: h(".claude.json"), scope: "user and this project's local", servers: func(doc map[string]any) map[string]any {
			// User scope at the top; local scope under the project's path.
			out := map[string]any{}
			for k, v := range key("mcpServers")(doc) {
				out[k] = v
			}
			projects, _ := doc["projects"].(map[string]any)
			proj, _ := projects[cwd].(map[string]any)
			for k, v := range key("mcpServers")(proj) {
				out[k] = v
			}
			return out
		}, elsewhere: func(doc map[string]any) []string {
			// Local scope, Claude Code's default: an entry under
			// another project's path is that folder's alone.
			projects, _ := doc["projects"].(map[string]any)
			var dirs []string
			for dir, v := range projects {
				proj, _ := v.(map[string]any)
				if dir != cwd && len(spillwayEntries(key("mcpServers")(proj))) > 0 {
					dirs = append(dirs, dir)
				}
			}
			sort.Strings(dirs)
			return dirs
		}},
		{client: "Claude Code", path: c(".mcp.json"), scope: "project", servers: key("mcpServers")},
		{client: "Codex", path: filepath.Join(codexHome, "config.toml"), scope: "user", servers: key("mcp_servers"), toml: true},
		{client: "Codex", path: c(".codex", "config.toml"), scope: "project", servers: key("mcp_servers"), toml: true},
		{client: "Gemini CLI", path: h(".gemini", "settings.json"), scope: "user", servers: key("mcpServers")},
		{client: "Gemini CLI", path: c(".gemini", "settings.json"), scope: "project", servers: key("mcpServers")},
		{client: "opencode", path: filepath.Join(xdg, "opencode", "opencode.json"), scope: "user", servers: key("mcp")},
		{client: "opencode", path: filepath.Join(xdg, "opencode", "opencode.jsonc"), scope: "user", servers: key("mcp")},
		{client: "opencode", path: c("opencode.json"), scope: "project", servers: key("mcp")},
		{client: "opencode", path: c("opencode.jsonc"), scope: "project", servers: key("mcp")},
		{client: "Cursor", path: h(".cursor", "mcp.json"), scope: "user", servers: key("mcpServers")},
		{client: "Cursor", path: c(".cursor", "mcp.json"), scope: "project", servers: key("mcpServers")},
	}
	vscodeUser := filepath.Join(xdg, "Code", "User")
	switch runtime.GOOS {
	case "darwin":
		vscodeUser = h("Library", "Application Support", "Code", "User")
	case "windows":
		vscodeUser = filepath.Join(d.getenv("APPDATA"), "Code", "User")
	}
	files = append(files,
		clientFile{client: "VS Code", path: filepath.Join(vscodeUser, "mcp.json"), scope: "user", servers: key("servers")},
		clientFile{client: "VS Code", path: filepath.Join(vscodeUser, "settings.json"), scope: "user", servers: func(doc map[string]any) map[string]any {
			mcp, _ := doc["mcp"].(map[string]any)
			m, _ := mcp["servers"].(map[string]any)
			return m
		}},
		clientFile{client: "VS Code", path: c(".vscode", "mcp.json"), scope: "workspace", servers: key("servers")},
	)
	return files
}

// checkClients reports, for each client, its files that mention spillway
// and whether each entry can start it; a client none of whose files exist
// gets one "-" line.
func (d *doctor) checkClients() {
	var order []string
	found := map[string]bool{}
	for _, f := range d.clientFiles() {
		if !slices.Contains(order, f.client) {
			order = append(order, f.client)
		}
		data, err := os.ReadFile(f.path)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		found[f.client] = true
		what := f.client + " " + d.tilde(f.path)
		if err != nil {
			d.say(statusProblem, what, err.Error())
			continue
		}
		doc, err := parseClientFile(data, f.toml)
		if err != nil {
			d.say(statusProblem, what, "does not parse, so "+f.client+" cannot read it: "+err.Error())
			continue
		}
		entries := spillwayEntries(f.servers(doc))
		if len(entries) == 0 {
			msg := "no entry for spillway (" + f.scope + " servers)"
			if f.elsewhere != nil {
				if dirs := f.elsewhere(doc); len(dirs) > 0 {
					msg += "; " + f.client + " has one for " + strings.Join(dirs, ", ") +
						" only (local scope, the default of claude mcp add): add it for every folder with claude mcp add -s user spillway -- spillway mcp"
				}
			}
			d.say(statusAbsent, what, msg)
			continue
		}
		for _, e := range entries {
			e.project = f.scope == "project" || f.scope == "workspace"
			d.checkEntry(what, f.client, e)
		}
		if f.client == "Gemini CLI" && !d.geminiTrusts(d.cwd) {
			d.say(statusNote, what, "Gemini CLI starts MCP servers only in folders you trust, and shows spillway \"Disabled\" elsewhere: "+
				d.cwd+" is not in ~/.gemini/trustedFolders.json (trust it with /permissions in Gemini CLI)")
		}
	}
	for _, c := range order {
		if !found[c] {
			d.say(statusAbsent, c, "no config file found (not installed, or spillway not added)")
		}
	}
}

// spillwayEntries picks the servers of a client's config that run
// spillway: named spillway, or whose command or arguments name it.
func spillwayEntries(servers map[string]any) []serverEntry {
	var names []string
	for name := range servers {
		names = append(names, name)
	}
	sort.Strings(names)
	var out []serverEntry
	for _, name := range names {
		m, ok := servers[name].(map[string]any)
		if !ok {
			continue
		}
		if e := serverEntryOf(name, m); e.runsSpillway() {
			out = append(out, e)
		}
	}
	return out
}

// serverEntryOf reads the entry of server name from a client's config,
// in any client's spelling of its fields.
func serverEntryOf(name string, m map[string]any) serverEntry {
	e := serverEntry{name: name}
	switch c := m["command"].(type) {
	case string:
		e.command = c
	case []any: // opencode: the command and its arguments in one array
		for i, a := range c {
			s, _ := a.(string)
			if i == 0 {
				e.command = s
			} else {
				e.args = append(e.args, s)
			}
		}
	}
	if args, ok := m["args"].([]any); ok {
		for _, a := range args {
			s, _ := a.(string)
			e.args = append(e.args, s)
		}
	}
	e.url, _ = m["url"].(string)
	if e.url == "" {
		e.url, _ = m["httpUrl"].(string)
	}
	e.headers = stringMap(m["headers"])
	for k, v := range stringMap(m["http_headers"]) {
		e.headers[k] = v
	}
	e.envHeaders = stringMap(m["env_http_headers"])
	e.tokenEnv, _ = m["bearer_token_env_var"].(string)
	if b, ok := m["disabled"].(bool); ok && b {
		e.disabled = true
	}
	if b, ok := m["enabled"].(bool); ok && !b {
		e.disabled = true
	}
	return e
}

// runsSpillway reports whether the entry names spillway: by its name
// ("spillway", "spillway-http"), its command, its URL's host, or the
// npm package in its arguments.
func (e serverEntry) runsSpillway() bool {
	mentions := strings.Contains(strings.ToLower(e.name), "spillway") || strings.Contains(strings.ToLower(filepath.Base(e.command)), "spillway") ||
		strings.Contains(strings.ToLower(e.url), "spillway")
	for _, a := range e.args {
		mentions = mentions || strings.Contains(a, "@spillway-dev/spillway")
	}
	return mentions
}

// checkEntry checks that one entry starts spillway's MCP server with a
// command that exists.
func (d *doctor) checkEntry(what, client string, e serverEntry) {
	what += " " + e.name
	line := strings.TrimSpace(e.command + " " + strings.Join(e.args, " "))
	if e.disabled {
		d.say(statusNote, what, "disabled in "+client+": "+line)
		return
	}
	if e.command == "" {
		if e.url != "" {
			d.checkHTTPEntry(what, client, e)
			return
		}
		d.say(statusProblem, what, "has neither a command nor a url: "+client+" cannot start it")
		return
	}
	path, err := d.resolve(e.command)
	if err != nil {
		d.say(statusProblem, what, err.Error())
		return
	}
	if strings.HasPrefix(filepath.Base(e.command), "npx") {
		d.say(statusNote, what, "runs the npm package through "+path+" ("+line+"); doctor does not check that npm can fetch it (spillway version through the same npx line does)")
		return
	}
	if !slices.Contains(e.args, "mcp") {
		d.say(statusProblem, what, fmt.Sprintf("runs %s without the mcp argument: the client would get spillway's help, not a server; args should be [\"mcp\"]", line))
		return
	}
	if slices.Contains(e.args, "--sandbox") {
		d.wantSandbox = true
	}
	d.say(statusOK, what, "runs "+path+" "+strings.Join(e.args, " "))
}

// resolve finds the executable a client would run for command: a path as
// it is, a bare name on PATH. A client started from a desktop menu may
// have another PATH than this shell: an absolute path is safest.
func (d *doctor) resolve(command string) (string, error) {
	if strings.ContainsRune(command, os.PathSeparator) || strings.ContainsRune(command, '/') {
		path := command
		if strings.HasPrefix(path, "~/") {
			path = filepath.Join(d.home, path[2:])
		}
		st, err := os.Stat(path)
		switch {
		case err != nil:
			return "", fmt.Errorf("command %s does not exist: give the path that command -v spillway prints", command)
		case st.IsDir():
			return "", fmt.Errorf("command %s is a directory, not the spillway binary", command)
		case runtime.GOOS != "windows" && st.Mode()&0o111 == 0:
			return "", fmt.Errorf("command %s is not executable (chmod +x it)", command)
		}
		return path, nil
	}
	path, err := d.lookPath(command)
	if err != nil {
		return "", fmt.Errorf("command %s is not on PATH (%s): give its absolute path, as command -v %s prints it after installing (go install ./cmd/spillway from a clone puts it in $(go env GOPATH)/bin)", command, d.getenv("PATH"), command)
	}
	return path, nil
}

// parseClientFile parses a client's config: TOML, or JSON with the
// comments and trailing commas that VS Code, Gemini CLI and opencode
// accept. A JSON error names its line.
func parseClientFile(data []byte, isTOML bool) (map[string]any, error) {
	doc := map[string]any{}
	if isTOML {
		if err := toml.Unmarshal(data, &doc); err != nil {
			var de *toml.DecodeError
			if errors.As(err, &de) {
				line, col := de.Position()
				return nil, fmt.Errorf("line %d, column %d: %s", line, col, strings.TrimPrefix(de.Error(), "toml: "))
			}
			return nil, err
		}
		return doc, nil
	}
	clean := stripJSONC(data)
	if len(bytes.TrimSpace(clean)) == 0 {
		return doc, nil
	}
	if err := json.Unmarshal(clean, &doc); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			line := 1 + bytes.Count(clean[:min(int(se.Offset), len(clean))], []byte("\n"))
			return nil, fmt.Errorf("line %d: %v", line, se)
		}
		return nil, err
	}
	return doc, nil
}

// stripJSONC blanks out // and /* */ comments, then the commas before a
// closing bracket, outside strings, keeping every newline so that line
// numbers hold.
func stripJSONC(data []byte) []byte {
	out := make([]byte, len(data))
	copy(out, data)
	outsideStrings(out, func(i int) int {
		switch {
		case out[i] == '/' && i+1 < len(out) && out[i+1] == '/':
			for ; i < len(out) && out[i] != '\n'; i++ {
				out[i] = ' '
			}
			return i
		case out[i] == '/' && i+1 < len(out) && out[i+1] == '*':
			end := bytes.Index(out[i+2:], []byte("*/"))
			stop := len(out)
			if end >= 0 {
				stop = i + 2 + end + 2
			}
			for j := i; j < stop; j++ {
				if out[j] != '\n' {
					out[j] = ' '
				}
			}
			return stop - 1
		}
		return i
	})
	outsideStrings(out, func(i int) int {
		if out[i] == ',' {
			rest := bytes.TrimLeft(out[i+1:], " \t\r\n")
			if len(rest) > 0 && (rest[0] == '}' || rest[0] == ']') {
				out[i] = ' '
			}
		}
		return i
	})
	return out
}

// outsideStrings calls f with the index of each byte of b outside JSON
// strings; f returns the index of the last byte it consumed.
func outsideStrings(b []byte, f func(i int) int) {
	inString := false
	for i := 0; i < len(b); i++ {
		switch {
		case inString && b[i] == '\\':
			i++
		case inString:
			inString = b[i] != '"'
		case b[i] == '"':
			inString = true
		default:
			i = f(i)
		}
	}
}

// geminiTrusts reports whether Gemini CLI's trusted folders
// (~/.gemini/trustedFolders.json) trust dir: a folder trusted as itself
// (TRUST_FOLDER) or as the parent of a folder (TRUST_PARENT) trusts what
// lies below it.
func (d *doctor) geminiTrusts(dir string) bool {
	data, err := os.ReadFile(filepath.Join(d.home, ".gemini", "trustedFolders.json"))
	if err != nil {
		return false
	}
	rules := map[string]string{}
	if json.Unmarshal(stripJSONC(data), &rules) != nil {
		return false
	}
	trusted := false
	for path, rule := range rules {
		base := filepath.Clean(path)
		switch rule {
		case "TRUST_PARENT":
			base = filepath.Dir(base)
		case "TRUST_FOLDER":
		default:
			continue
		}
		if rel, err := filepath.Rel(base, dir); err == nil && !strings.HasPrefix(rel, "..") {
			trusted = true
		}
	}
	return trusted
}
