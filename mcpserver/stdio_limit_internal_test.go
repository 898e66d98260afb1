package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"sync"
	"testing"
)

// lockedWriter collects what the connection writes.
type lockedWriter struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (w *lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

// A message over the limit is answered with an error that names the
// limit, to its id wherever the client wrote it: before the parameters
// (Go's and Python's SDKs), after them (TypeScript's), a string id; with
// "id": null when it has none, or none that can be found; and at the end
// of stdin without a newline too. Reading goes on after each.
func TestOverLongMessageIsAnswered(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("x", maxLineBytes+1000)
	cases := []struct {
		line, id string
	}{
		{`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"bash","arguments":{"command":"` + big + `"}}}`, `7`},
		{`{"method":"tools/call","params":{"name":"bash","arguments":{"command":"` + big + `","id":5}},"jsonrpc":"2.0","id":8}`, `8`},
		{`{"jsonrpc":"2.0","id":"abc\"d","method":"tools/call","params":{"s":"` + big + `"}}`, `"abc\"d"`},
		{`{"jsonrpc":"2.0","method":"notifications/x","params":{"s":"` + big + `","id":9}}`, `null`},
		{big, `null`},
	}
	for _, tc := range cases {
		for _, eol := range []string{"\n" + `{"jsonrpc":"2.0","id":2,"method":"ping"}` + "\n", ""} {
			w := &lockedWriter{}
			tr := &lineTransport{r: strings.NewReader(tc.line + eol), w: w, log: Config{}.logger()}
			conn, _ := tr.Connect(context.Background())
			msg, err := conn.Read(ctxFor(t))
			if eol != "" {
				if err != nil {
					t.Fatal(err)
				}
				if req, ok := msg.(interface{ IsCall() bool }); !ok || !req.IsCall() {
					t.Errorf("after an over-long line, read %v", msg)
				}
				msg, err = conn.Read(ctxFor(t))
			}
			if err != io.EOF {
				t.Errorf("at the end: %v %v, want EOF", msg, err)
			}
			var answer struct {
				ID    json.RawMessage `json:"id"`
				Error struct {
					Code    int    `json:"code"`
					Message string `json:"message"`
				} `json:"error"`
			}
			if err := json.Unmarshal(w.b.Bytes(), &answer); err != nil {
				t.Fatalf("the answer %q: %v", w.b.Bytes(), err)
			}
			if string(answer.ID) != tc.id || answer.Error.Code != -32600 || !strings.Contains(answer.Error.Message, "over the limit of 16777216 bytes (16 MiB)") {
				t.Errorf("%.60q…: answered %q, want the limit to id %s", tc.line, w.b.Bytes(), tc.id)
			}
		}
	}
}
