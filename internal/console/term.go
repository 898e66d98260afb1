package console

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
)

// Take-over: the person holds a terminal job from the page. The server
// streams the job's raw output (server-sent events, base64) for as long
// as the page holds it, the page's terminal (xterm.js) draws it, and
// what the person types is posted back. Closing the stream hands the job
// back.

// termBuffer bounds what waits to be sent to a slow page: past it, the
// oldest output is dropped and the page is told to redraw.
const termBuffer = 1 << 20

func (s *Server) term(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	src := s.hub.source(r.URL.Query().Get("session"), r.Header.Get(credentialHeader))
	pid, _ := strconv.Atoi(r.URL.Query().Get("pid"))
	if src == nil || pid <= 0 {
		http.Error(w, ErrGone.Error(), http.StatusGone)
		return
	}
	var mu sync.Mutex
	var pending []byte
	wake := make(chan struct{}, 1)
	tap := func(b []byte) {
		mu.Lock()
		if len(pending)+len(b) > termBuffer {
			pending = pending[:0]
		}
		pending = append(pending, b...)
		mu.Unlock()
		select {
		case wake <- struct{}{}:
		default:
		}
	}
	screen, err := src.Hold(pid, tap)
	if err != nil {
		http.Error(w, "cannot take it over: "+err.Error(), http.StatusConflict)
		return
	}
	defer src.Release(pid)
	s.log.Info("console: a job was taken over", "pid", pid)
	s.hub.Notify()
	defer s.hub.Notify()
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	// The screen as it is, drawn from the top, then the output as it
	// comes.
	first := "\x1b[H\x1b[2J" + strings.Join(screen, "\r\n")
	send := func(b []byte) error {
		_, err := fmt.Fprintf(w, "event: output\ndata: %s\n\n", base64.StdEncoding.EncodeToString(b))
		fl.Flush()
		return err
	}
	if err := send([]byte(first)); err != nil {
		return
	}
	for {
		select {
		case <-r.Context().Done():
			return
		case <-wake:
		}
		mu.Lock()
		b := pending
		pending = nil
		mu.Unlock()
		if len(b) > 0 {
			if err := send(b); err != nil {
				return
			}
		}
	}
}

// A termInput is what the person typed.
type termInput struct {
	Session string `json:"session"`
	PID     int    `json:"pid"`
	Data    []byte `json:"data"`
}

func (s *Server) termInput(w http.ResponseWriter, r *http.Request) {
	var in termInput
	defer func() { clear(in.Data) }()
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 64<<10)).Decode(&in); err != nil {
		http.Error(w, "the input is not JSON {session, pid, data}", http.StatusBadRequest)
		return
	}
	src := s.hub.source(in.Session, r.Header.Get(credentialHeader))
	if src == nil {
		http.Error(w, ErrGone.Error(), http.StatusGone)
		return
	}
	if err := src.Input(in.PID, in.Data); err != nil {
		http.Error(w, err.Error(), http.StatusConflict)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
