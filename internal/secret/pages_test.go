package secret

import (
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spillway-dev/spillway/tool"
)

// A terminal that records what a page wrote to it.
type terminal struct {
	mu        sync.Mutex
	got       [][]byte
	cancelled int
}

func (t *terminal) request() Request {
	return Request{
		SecretPrompt: tool.SecretPrompt{Command: "sudo apt-get update", Cwd: "/srv/app", SecretDetails: tool.SecretDetails{Prompt: "[sudo] password for ci:"}},
		Answer: func(b []byte) error {
			t.mu.Lock()
			defer t.mu.Unlock()
			t.got = append(t.got, append([]byte(nil), b...))
			return nil
		},
		Cancel: func() { t.mu.Lock(); t.cancelled++; t.mu.Unlock() },
	}
}

func (t *terminal) answers() [][]byte {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.got
}

func open(t *testing.T, lifetime time.Duration) (*Pages, *Page, *terminal) {
	t.Helper()
	p := New(lifetime, nil)
	t.Cleanup(func() { p.Close() })
	term := &terminal{}
	pg, err := p.Open(term.request())
	if err != nil {
		t.Fatal(err)
	}
	return p, pg, term
}

// get fetches the page as a browser would and returns its body and form
// token.
func get(t *testing.T, u string) (int, string, string) {
	t.Helper()
	res, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	m := regexp.MustCompile(`name="form" value="([^"]+)"`).FindStringSubmatch(string(b))
	form := ""
	if m != nil {
		form = m[1]
	}
	return res.StatusCode, string(b), form
}

// post posts the form as the page's own browser tab would, with headers
// changed by set.
func post(t *testing.T, u string, form url.Values, set func(h http.Header)) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", u, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	pu, _ := url.Parse(u)
	req.Header.Set("Origin", pu.Scheme+"://"+pu.Host)
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	if set != nil {
		set(req.Header)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

const testSecret = `c0rrect horse&battery=staple%+ü`

func TestPageShowsTheQuestionAndTakesOneAnswer(t *testing.T) {
	_, pg, term := open(t, 0)
	if !strings.HasPrefix(pg.URL(), "http://127.0.0.1:") {
		t.Fatalf("page at %s, want loopback", pg.URL())
	}
	code, body, form := get(t, pg.URL())
	if code != 200 || form == "" {
		t.Fatalf("GET: %d %q", code, body)
	}
	for _, want := range []string{"sudo apt-get update", "/srv/app", "[sudo] password for ci:", `type="password"`, "Submit", "Cancel"} {
		if !strings.Contains(body, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Contains(body, "<script") || strings.Contains(body, "src=") || strings.Contains(body, "href=") {
		t.Errorf("page loads something: %s", body)
	}
	code, body = post(t, pg.URL(), url.Values{"form": {form}, "action": {"answer"}, "secret": {testSecret}}, nil)
	if code != 200 || strings.Contains(body, testSecret) || strings.Contains(body, url.QueryEscape(testSecret)) {
		t.Fatalf("POST: %d %q", code, body)
	}
	if got := term.answers(); len(got) != 1 || string(got[0]) != testSecret {
		t.Fatalf("the terminal got %q, want %q", got, testSecret)
	}
	if pg.Outcome() != Answered {
		t.Errorf("outcome %v", pg.Outcome())
	}
}

// An attacker who saw a used page's address cannot answer again, nor
// even see the page.
func TestUsedPageIsRefused(t *testing.T) {
	_, pg, term := open(t, 0)
	_, _, form := get(t, pg.URL())
	post(t, pg.URL(), url.Values{"form": {form}, "action": {"answer"}, "secret": {"first"}}, nil)
	if code, _ := post(t, pg.URL(), url.Values{"form": {form}, "action": {"answer"}, "secret": {"second"}}, nil); code != 404 {
		t.Errorf("second POST: %d, want 404", code)
	}
	if code, _, _ := get(t, pg.URL()); code != 404 {
		t.Errorf("GET after the answer: %d, want 404", code)
	}
	if got := term.answers(); len(got) != 1 || string(got[0]) != "first" {
		t.Errorf("the terminal got %q", got)
	}
}

// A guessed path, a neighbour of the real one, or the prefix alone,
// finds nothing.
func TestGuessedPathIsRefused(t *testing.T) {
	_, pg, term := open(t, 0)
	base := strings.TrimSuffix(pg.URL(), pg.token)
	last := pg.token[len(pg.token)-1]
	flip := map[bool]string{true: "A", false: "B"}[last != 'A']
	for _, u := range []string{base, base + "x", base + pg.token[:len(pg.token)-1] + flip, base + pg.id, base + pg.form, base + pg.token + "/", strings.TrimSuffix(base, "/secret/") + "/"} {
		if code, _, _ := get(t, u); code != 404 {
			t.Errorf("GET %s: %d, want 404", u, code)
		}
		if code, _ := post(t, u, url.Values{"form": {pg.form}, "action": {"answer"}, "secret": {"x"}}, nil); code != 404 {
			t.Errorf("POST %s: %d, want 404", u, code)
		}
	}
	if len(term.answers()) != 0 || pg.Outcome() != Pending {
		t.Errorf("a guess reached the terminal: %q", term.answers())
	}
}

// A page of another site that posts to the page's address (it may have
// learned it) is refused, whatever it leaves out.
func TestCrossOriginPostIsRefused(t *testing.T) {
	_, pg, term := open(t, 0)
	_, _, form := get(t, pg.URL())
	for name, c := range map[string]struct {
		form string
		set  func(http.Header)
	}{
		"other origin":         {form, func(h http.Header) { h.Set("Origin", "http://evil.example"); h.Del("Sec-Fetch-Site") }},
		"other port":           {form, func(h http.Header) { h.Set("Origin", "http://127.0.0.1:1"); h.Del("Sec-Fetch-Site") }},
		"null origin":          {form, func(h http.Header) { h.Set("Origin", "null") }}, // a sandboxed frame
		"cross-site fetch":     {form, func(h http.Header) { h.Del("Origin"); h.Set("Sec-Fetch-Site", "cross-site") }},
		"same-site fetch":      {form, func(h http.Header) { h.Del("Origin"); h.Set("Sec-Fetch-Site", "same-site") }},
		"no form token":        {"", nil},
		"another form token":   {randomText(), nil},
		"the path as the form": {pg.token, nil},
	} {
		code, _ := post(t, pg.URL(), url.Values{"form": {c.form}, "action": {"answer"}, "secret": {"evil"}}, c.set)
		if code != 403 {
			t.Errorf("%s: %d, want 403", name, code)
		}
	}
	if len(term.answers()) != 0 || pg.Outcome() != Pending {
		t.Fatalf("a cross-origin post reached the terminal: %q", term.answers())
	}
	// The page is still there for its person.
	if code, _ := post(t, pg.URL(), url.Values{"form": {form}, "action": {"answer"}, "secret": {"mine"}}, nil); code != 200 {
		t.Errorf("the real answer after the attempts: %d", code)
	}
}

// A page left open past its lifetime is gone, and nothing reaches the
// terminal.
func TestExpiredPageIsRefused(t *testing.T) {
	_, pg, term := open(t, 300*time.Millisecond)
	_, _, form := get(t, pg.URL())
	<-pg.Done()
	if pg.Outcome() != Expired {
		t.Fatalf("outcome %v, want expired", pg.Outcome())
	}
	if code, _ := post(t, pg.URL(), url.Values{"form": {form}, "action": {"answer"}, "secret": {"late"}}, nil); code != 404 {
		t.Errorf("POST after the lifetime: %d, want 404", code)
	}
	if code, _, _ := get(t, pg.URL()); code != 404 {
		t.Errorf("GET after the lifetime: %d, want 404", code)
	}
	if len(term.answers()) != 0 {
		t.Errorf("the terminal got %q", term.answers())
	}
}

func TestCancel(t *testing.T) {
	_, pg, term := open(t, 0)
	_, _, form := get(t, pg.URL())
	if code, _ := post(t, pg.URL(), url.Values{"form": {form}, "action": {"cancel"}, "secret": {"typed then cancelled"}}, nil); code != 200 {
		t.Fatalf("cancel: %d", code)
	}
	if pg.Outcome() != Cancelled || term.cancelled != 1 || len(term.answers()) != 0 {
		t.Errorf("outcome %v, cancels %d, answers %q", pg.Outcome(), term.cancelled, term.answers())
	}
}

func TestServeAtNamesTheCallersServer(t *testing.T) {
	p := New(0, nil)
	defer p.Close()
	p.ServeAt("https://box.example:7777/")
	pg, err := p.Open((&terminal{}).request())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(pg.URL(), "https://box.example:7777/secret/") || p.srv != nil {
		t.Errorf("URL %s, own listener %v", pg.URL(), p.srv != nil)
	}
	if !p.Owns(strings.TrimPrefix(pg.URL(), "https://box.example:7777")) || p.Owns("/secret/x") {
		t.Error("Owns")
	}
	p.Close()
	if pg.Outcome() != Closed {
		t.Errorf("Close left the page %v", pg.Outcome())
	}
}

// A control character would be acted on by the terminal (Ctrl-C
// interrupts, a newline ends the line early): the answer is refused and
// the page stays open.
func TestControlCharacterIsRefused(t *testing.T) {
	_, pg, term := open(t, 0)
	_, _, form := get(t, pg.URL())
	for _, bad := range []string{"pass\nword", "pass\x03", "tab\there", "del\x7f"} {
		if code, _ := post(t, pg.URL(), url.Values{"form": {form}, "action": {"answer"}, "secret": {bad}}, nil); code != 400 {
			t.Errorf("%q: %d, want 400", bad, code)
		}
	}
	if len(term.answers()) != 0 || pg.Outcome() != Pending {
		t.Fatalf("the terminal got %q", term.answers())
	}
}

// The command, its directory and the prompt it printed reach the page
// with every character that would not show as itself written as its
// code: a prompt that overwrites itself with a carriage return, or turns
// around with a bidirectional override, shows what it really says.
func TestPageShowsHiddenCharacters(t *testing.T) {
	p := New(0, nil)
	t.Cleanup(func() { p.Close() })
	term := &terminal{}
	req := term.request()
	req.Command, req.Cwd = "./deploy\u202e", "/srv\u200b"
	req.Prompt = "Password for the deploy key:\r[sudo] password for ci:"
	pg, err := p.Open(req)
	if err != nil {
		t.Fatal(err)
	}
	_, body, _ := get(t, pg.URL())
	for _, r := range "\u202e\u200b\r" {
		if strings.ContainsRune(body, r) {
			t.Errorf("the page holds %U as it is:\n%s", r, body)
		}
	}
	for _, want := range []string{"./deploy&lt;U&#43;202E&gt;", "/srv&lt;U&#43;200B&gt;", "key:&lt;U&#43;000D&gt;[sudo]"} {
		if !strings.Contains(body, want) {
			t.Errorf("the page does not show %q:\n%s", want, body)
		}
	}
}
