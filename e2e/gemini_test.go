package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// generateContent answers the Gemini API's
// POST /v1beta/models/MODEL:streamGenerateContent (Gemini CLI): the
// conversation is contents[] of parts, a tool call a functionCall part and
// its result a functionResponse part.
func (m *modelAPI) generateContent(w http.ResponseWriter, r *http.Request, body []byte) {
	var req struct {
		Contents []struct {
			Role  string `json:"role"`
			Parts []struct {
				FunctionResponse *struct {
					Name     string          `json:"name"`
					Response json.RawMessage `json:"response"`
					Parts    []struct {
						InlineData *struct {
							MimeType string `json:"mimeType"`
						} `json:"inlineData"`
					} `json:"parts"`
				} `json:"functionResponse"`
				InlineData *struct {
					MimeType string `json:"mimeType"`
				} `json:"inlineData"`
			} `json:"parts"`
		} `json:"contents"`
		Tools []struct {
			FunctionDeclarations []struct {
				Name string `json:"name"`
			} `json:"functionDeclarations"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var results []seen
	for _, c := range req.Contents {
		for _, p := range c.Parts {
			switch {
			case p.FunctionResponse != nil:
				s := geminiSeen(p.FunctionResponse.Response)
				for _, sub := range p.FunctionResponse.Parts {
					if sub.InlineData != nil && strings.HasPrefix(sub.InlineData.MimeType, "image/") {
						s.Images++
					}
				}
				results = append(results, s)
			case p.InlineData != nil && strings.HasPrefix(p.InlineData.MimeType, "image/") && len(results) > 0:
				// An image of the last result, sent as a part of its own.
				results[len(results)-1].Images++
			}
		}
	}
	m.mu.Lock()
	if m.offered == nil {
		for _, t := range req.Tools {
			for _, f := range t.FunctionDeclarations {
				m.offered = append(m.offered, f.Name)
			}
		}
	}
	m.mu.Unlock()
	// Side requests (a check of the next speaker, a summary) send no
	// tools: a plain answer keeps them out of the way.
	var part map[string]any
	if next, ok := m.next(results); ok && len(req.Tools) > 0 {
		part = map[string]any{"functionCall": map[string]any{"name": m.toolName(next.Tool), "args": next.Args}}
	} else {
		part = map[string]any{"text": "done"}
	}
	chunk := map[string]any{
		"candidates": []any{map[string]any{
			"content":      map[string]any{"role": "model", "parts": []any{part}},
			"finishReason": "STOP", "index": 0,
		}},
		"usageMetadata": map[string]any{"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
		"modelVersion":  "gemini-2.5-pro",
	}
	if !strings.Contains(r.URL.Path, ":streamGenerateContent") {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(chunk)
		return
	}
	b, _ := json.Marshal(chunk)
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	fmt.Fprintf(w, "data: %s\r\n\r\n", b)
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}

// geminiSeen reads a functionResponse's response object: Gemini CLI puts
// an MCP result's text under "output", and an isError result, as JSON in
// a sentence, under "error".
func geminiSeen(raw json.RawMessage) seen {
	var s seen
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil {
		return s
	}
	for _, key := range []string{"output", "error", "content", "result"} {
		v, ok := obj[key]
		if !ok {
			continue
		}
		got := seenOf(v, []string{"text"}, []string{"image"})
		s.Texts = append(s.Texts, got.Texts...)
		s.Images += got.Images
	}
	return s
}
