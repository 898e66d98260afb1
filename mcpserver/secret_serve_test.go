package mcpserver_test

import (
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// pageRequest sends a request to a secret page, with extra headers, and
// returns the status and the body. A POST sends the form a person's
// browser would.
func pageRequest(t *testing.T, method, page string, form url.Values, header http.Header) (int, string) {
	t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, _ := http.NewRequest(method, page, body)
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if u, err := url.Parse(page); err == nil {
			req.Header.Set("Origin", u.Scheme+"://"+u.Host)
		}
	}
	for k, v := range header {
		req.Header[k] = v
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// Under spillway serve the pages are on the server's own listener, and a
// page's path is its only credential: the bearer token opens none, and a
// request made with another session's id (a client of that session
// reaching for this one's prompt) is refused.
func TestServeSecretPageRefusesAnotherSession(t *testing.T) {
	t.Parallel()
	const token = "serve-token-of-the-secret-test"
	s := startHTTP(t, []string{"SPILLWAY_TOKEN=" + token})
	auth := http.Header{"Authorization": {"Bearer " + token}}
	urls := make(chan string, 4)
	a, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, personClient(urls)).Connect(testContext(t),
		&mcp.StreamableClientTransport{Endpoint: s.url, HTTPClient: &http.Client{Transport: headerTransport{auth}}}, personSession)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	b := connectHTTP(t, s.url, nil, auth, false)
	call(t, b, "bash", map[string]any{"command": "true"}) // session b has a toolset too

	res := call(t, a, "bash", map[string]any{"command": readSecret, "tty": true, "timeout": 30_000})
	d := details(t, res)
	page := <-urls
	base := strings.TrimSuffix(s.url, "/mcp")
	if !strings.HasPrefix(page, base+"/secret/") {
		t.Fatalf("the page %q is not served by serve's listener %s\n%s", page, base, text(res))
	}
	_, html := pageRequest(t, "GET", page, nil, nil)
	m := regexp.MustCompile(`name="form" value="([^"]+)"`).FindStringSubmatch(html)
	if m == nil {
		t.Fatalf("the page: %s", html)
	}
	form := url.Values{"form": {m[1]}, "action": {"answer"}, "secret": {"from session b"}}

	other := http.Header{"Authorization": {"Bearer " + token}, "Mcp-Session-Id": {b.ID()}}
	if st, _ := pageRequest(t, "GET", page, nil, other); st != http.StatusForbidden {
		t.Errorf("GET with session b's id: %d, want 403", st)
	}
	if st, _ := pageRequest(t, "POST", page, form, other); st != http.StatusForbidden {
		t.Errorf("POST with session b's id: %d, want 403", st)
	}
	for _, p := range []string{base + "/secret/", base + "/secret/" + b.ID(), base + "/secret/" + a.ID()} {
		if st, _ := pageRequest(t, "GET", p, nil, auth); st != http.StatusNotFound {
			t.Errorf("GET %s with the server's token: %d, want 404", p, st)
		}
	}
	// The person's browser, with neither token nor session, answers it.
	form.Set("secret", "the real one")
	if st, body := pageRequest(t, "POST", page, form, nil); st != http.StatusOK {
		t.Fatalf("the person's answer: %d %s", st, body)
	}
	after := lookUntil(t, func() string {
		return text(call(t, a, "bash", map[string]any{"check_pid": d["pid"], "timeout": 20_000}))
	}, "exit code")
	if !strings.HasPrefix(after, "[the password prompt was answered on the page]\n") || !strings.Contains(after, received("the real one")) {
		t.Errorf("after the answer session a reads:\n%s", after)
	}
}
