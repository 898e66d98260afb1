package mcpserver

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/spillway-dev/spillway/internal/ops"
)

// The endpoints of serve for its operator, beside Path (docs/operations.md).
const (
	healthPath  = "/healthz" // the process answers: 200 while it serves
	readyPath   = "/readyz"  // it takes new sessions: 200, else 503
	metricsPath = "/metrics" // Prometheus text, behind the token
	drainPath   = "/drain"   // POST, with the token: start a drain
)

// DefaultDrainTimeout is how long a drain lets the work in flight finish
// by default: a bash call under MCP returns within a minute.
const DefaultDrainTimeout = 60 * time.Second

// drainRetryAfter is the Retry-After, in seconds, of a new session refused
// by a draining server: by then a proxy checking readiness every second
// has stopped sending it new sessions.
const drainRetryAfter = 2

// drainPoll is how often a drain looks whether the work in flight is done.
const drainPoll = 50 * time.Millisecond

// probe answers /healthz and /readyz with the state alone, as one word.
func (h *httpHandler) probe(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	state, code := "ok", http.StatusOK
	if r.URL.Path == readyPath {
		state = h.readiness()
		if state != "ready" {
			code = http.StatusServiceUnavailable
		}
	}
	http.Error(w, state, code)
}

// readiness is "ready", "draining", or "full" at the session cap.
func (h *httpHandler) readiness() string {
	switch {
	case h.draining.Load():
		return "draining"
	case h.admitted.count() >= h.cfg.maxSessions():
		return "full"
	}
	return "ready"
}

// drain answers /drain: it starts a drain and says so.
func (h *httpHandler) drain(w http.ResponseWriter, r *http.Request) {
	h.startDrain()
	w.WriteHeader(http.StatusAccepted)
	fmt.Fprintln(w, "draining")
}

// startDrain turns the server unready and wakes Serve, once.
func (h *httpHandler) startDrain() {
	h.drainOnce.Do(func() {
		h.draining.Store(true)
		h.log.Info("draining: no new sessions; waiting for the calls in flight and the jobs", "timeout", h.cfg.drainTimeout())
		close(h.drainStarted)
	})
}

// waitDrained returns once no call is in flight and no job runs, when the
// drain timeout has passed, or when ctx ends (a second signal).
func (h *httpHandler) waitDrained(ctx context.Context) {
	deadline := time.NewTimer(h.cfg.drainTimeout())
	defer deadline.Stop()
	tick := time.NewTicker(drainPoll)
	defer tick.Stop()
	for {
		s := h.state()
		if s.CallsInFlight == 0 && s.JobsRunning+s.JobsWaiting == 0 {
			h.log.Info("drained: no call in flight, no job running")
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-deadline.C:
			h.log.Warn("drain timeout: ending what still runs", "calls", s.CallsInFlight, "jobs", s.JobsRunning+s.JobsWaiting)
			return
		case <-tick.C:
		}
	}
}

// state is what the server holds now, for the metrics and the drain.
func (h *httpHandler) state() ops.State {
	s := ops.State{
		CallsInFlight: int(h.tools.inFlight.Load()),
		Draining:      h.draining.Load(),
		SandboxLayers: map[string]int{},
	}
	for _, e := range h.sessions.all() {
		s.Sessions++
		ts := e.current()
		if ts == nil {
			continue
		}
		jobs, _ := ts.Jobs(context.Background())
		for _, j := range jobs.Details.Jobs {
			switch j.State {
			case "running":
				s.JobsRunning++
			case "waiting for input":
				s.JobsWaiting++
			}
		}
		s.SpillBytes += ts.SpillBytes()
		for _, l := range ops.Layers(ts.SandboxLayers()) {
			s.SandboxLayers[l]++
		}
	}
	return s
}

// observe counts a call in the metrics and writes its audit line.
func (h *httpHandler) observe(c ops.Call) {
	h.metrics.Call(c)
	if h.audit != nil {
		if err := h.audit.Write(c); err != nil {
			h.log.Warn("audit log: a line was not written", "error", err)
		}
	}
}
