package main

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/spillway-dev/spillway"
	"github.com/spillway-dev/spillway/mcpserver"
)

// startServe runs spillway serve's HTTP server in the test, on a port of
// its own, with token; it returns the endpoint's URL.
func startServe(t *testing.T, token string) string {
	t.Helper()
	srv, err := mcpserver.ListenHTTP(mcpserver.HTTPConfig{
		Config: mcpserver.Config{NewToolset: func(mcpserver.Client) (*spillway.Toolset, error) {
			return nil, errors.New("doctor opens no session")
		}},
		Listen: "127.0.0.1:0",
		Token:  token,
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx) }()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	return srv.URL()
}

// closedURL is an endpoint's URL on a port nothing listens on.
func closedURL(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return "http://" + addr + "/mcp"
}

// An entry over HTTP (spillway serve) is found by its name, whatever its
// name adds ("spillway-http", as the README writes it), and checked: a
// server answers at its URL and takes the token it sends, from the header
// or from the variable Codex reads it from.
func TestDoctorHTTPEntries(t *testing.T) {
	e := newDoctorEnv(t)
	up := startServe(t, "good")
	down := closedURL(t)
	entry := func(url, header string) string {
		if header == "" {
			return `{"type": "http", "url": "` + url + `"}`
		}
		return `{"type": "http", "url": "` + url + `", "headers": {"Authorization": "` + header + `"}}`
	}
	e.write(t, filepath.Join(e.home, ".claude.json"), `{"mcpServers": {
		"spillway-http": `+entry(up, "Bearer good")+`,
		"spillway-bad": `+entry(up, "Bearer wrong")+`,
		"spillway-none": `+entry(up, "")+`,
		"spillway-empty": `+entry(up, "Bearer ")+`,
		"spillway-down": `+entry(down, "Bearer good")+`,
		"other": `+entry(up, "Bearer good")+`}}`)
	e.write(t, filepath.Join(e.home, ".codex", "config.toml"), "[mcp_servers.spillway]\nurl = \""+up+"\"\nbearer_token_env_var = \"SW_TOKEN\"\n")
	r := e.doctor(t)
	if r.status != 1 || !strings.Contains(r.stderr, "doctor: 3 problems") {
		t.Errorf("status %d, %q: want 1 and 3 problems\n%s", r.status, r.stderr, r.stdout)
	}
	const claude = "Claude Code ~/.claude.json "
	wantLine(t, r.stdout, statusOK, claude+"spillway-http:", up, "spillway serve answers and takes the token in its Authorization header")
	wantLine(t, r.stdout, statusProblem, claude+"spillway-bad:", "refuses the token the entry sends (401")
	wantLine(t, r.stdout, statusProblem, claude+"spillway-none:", "wants a bearer token, and the entry sends none")
	wantLine(t, r.stdout, statusProblem, claude+"spillway-empty:", `"Authorization: Bearer " with no token`)
	wantLine(t, r.stdout, statusNote, claude+"spillway-down:", down, "nothing answers now", "start spillway serve")
	wantLine(t, r.stdout, statusNote, "Codex ~/.codex/config.toml spillway:", "$SW_TOKEN, which is not set in this shell")
	if strings.Contains(r.stdout, claude+"other") {
		t.Errorf("a server not named spillway was checked:\n%s", r.stdout)
	}
	// With the variable set, Codex's entry sends the token.
	e.cli.env = append(e.cli.env, "SW_TOKEN=good")
	r = e.doctor(t)
	wantLine(t, r.stdout, statusOK, "Codex ~/.codex/config.toml spillway:", up, "takes the token of $SW_TOKEN")
}

// A config that does not load leaves the rules unknown: doctor says so,
// naming the file and the line, instead of "no command rules".
func TestDoctorBrokenConfigRules(t *testing.T) {
	e := newDoctorEnv(t)
	cfg := filepath.Join(e.home, ".config", "spillway", "config.toml")
	for _, c := range []struct{ text, line, msg string }{
		{"[rules]\ndeny = [\"rm *\"\nallow = 3\n", ":3 ", "expected ',' or ']'"},
		{"[rules]\ndefault = \"allow\"\ndeny = 5\n", ":3 ", "want an array of strings"},
	} {
		e.write(t, cfg, c.text)
		r := e.doctor(t)
		if r.status != 1 || strings.Contains(r.stdout, "no command rules") {
			t.Errorf("%q: status %d, want 1, and no 'no command rules':\n%s", c.text, r.status, r.stdout)
		}
		wantLine(t, r.stdout, statusNote, "rules:", "not known", cfg+c.line+"does not load", c.msg, "[rules] are not read")
	}
}

// captureServer answers /healthz as serve does and records every
// Authorization header it is sent; it listens on addr.
func captureServer(t *testing.T, addr string) (url string, seen func() []string) {
	t.Helper()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Skipf("cannot listen on %s: %v", addr, err)
	}
	var mu sync.Mutex
	var auths []string
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		if a := r.Header.Get("Authorization"); a != "" {
			auths = append(auths, a)
		}
		mu.Unlock()
		w.WriteHeader(http.StatusOK)
	}))
	srv.Listener.Close()
	srv.Listener = ln
	srv.Start()
	t.Cleanup(srv.Close)
	return srv.URL + "/mcp", func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(auths)
	}
}

// nonLoopbackIP is an address of this machine that is not loopback.
func nonLoopbackIP(t *testing.T) string {
	t.Helper()
	addrs, _ := net.InterfaceAddrs()
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && !n.IP.IsLoopback() && n.IP.To4() != nil {
			return n.IP.String()
		}
	}
	t.Skip("this machine has no address but loopback")
	return ""
}

// Doctor as an attacker's project would use it: a project's file names
// any URL and any of the person's variables in its header. Doctor sends a
// token only to loopback, and reads no variable for a project's file.
func TestAttackDoctorSendsNoTokenAway(t *testing.T) {
	e := newDoctorEnv(t)
	e.cli.env = append(e.cli.env, "SECRET_VAR=topsecret", "SPILLWAY_TOKEN_X=servetoken")
	away, awaySeen := captureServer(t, nonLoopbackIP(t)+":0")
	local, localSeen := captureServer(t, "127.0.0.1:0")
	e.write(t, filepath.Join(e.proj, ".mcp.json"), `{"mcpServers": {
		"spillway-away": {"type": "http", "url": "`+away+`", "headers": {"Authorization": "Bearer literal-token"}},
		"spillway-var": {"type": "http", "url": "`+local+`", "headers": {"Authorization": "Bearer ${SECRET_VAR}"}}}}`)
	e.write(t, filepath.Join(e.proj, ".codex", "config.toml"), "[mcp_servers.spillway]\nurl = \""+local+"\"\nbearer_token_env_var = \"SPILLWAY_TOKEN_X\"\n")
	// The person's own file, naming a host away: its token stays here too.
	e.write(t, filepath.Join(e.home, ".claude.json"), `{"mcpServers": {"spillway-user": {"type": "http", "url": "`+away+`", "headers": {"Authorization": "Bearer user-token"}}}}`)
	r := e.doctor(t)
	if got := awaySeen(); len(got) > 0 {
		t.Errorf("doctor sent %q to a host away from this machine", got)
	}
	for _, a := range localSeen() {
		if strings.Contains(a, "topsecret") || strings.Contains(a, "servetoken") {
			t.Errorf("doctor sent a variable a project's file named: %q", a)
		}
	}
	wantLine(t, r.stdout, statusOK, "Claude Code ~/.claude.json spillway-user:", "the token is not checked")
	wantLine(t, r.stdout, statusOK, "spillway-away:", "the token is not checked")
	wantLine(t, r.stdout, statusNote, "spillway-var:", "reads none of your variables for a project's file")
	wantLine(t, r.stdout, statusNote, "Codex", ".codex/config.toml spillway:", "reads none of your variables")
}

// The count of rules in force includes the file rules (Read, Edit,
// Write), which rules list shows beside the command rules.
func TestDoctorCountsFileRules(t *testing.T) {
	e := newDoctorEnv(t)
	cfg := filepath.Join(e.home, ".config", "spillway", "config.toml")
	e.write(t, cfg, "[rules]\ndeny = [\"rm *\", \"Edit(.env)\"]\nask = [\"git push *\"]\n")
	r := e.doctor(t)
	wantLine(t, r.stdout, statusOK, "rules:", "3 rules in force (1 of them for the file tools)")
}
