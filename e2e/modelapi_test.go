package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
)

// A call is one tool call the stand-in model makes: the tool's name as
// spillway serves it and its arguments.
type call struct {
	Tool string
	Args map[string]any
}

// A seen is what a client handed back to the model for one call: the text
// blocks in order and how many image blocks came with them.
type seen struct {
	Texts  []string
	Images int
}

// Text is every text block of the result joined, as the model reads it.
func (s seen) Text() string { return strings.Join(s.Texts, "\n") }

// modelAPI stands in for a provider's model API on 127.0.0.1. It answers
// the first request of a conversation with script[0], each later request
// with the next call once the previous call's result is in the
// conversation, and ends the turn with a text reply after the last one.
// It records what the client sent back for each call: that is exactly
// what a real model would have read.
//
// It speaks three wire formats, each streamed as server-sent events the
// way the real APIs stream them: Anthropic's Messages API (Claude Code,
// and opencode through its Anthropic provider), OpenAI's Responses API
// (Codex) and the Gemini API's generateContent (Gemini CLI).
type modelAPI struct {
	t      testing.TB
	script []call
	// toolName maps spillway's tool name to the name the client gave the
	// model; namespace, when not empty, is the Responses API namespace
	// the client grouped the tools under.
	toolName  func(string) string
	namespace string

	mu      sync.Mutex
	results []seen
	offered []string // tool names offered in the first request
}

func (m *modelAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	switch {
	case strings.HasPrefix(r.URL.Path, "/v1/messages/count_tokens"):
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"input_tokens":100}`)
	case strings.HasPrefix(r.URL.Path, "/v1/messages"):
		m.messages(w, body)
	case strings.HasPrefix(r.URL.Path, "/v1/responses"):
		m.responses(w, body)
	case strings.Contains(r.URL.Path, ":streamGenerateContent"), strings.Contains(r.URL.Path, ":generateContent"):
		m.generateContent(w, r, body)
	case strings.Contains(r.URL.Path, ":countTokens"):
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"totalTokens":100}`)
	case r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/v1/models"):
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"data":[],"models":[]}`)
	default:
		http.NotFound(w, r)
	}
}

// Results returns what the client sent back for each call made so far.
func (m *modelAPI) Results() []seen {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]seen(nil), m.results...)
}

// next records the results of a conversation that holds n of them and
// returns the call to make next, or false when the script is done.
func (m *modelAPI) next(results []seen) (call, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(results) > len(m.results) {
		m.results = results
	}
	if len(results) >= len(m.script) {
		return call{}, false
	}
	return m.script[len(results)], true
}

// messages answers Anthropic's POST /v1/messages.
func (m *modelAPI) messages(w http.ResponseWriter, body []byte) {
	var req struct {
		Model    string `json:"model"`
		Stream   bool   `json:"stream"`
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var results []seen
	for _, msg := range req.Messages {
		var blocks []struct {
			Type    string          `json:"type"`
			Content json.RawMessage `json:"content"`
		}
		if json.Unmarshal(msg.Content, &blocks) != nil {
			continue // a plain string
		}
		for _, b := range blocks {
			if b.Type == "tool_result" {
				results = append(results, seenOf(b.Content, []string{"text"}, []string{"image"}))
			}
		}
	}
	m.mu.Lock()
	if m.offered == nil {
		for _, t := range req.Tools {
			m.offered = append(m.offered, t.Name)
		}
	}
	m.mu.Unlock()
	next, ok := m.next(results)

	var block map[string]any
	var delta map[string]any
	stop := "end_turn"
	if ok {
		args, _ := json.Marshal(next.Args)
		id := fmt.Sprintf("toolu_%02d", len(results)+1)
		block = map[string]any{"type": "tool_use", "id": id, "name": m.toolName(next.Tool), "input": map[string]any{}}
		delta = map[string]any{"type": "input_json_delta", "partial_json": string(args)}
		stop = "tool_use"
	} else {
		block = map[string]any{"type": "text", "text": ""}
		delta = map[string]any{"type": "text_delta", "text": "done"}
	}
	if !req.Stream {
		// Side requests (titles, summaries) ask without streaming; a
		// plain answer keeps them out of the way.
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{
			"id": "msg_side", "type": "message", "role": "assistant", "model": req.Model,
			"content":     []any{map[string]any{"type": "text", "text": "done"}},
			"stop_reason": "end_turn", "usage": map[string]any{"input_tokens": 1, "output_tokens": 1},
		})
		return
	}
	sse := newSSE(w)
	sse.event("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": "msg_stub", "type": "message", "role": "assistant", "model": req.Model, "content": []any{},
		"stop_reason": nil, "stop_sequence": nil, "usage": map[string]any{"input_tokens": 10, "output_tokens": 1},
	}})
	sse.event("content_block_start", map[string]any{"type": "content_block_start", "index": 0, "content_block": block})
	sse.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0, "delta": delta})
	sse.event("content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
	sse.event("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 5}})
	sse.event("message_stop", map[string]any{"type": "message_stop"})
}

// seenOf reads what a client handed back for a call: a string, or an
// array of blocks whose type names a text block (textTypes) or an image
// (imageTypes). Anthropic's tool_result content and OpenAI's
// function_call_output differ only in those names.
func seenOf(raw json.RawMessage, textTypes, imageTypes []string) seen {
	var s seen
	var text string
	if json.Unmarshal(raw, &text) == nil {
		s.Texts = append(s.Texts, text)
		return s
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	json.Unmarshal(raw, &blocks)
	for _, b := range blocks {
		switch {
		case slices.Contains(textTypes, b.Type):
			s.Texts = append(s.Texts, b.Text)
		case slices.Contains(imageTypes, b.Type):
			s.Images++
		}
	}
	return s
}

// responses answers OpenAI's POST /v1/responses.
func (m *modelAPI) responses(w http.ResponseWriter, body []byte) {
	var req struct {
		Input []struct {
			Type   string          `json:"type"`
			Output json.RawMessage `json:"output"`
		} `json:"input"`
		Tools []struct {
			Type  string `json:"type"`
			Name  string `json:"name"`
			Tools []struct {
				Name string `json:"name"`
			} `json:"tools"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var results []seen
	for _, in := range req.Input {
		if in.Type == "function_call_output" {
			results = append(results, seenOf(in.Output, []string{"input_text", "output_text", "text"}, []string{"input_image", "image"}))
		}
	}
	m.mu.Lock()
	if m.offered == nil {
		for _, t := range req.Tools {
			m.offered = append(m.offered, t.Name)
			for _, sub := range t.Tools {
				m.offered = append(m.offered, t.Name+"/"+sub.Name)
			}
		}
	}
	m.mu.Unlock()
	next, ok := m.next(results)

	var item map[string]any
	if ok {
		args, _ := json.Marshal(next.Args)
		item = map[string]any{"type": "function_call", "id": fmt.Sprintf("fc_%02d", len(results)+1),
			"call_id": fmt.Sprintf("call_%02d", len(results)+1), "name": m.toolName(next.Tool), "arguments": string(args)}
		if m.namespace != "" {
			item["namespace"] = m.namespace
		}
	} else {
		item = map[string]any{"type": "message", "role": "assistant", "id": "msg_done",
			"content": []any{map[string]any{"type": "output_text", "text": "done", "annotations": []any{}}}}
	}
	sse := newSSE(w)
	sse.event("response.created", map[string]any{"type": "response.created", "response": map[string]any{"id": "resp_stub"}})
	sse.event("response.output_item.added", map[string]any{"type": "response.output_item.added", "output_index": 0, "item": item})
	sse.event("response.output_item.done", map[string]any{"type": "response.output_item.done", "output_index": 0, "item": item})
	sse.event("response.completed", map[string]any{"type": "response.completed", "response": map[string]any{
		"id": "resp_stub", "usage": map[string]any{"input_tokens": 10, "output_tokens": 5, "total_tokens": 15}}})
}

// sse writes server-sent events and flushes each one.
type sse struct {
	w http.ResponseWriter
	f http.Flusher
}

func newSSE(w http.ResponseWriter) sse {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	f, _ := w.(http.Flusher)
	return sse{w, f}
}

func (s sse) event(name string, data any) {
	b, _ := json.Marshal(data)
	fmt.Fprintf(s.w, "event: %s\ndata: %s\n\n", name, b)
	if s.f != nil {
		s.f.Flush()
	}
}

// serveModelAPI serves api on a port of 127.0.0.1 of its own; it returns
// the address, and stop, which closes the server.
func serveModelAPI(t *testing.T, api *modelAPI) (addr string, stop func()) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: api}
	go srv.Serve(ln)
	return ln.Addr().String(), func() { srv.Close() }
}
