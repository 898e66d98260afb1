package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"
)

// httpProbeTimeout bounds each request doctor makes to an entry's server:
// one on loopback answers at once, and a host that does not answer should
// not hold up the other checks.
const httpProbeTimeout = 3 * time.Second

// checkHTTPEntry checks an entry that reaches spillway serve over HTTP
// (Claude Code's {"type": "http", "url": …}, Codex's url =): the bearer
// token it sends, then whether a server answers at its URL (GET /healthz,
// which needs no token) and takes that token (a GET of the endpoint,
// which opens no session: serve answers 401 before anything else when the
// token is wrong). A token is sent only to this machine's loopback: a
// project's file could name any host, and a variable of the person's
// (${SPILLWAY_TOKEN}, or any other) in its header.
func (d *doctor) checkHTTPEntry(what, client string, e serverEntry) {
	u, err := url.Parse(e.url)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		d.say(statusProblem, what, fmt.Sprintf("url %q is not an http:// or https:// address: %s cannot reach a server there", e.url, client))
		return
	}
	auth, from, ok := d.entryAuth(what, client, e)
	if !ok {
		return
	}
	loopback := u.Hostname() == "localhost" || net.ParseIP(u.Hostname()).IsLoopback()
	health := &url.URL{Scheme: u.Scheme, Host: u.Host, Path: "/healthz"}
	status, err := d.probe(health.String(), "")
	switch {
	case err != nil:
		d.say(statusNote, what, fmt.Sprintf("over HTTP at %s, where nothing answers now (%v): start spillway serve before %s, which connects as it starts", e.url, shortNetErr(err), client))
		return
	case status != http.StatusOK:
		d.say(statusNote, what, fmt.Sprintf("over HTTP at %s, where %s answers %d: not a spillway serve that is ready (serve answers 200 there, 503 while it drains)", e.url, health, status))
		return
	}
	if !loopback {
		d.say(statusOK, what, fmt.Sprintf("over HTTP at %s, where a server answers (/healthz); the token is not checked: doctor sends tokens only to this machine (127.0.0.1, ::1, localhost)", e.url))
		return
	}
	status, err = d.probe(e.url, auth)
	switch {
	case err != nil:
		d.say(statusProblem, what, fmt.Sprintf("over HTTP at %s: /healthz answers, the endpoint does not (%v)", e.url, shortNetErr(err)))
	case status == http.StatusUnauthorized && auth == "":
		d.say(statusProblem, what, fmt.Sprintf("over HTTP at %s, where spillway serve wants a bearer token, and the entry sends none (401): add the header Authorization: Bearer <token>, the token serve printed at start", e.url))
	case status == http.StatusUnauthorized:
		d.say(statusProblem, what, fmt.Sprintf("over HTTP at %s, where spillway serve refuses the token the entry sends (401, the token %s): give it the token serve printed at start, or the one in $SPILLWAY_TOKEN where serve started", e.url, from))
	case auth == "":
		d.say(statusOK, what, fmt.Sprintf("over HTTP at %s: spillway serve answers, with no token asked for (--no-token)", e.url))
	default:
		d.say(statusOK, what, fmt.Sprintf("over HTTP at %s: spillway serve answers and takes the token %s", e.url, from))
	}
}

// entryAuth is the Authorization header an HTTP entry makes its client
// send, and where its token comes from; ok is false when the entry cannot
// send a usable one and that was said.
func (d *doctor) entryAuth(what, client string, e serverEntry) (auth, from string, ok bool) {
	header := func(m map[string]string) (string, bool) {
		for k, v := range m {
			if strings.EqualFold(k, "Authorization") {
				return v, true
			}
		}
		return "", false
	}
	// Where the client starts may have the variable this shell lacks:
	// a note, not a problem.
	unset := func(name string) (string, string, bool) {
		d.say(statusNote, what, fmt.Sprintf("over HTTP at %s, with its bearer token from $%s, which is not set in this shell: %s sends none unless it is set where %s starts (export %s=<token> there)", e.url, name, client, client, name))
		return "", "", false
	}
	if e.project {
		// Its variables are the person's, named by whoever wrote the
		// project: none is read, and only a token written in the file
		// is sent.
		v, _ := header(e.headers)
		if _, has := header(e.envHeaders); e.tokenEnv != "" || has || strings.Contains(v, "$") {
			d.say(statusNote, what, fmt.Sprintf("over HTTP at %s, with its token from a variable: doctor reads none of your variables for a project's file, so neither the token nor the server is checked", e.url))
			return "", "", false
		}
	}
	switch v, has := header(e.headers); {
	case e.tokenEnv != "":
		tok := d.getenv(e.tokenEnv)
		if tok == "" {
			return unset(e.tokenEnv)
		}
		auth, from = "Bearer "+tok, "of $"+e.tokenEnv
	case has:
		// Claude Code, VS Code and Gemini CLI expand ${VAR} in a
		// header; the shell expanded "$SPILLWAY_TOKEN" when the entry
		// was added, to nothing if it was not set then.
		var missing string
		auth = os.Expand(v, func(name string) string {
			val := d.getenv(name)
			if val == "" && missing == "" {
				missing = name
			}
			return val
		})
		if missing != "" {
			return unset(missing)
		}
		from = "in its Authorization header"
	default:
		if name, has := header(e.envHeaders); has {
			if d.getenv(name) == "" {
				return unset(name)
			}
			auth, from = d.getenv(name), "of $"+name
		}
	}
	scheme, tok, _ := strings.Cut(strings.TrimSpace(auth), " ")
	switch {
	case auth == "":
	case !strings.EqualFold(scheme, "Bearer"):
		d.say(statusProblem, what, fmt.Sprintf("sends %q, not a bearer token: spillway serve wants Authorization: Bearer <token>", "Authorization: "+auth))
		return "", "", false
	case strings.TrimSpace(tok) == "":
		d.say(statusProblem, what, fmt.Sprintf("sends %q with no token (was $SPILLWAY_TOKEN empty when the entry was added?): give it the token serve printed at start", "Authorization: "+auth))
		return "", "", false
	}
	return auth, from, true
}

// probe makes one GET request and returns the status it gets.
func (d *doctor) probe(target, auth string) (int, error) {
	ctx, cancel := context.WithTimeout(context.Background(), httpProbeTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		return 0, err
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	resp.Body.Close()
	return resp.StatusCode, nil
}

// shortNetErr is a request's error without the method and URL, which the
// finding says already.
func shortNetErr(err error) string {
	if ue := (*url.Error)(nil); errors.As(err, &ue) {
		return ue.Err.Error()
	}
	return err.Error()
}

// stringMap is a table of strings from a parsed config (headers).
func stringMap(v any) map[string]string {
	out := map[string]string{}
	m, _ := v.(map[string]any)
	for k, x := range m {
		if s, ok := x.(string); ok {
			out[k] = s
		}
	}
	return out
}
