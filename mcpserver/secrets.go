package mcpserver

import (
	"context"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spillway-dev/spillway"
)

// Secret prompts (docs/interactive.md): a bash job that waits for a
// password is answered by the person on a one-time page, never through
// the model. A client that declared URL-mode elicitation is sent
// elicitation/create with the page's address, and the call waits for the
// answer; any other client's model is told to ask the person to run
// spillway console, and is never given the address.
// spillway mcp serves the pages on a loopback listener the toolset
// starts when the first page is needed; spillway serve on its own
// listener, where a page's path is its only credential.

// asker reaches the person through URL-mode elicitation.
type asker struct {
	ss  *mcp.ServerSession
	log func(msg string, args ...any)
}

// AskURL sends elicitation/create with mode "url" and reports whether
// the person agreed to open the page.
func (a asker) AskURL(ctx context.Context, url, message, id string) (bool, error) {
	res, err := a.ss.Elicit(ctx, &mcp.ElicitParams{Mode: "url", Message: message, URL: url, ElicitationID: id})
	if err != nil {
		a.log("URL elicitation failed; the model is told to ask the person to run spillway console", "error", err)
		return false, err
	}
	return res.Action == "accept", nil
}

// URLDone tells the client that the page was answered.
func (a asker) URLDone(id string) {
	a.ss.NotifyElicitationComplete(context.Background(), &mcp.ElicitationCompleteParams{ElicitationID: id})
}

// takesURLElicitation reports whether the client of ss declared URL-mode
// elicitation.
func takesURLElicitation(ss *mcp.ServerSession) bool {
	if ss == nil {
		return false
	}
	p := ss.InitializeParams()
	return p != nil && p.Capabilities != nil && p.Capabilities.Elicitation != nil && p.Capabilities.Elicitation.URL != nil
}

// urlAsker sets the call's URLAsker when its client takes URL-mode
// elicitation.
func (s *toolServer) urlAsker(info *spillway.CallInfo, req *mcp.CallToolRequest) {
	if takesURLElicitation(req.Session) {
		info.URLAsker = asker{ss: req.Session, log: s.log.Warn}
	}
}

// servePage serves a secret page of one of the sessions. The bearer
// token does not apply: the person's browser has none, and the page's
// path is its credential. A request that names an MCP session is
// refused unless it is the page's own.
func (h *httpHandler) servePage(w http.ResponseWriter, r *http.Request) {
	id, pages := h.sessions.pageOwner(r.URL.Path)
	if pages == nil {
		http.Error(w, "Not found: this page does not exist, was already used, or has expired. The command's next result gives a new address.", http.StatusNotFound)
		return
	}
	if other := r.Header.Get("Mcp-Session-Id"); other != "" && other != id {
		h.log.Warn("secret page refused: a request of another session", "remote", r.RemoteAddr)
		http.Error(w, "Forbidden: this page belongs to another session.", http.StatusForbidden)
		return
	}
	pages.ServeHTTP(w, r)
}

// pageOwner finds the session whose toolset has the open page at path.
func (t *sessionTable) pageOwner(path string) (string, *spillway.SecretPages) {
	t.mu.Lock()
	entries := make([]*entry, 0, len(t.byID))
	for _, e := range t.byID {
		entries = append(entries, e)
	}
	t.mu.Unlock()
	for _, e := range entries {
		if ts := e.current(); ts != nil && ts.SecretPages().Owns(path) {
			return e.id, ts.SecretPages()
		}
	}
	return "", nil
}
