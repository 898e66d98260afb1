package secret

import (
	"bytes"
	"crypto/subtle"
	"errors"
	"html/template"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/spillway-dev/spillway/internal/visible"
)

// maxForm bounds a post's body: a password and two short fields.
const maxForm = 8 << 10

// ServeHTTP serves the pages: GET shows one, POST answers or cancels it.
// Any other path, a page that was used, cancelled or expired, and a page
// of other Pages are all the same 404: a guess learns nothing.
func (p *Pages) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Cache-Control", "no-store")
	// same-origin, not no-referrer: under no-referrer a browser sends
	// "Origin: null" with the page's own post, which cannot be told from
	// a sandboxed frame's. No other site learns the address either way.
	h.Set("Referrer-Policy", "same-origin")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	// Nothing loads from anywhere; the form posts only to this page.
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
	pg := p.lookup(r.URL.Path)
	if pg == nil || time.Now().After(pg.expires) {
		if pg != nil {
			pg.end(Expired)
		} else if why := p.goneWhy(r.URL.Path); why != "" {
			http.Error(w, "Closed, and nothing was sent: "+why+". Your answer would go to another program than the one this page named. Look at the agent's next result.", http.StatusGone)
			return
		}
		http.Error(w, "Not found: this page does not exist, was already used, or has expired. The command's next result gives a new address.", http.StatusNotFound)
		return
	}
	switch r.Method {
	case http.MethodGet, http.MethodHead:
		pg.show(w)
	case http.MethodPost:
		pg.post(w, r)
	default:
		h.Set("Allow", "GET, POST")
		http.Error(w, "Method Not Allowed", http.StatusMethodNotAllowed)
	}
}

// WhoHTML is the paragraph that says who asks for a secret and whether
// spillway verified it, in the words of both the page and the person's
// console: the template "secret-who" of a value with Verified, Says,
// Program, Warning and Why (a tool.SecretPrompt), which needs
// TemplateFuncs.
const WhoHTML = `{{define "secret-who"}}{{if .Verified}}<p class="note verified">Verified: {{capitalize .Says}}. {{.Program}} is the system's own program (owned by root, which no command of this session can have changed). Your answer goes to it or nowhere: if it stops reading before you submit, nothing is sent and this prompt closes.</p>
{{- else}}<p class="warning">Not verified: {{capitalize .Warning}}.{{with .Why}} {{capitalize .}}.{{end}}</p>
{{- end}}{{end}}`

// TemplateFuncs are the functions WhoHTML calls, and visible, which
// writes what a command or the agent wrote as the person should read it
// (internal/visible): every text of theirs on a page goes through it.
var TemplateFuncs = template.FuncMap{"capitalize": capitalize, "visible": visible.String}

// pageTmpl is parsed on first use, not at start: every CLI call would
// pay for it.
var pageTmpl = sync.OnceValue(func() *template.Template {
	t := template.Must(template.New("page").Funcs(TemplateFuncs).Parse(WhoHTML))
	return template.Must(t.Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>spillway: {{visible .Title}}</title>
<style>
body{font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;line-height:1.4}
pre{background:#f4f4f4;padding:.5rem;white-space:pre-wrap;word-break:break-all}
input[type=password]{width:100%;font-size:1.1rem;padding:.4rem;box-sizing:border-box}
button{font-size:1rem;padding:.4rem 1.2rem;margin:.8rem .6rem 0 0}
.note{color:#555;font-size:.9rem}
.warning{background:#fde8e8;border:2px solid #b00;padding:.6rem;font-weight:bold}
.printed{border:2px dashed #888;background:#fff}
</style></head><body>
<h1 id="asker">{{visible .Title}}</h1>
{{template "secret-who" .}}

<p>The whole command</p><pre id="command">{{visible .Command}}</pre>
<p>in</p><pre id="cwd">{{visible .Cwd}}</pre>
<p>Printed by the command (its own words, which spillway does not check: a command chooses them, as with <code>sudo -p</code>):</p><pre id="prompt" class="printed">{{visible .Prompt}}</pre>
<form method="post" autocomplete="off">
<input type="hidden" name="form" value="{{.Form}}">
<label for="secret">Your answer goes to the command's terminal, followed by Enter. The agent and its model never see it.</label>
<input type="password" id="secret" name="secret" autofocus autocomplete="off">
<button type="submit" name="action" value="answer" id="submit">Submit</button>
<button type="submit" name="action" value="cancel" id="cancel">Cancel</button>
</form>
<p class="note">This page takes one answer and closes at {{.Expires}}. Cancel interrupts the command (Ctrl-C).</p>
</body></html>
`))
})

// show renders the page. A GET does not use it up: a reload, or a
// client that looks at a link before showing it, leaves it open.
func (pg *Page) show(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	pageTmpl().Execute(w, map[string]any{
		"Title":    title(pg.req),
		"Program":  pg.req.Program,
		"Verified": pg.req.Verified,
		"Says":     pg.req.Says,
		"Warning":  UnverifiedWarning,
		"Why":      pg.req.Why,
		"Command":  pg.req.Command,
		"Cwd":      pg.req.Cwd,
		"Prompt":   pg.req.Prompt,
		"Form":     pg.form,
		"Expires":  pg.expires.Format("15:04:05 MST"),
	})
}

// title is the page's first line: who asks, and whether it is verified.
func title(r Request) string {
	program := r.Program
	if program == "" {
		program = "An unknown program"
	}
	if r.Verified {
		return program + " (verified) asks for a secret"
	}
	return "Unverified: " + program + " asks for a secret"
}

// capitalize upper-cases the first letter of s.
func capitalize(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}

// post takes the answer or the cancel. It refuses a post a browser says
// came from elsewhere (Origin, Sec-Fetch-Site), one without the page's
// form token (which only the page itself shows), and a second post.
func (pg *Page) post(w http.ResponseWriter, r *http.Request) {
	if !sameOrigin(r) {
		http.Error(w, "Forbidden: this form only takes posts from its own page.", http.StatusForbidden)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxForm))
	defer clear(body)
	if err != nil {
		http.Error(w, "Bad Request: the form could not be read.", http.StatusBadRequest)
		return
	}
	form, secret := ParseForm(body)
	defer clear(secret)
	if subtle.ConstantTimeCompare([]byte(form["form"]), []byte(pg.form)) != 1 {
		http.Error(w, "Forbidden: this form only takes posts from its own page.", http.StatusForbidden)
		return
	}
	err = pg.Respond(form["action"], secret)
	var notSent *NotSentError
	var maybe *MaybeSentError
	switch {
	case errors.Is(err, ErrGone):
		http.Error(w, "Not found: this page does not exist, was already used, or has expired.", http.StatusNotFound)
	case errors.Is(err, ErrControl):
		http.Error(w, "Bad Request: the answer holds a control character (a newline, a tab, Ctrl-C …), which the terminal would act on instead of passing it on; nothing was sent. Go back and type it again.", http.StatusBadRequest)
	case errors.Is(err, ErrAction):
		http.Error(w, "Bad Request: the form names no action.", http.StatusBadRequest)
	case errors.As(err, &maybe):
		done(w, "Your answer may have reached another program: change this secret now. ("+capitalize(maybe.Why)+".)")
	case errors.As(err, &notSent):
		http.Error(w, "Not sent: "+notSent.Why+". Nothing was written to the terminal.", http.StatusConflict)
	case err != nil:
		http.Error(w, "Gone: the command no longer reads its terminal; nothing was sent.", http.StatusGone)
	case form["action"] == "cancel":
		done(w, "Cancelled: the command was interrupted. You can close this page.")
	default:
		done(w, "Sent to the command's terminal. You can close this page.")
	}
}

// Errors of Respond, besides the NotSentError and MaybeSentError of the
// request's Answer.
var (
	ErrGone    = errors.New("this prompt is no longer open: it was answered, cancelled or expired")
	ErrControl = errors.New("the answer holds a control character (a newline, a tab, Ctrl-C …), which the terminal would act on: nothing was sent")
	ErrAction  = errors.New("the action is neither answer nor cancel")
)

// Respond answers the page with secret (action "answer") or cancels it
// ("cancel"), once: what its form's post does, for the page itself and
// for the person's console, with the same checks. A *MaybeSentError
// says the answer may have reached another program (the page is used);
// a *NotSentError or another error that nothing was written. The caller
// clears secret.
func (pg *Page) Respond(action string, secret []byte) error {
	pg.mu.Lock()
	defer pg.mu.Unlock()
	if pg.Outcome() != Pending {
		return ErrGone
	}
	switch action {
	case "cancel":
		pg.end(Cancelled)
		if pg.req.Cancel != nil {
			pg.req.Cancel()
		}
		return nil
	case "answer":
		if bytes.ContainsFunc(secret, isControl) {
			return ErrControl
		}
		err := pg.req.Answer(secret)
		var maybe *MaybeSentError
		switch {
		case errors.As(err, &maybe):
			pg.end(Answered)
			return err
		case err != nil:
			pg.end(Closed)
			return err
		}
		pg.end(Answered)
		return nil
	}
	return ErrAction
}

// done answers a post: a short page that never holds the secret.
func done(w http.ResponseWriter, msg string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	io.WriteString(w, `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>spillway</title></head><body><p id="done">`+
		template.HTMLEscapeString(msg)+`</p></body></html>`)
}

// sameOrigin reports whether a post may come from the page itself. A
// browser says where a post comes from: Sec-Fetch-Site, and Origin,
// which must name the host the request was sent to. A request that says
// neither is not from a browser's page, and still needs the form token.
func sameOrigin(r *http.Request) bool {
	if site := r.Header.Get("Sec-Fetch-Site"); site != "" && site != "same-origin" {
		return false
	}
	origin := r.Header.Get("Origin")
	if origin == "" {
		return true
	}
	u, err := url.Parse(origin)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && strings.EqualFold(u.Host, r.Host)
}

// ParseForm decodes an application/x-www-form-urlencoded body, for the
// pages here and the person's console alike. The field named secret is
// decoded into a byte slice of its own, which the caller clears (a
// string could not be), and never into fields; of several, the last
// counts and the others are cleared. Names are decoded as values are (a
// browser encodes both). A field whose name or value does not decode is
// left out; a malformed escape in the secret is kept as typed.
func ParseForm(body []byte) (fields map[string]string, secret []byte) {
	fields = map[string]string{}
	for part := range bytes.SplitSeq(body, []byte("&")) {
		k, v, _ := bytes.Cut(part, []byte("="))
		name, err := url.QueryUnescape(string(k))
		if err != nil {
			continue
		}
		if name == "secret" {
			clear(secret)
			secret = unescape(v)
			continue
		}
		if s, err := url.QueryUnescape(string(v)); err == nil {
			fields[name] = s
		}
	}
	return fields, secret
}

// unescape decodes a form value: '+' is a space, %XX a byte.
func unescape(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case c == '+':
			out = append(out, ' ')
		case c == '%' && i+2 < len(b) && isHex(b[i+1]) && isHex(b[i+2]):
			out = append(out, unhex(b[i+1])<<4|unhex(b[i+2]))
			i += 2
		default:
			out = append(out, c)
		}
	}
	return out
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c >= 'a':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

// isControl reports a character a terminal's line discipline acts on.
func isControl(r rune) bool { return r < 0x20 || r == 0x7f }
