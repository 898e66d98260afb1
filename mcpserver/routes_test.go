package mcpserver_test

import (
	"net/http"
	"strings"
	"testing"
)

// Each path answers the methods it takes; any other method gets 405 with
// Allow naming the ones it takes (RFC 9110 requires the header), and a
// path that is not served gets 404 naming where MCP is.
func TestRoutesMethodsAndPaths(t *testing.T) {
	t.Parallel()
	const token = "Bearer r0utes"
	s := startHTTP(t, []string{"SPILLWAY_TOKEN=r0utes"})
	for _, c := range []struct {
		method, path, auth string
		code               int
		allow, body        string
	}{
		{http.MethodGet, "/healthz", "", 200, "", "ok"},
		{http.MethodHead, "/healthz", "", 200, "", ""},
		{http.MethodHead, "/readyz", "", 200, "", ""},
		{http.MethodPost, "/healthz", "", 405, "GET, HEAD", "use GET"},
		{http.MethodDelete, "/readyz", "", 405, "GET, HEAD", "use GET"},
		{http.MethodGet, "/metrics", "", 401, "", "Unauthorized"},
		{http.MethodPut, "/metrics", token, 405, "GET, HEAD", "use GET"},
		{http.MethodGet, "/drain", token, 405, "POST", "use POST"},
		{http.MethodPost, "/drain", "", 401, "", "Unauthorized"},
		{http.MethodGet, "/mcp", "", 401, "", "Unauthorized"},
		{http.MethodGet, "/", "", 404, "", "spillway serves MCP at /mcp"},
		{http.MethodPost, "/mcpx", token, 404, "", "spillway serves MCP at /mcp"},
		{http.MethodGet, "/secret/nosuchpage", "", 404, "", "does not exist"},
	} {
		code, body, h := request(t, c.method, s.base()+c.path, c.auth)
		if code != c.code {
			t.Errorf("%s %s: %d %q, want %d", c.method, c.path, code, body, c.code)
			continue
		}
		if got := h.Get("Allow"); got != c.allow {
			t.Errorf("%s %s: Allow %q, want %q", c.method, c.path, got, c.allow)
		}
		if !strings.Contains(body, c.body) {
			t.Errorf("%s %s: body %q, want it to contain %q", c.method, c.path, body, c.body)
		}
	}
}
