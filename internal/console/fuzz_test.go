package console

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
)

// fuzzConsole is a console of an empty directory, addressed as
// 127.0.0.1:1 (it need not listen: requests are served directly), and
// a login to it.
func fuzzConsole(t testing.TB) (c *Console, login, csrf string) {
	c = NewConsole(t.TempDir(), "", nil)
	c.host = "127.0.0.1:1"
	req := httptest.NewRequest(http.MethodPost, "http://127.0.0.1:1/api/login", nil)
	req.Header.Set(linkHeader, c.code)
	w := httptest.NewRecorder()
	c.ServeHTTP(w, req)
	var l struct{ Login, Csrf string }
	if err := json.Unmarshal(w.Body.Bytes(), &l); err != nil || l.Login == "" {
		t.Fatalf("login: %d %s", w.Code, w.Body)
	}
	return c, l.Login, l.Csrf
}

// The page's requests, any path, method, headers and body: nothing
// panics; without the login (which a fuzzer cannot guess: 256 random
// bits) no /api/ route but the login answers 2xx, and the login route
// never trades a code that is not the link's (the link is used); with
// the login but without the action token no action is done; with both,
// a form naming no running server is 410 and never 204.
func FuzzConsoleRequest(f *testing.F) {
	f.Add(uint8(0), "POST", "/api/answer", "", "", "server=1&id=ab&choice=allow+once", "")
	f.Add(uint8(1), "POST", "/api/answer", "", "", "server=1&id=ab&choice=allow+once", "")
	f.Add(uint8(2), "POST", "/api/answer", "", "", "server=1&id=ab&choice=allow+once", "")
	f.Add(uint8(2), "POST", "/api/secret", "", "", "server=0&session=s&id=x&action=answer&secret=%zz%", "")
	f.Add(uint8(2), "POST", "/api/term/input", "", "", "server=-1&pid=99999999999999999999&secret=%1b[A", "")
	f.Add(uint8(2), "GET", "/api/term", "", "", "", "server=1&session=s&pid=1")
	f.Add(uint8(0), "POST", "/api/login", "guess", "", "", "")
	f.Add(uint8(0), "GET", "/api/view", "", "x", "", "")
	f.Add(uint8(1), "GET", "/api/view", "", "", "", "")
	f.Add(uint8(0), "GET", "/assets/../page.go", "", "", "", "")
	f.Add(uint8(0), "GET", "/", "", "", "", "")
	f.Fuzz(func(t *testing.T, mode uint8, method, path, link, login, body, query string) {
		if !strings.HasPrefix(path, "/") || strings.ContainsAny(path, "?#% \t\r\n") || strings.ContainsAny(query, "# \t\r\n") {
			return
		}
		if method != http.MethodGet && method != http.MethodPost {
			method = http.MethodPost
		}
		c, realLogin, realCsrf := fuzzConsole(t)
		u := "http://127.0.0.1:1" + path
		if query != "" {
			u += "?" + query
		}
		req, err := http.NewRequest(method, u, strings.NewReader(body))
		if err != nil {
			return // not a request a browser could send
		}
		req.RemoteAddr = "127.0.0.1:2"
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if req.URL.Path == "/api/events" {
			// The stream lasts as long as the page: this one has gone.
			ctx, cancel := context.WithCancel(req.Context())
			cancel()
			req = req.WithContext(ctx)
		}
		if link != "" {
			req.Header.Set(linkHeader, link)
		}
		switch mode % 3 {
		case 0: // a stranger: whatever login it makes up
			if login != "" {
				req.Header.Set(loginHeader, login)
			}
		case 1: // the login without its action token
			req.Header.Set(loginHeader, realLogin)
		case 2: // the page itself
			req.Header.Set(loginHeader, realLogin)
			req.Header.Set(csrfHeader, realCsrf)
		}
		w := httptest.NewRecorder()
		c.ServeHTTP(w, req)
		ok := w.Code < 300
		api := strings.HasPrefix(path, "/api/")
		switch {
		case path == "/api/login" && method == http.MethodPost:
			if ok {
				t.Fatalf("a second login with link %q: %d", link, w.Code)
			}
		case api && mode%3 == 0 && ok:
			t.Fatalf("%s %s without the login: %d %s", method, path, w.Code, w.Body)
		case api && mode%3 == 1 && method == http.MethodPost && ok:
			t.Fatalf("%s %s without the action token: %d %s", method, path, w.Code, w.Body)
		case api && method == http.MethodPost && w.Code == http.StatusNoContent:
			t.Fatalf("%s %s acted with no server running: %s", method, path, body)
		}
		if strings.Contains(w.Body.String(), realLogin) || (strings.Contains(w.Body.String(), realCsrf) && path != "/api/view") {
			t.Fatalf("%s %s shows the login: %s", method, path, w.Body)
		}
	})
}

// A console's answer to the server, any JSON: it is done (204) only when
// it names the open item with one of the three choices, and the waiting
// call then gets exactly that choice; anything else leaves the item open.
func FuzzServerAnswer(f *testing.F) {
	f.Add([]byte(`{"id":"ITEM","choice":"allow once"}`))
	f.Add([]byte(`{"id":"ITEM","choice":"deny"}`))
	f.Add([]byte(`{"id":"ITEM","choice":"Allow Once"}`))
	f.Add([]byte(`{"id":"ITEM","choice":"trust this project's rules"}`)) // not offered by this question
	f.Add([]byte(`{"id":"ITEM","choice":"allow once","id":"other"}`))
	f.Add([]byte(`{"id":"ITEM\u0000","choice":"deny"}`))
	f.Add([]byte(`{"id":["ITEM"],"choice":"deny"}`))
	f.Add([]byte(`{"ID":"ITEM","Choice":"allow for this session"}`))
	f.Add([]byte(`{"id":"ITEM","choice":"deny"} trailing`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, body []byte) {
		h := NewHub(nil, false)
		h.AddSession(SessionInfo{ID: "s1"})
		p := h.Ask(Question{Session: "s1", Command: "make deploy", Cwd: "/w"})
		s := &Server{hub: h, log: h.log}
		b := []byte(strings.ReplaceAll(string(body), "ITEM", p.ID()))
		w := httptest.NewRecorder()
		s.answer(w, httptest.NewRequest(http.MethodPost, "http://spillway/v1/answer", strings.NewReader(string(b))))

		var a answerRequest
		dec := json.NewDecoder(strings.NewReader(string(b)))
		valid := dec.Decode(&a) == nil && a.ID == p.ID() && slices.Contains(Choices, a.Choice)
		if w.Code == http.StatusNoContent {
			if !valid {
				t.Fatalf("%s was taken as an answer", b)
			}
			select {
			case got := <-p.Answered():
				if got.Choice != a.Choice {
					t.Fatalf("%s: the call got %q", b, got.Choice)
				}
			default:
				t.Fatalf("%s: 204 but the call got nothing", b)
			}
			return
		}
		if valid {
			t.Fatalf("%s was refused: %d %s", b, w.Code, w.Body)
		}
		if !p.Withdraw() {
			t.Fatalf("%s was refused (%d) but the item is gone", b, w.Code)
		}
	})
}
