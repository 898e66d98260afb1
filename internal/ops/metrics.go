package ops

import (
	"bytes"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/spillway-dev/spillway/tool"
)

// State is what the server holds at one instant, read at each scrape.
type State struct {
	Sessions      int
	CallsInFlight int
	JobsRunning   int
	JobsWaiting   int // waiting for input
	SpillBytes    int64
	// SandboxLayers counts the sessions confined by each sandbox layer
	// ("landlock", "scopes", "namespaces", …).
	SandboxLayers map[string]int
	Draining      bool
}

// Metrics are the server's Prometheus metrics, with the Go runtime's and
// the process's. They are written in the text format by hand: Prometheus'
// client library would cost every CLI call its package inits.
type Metrics struct {
	state func() State
	build []string // the values of spillway_build_info's labels

	sessionsCreated atomic.Uint64
	sessionsExpired atomic.Uint64

	mu           sync.Mutex // guards what Call counts
	calls        map[callKey]uint64
	durations    map[string]*histogram // by tool
	bytesShown   uint64
	bytesSpilled uint64
}

type callKey struct{ tool, outcome string }

// NewMetrics returns the metrics of a server of the given version; state
// is called once per scrape for the gauges.
func NewMetrics(version, node string, state func() State) *Metrics {
	return &Metrics{
		state:     state,
		build:     []string{version, runtime.Version(), node},
		calls:     map[callKey]uint64{},
		durations: map[string]*histogram{},
	}
}

// Handler serves the metrics in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var b bytes.Buffer
		writeText(&b, m.families())
		w.Header().Set("Content-Type", contentType)
		w.Write(b.Bytes())
	})
}

// SessionCreated counts a new session.
func (m *Metrics) SessionCreated() { m.sessionsCreated.Add(1) }

// SessionExpired counts a session ended by the idle timeout.
func (m *Metrics) SessionExpired() { m.sessionsExpired.Add(1) }

// Call counts one answered call.
func (m *Metrics) Call(c Call) {
	outcome := "ok"
	if c.IsError {
		outcome = "error"
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.calls[callKey{c.Tool, outcome}]++
	h := m.durations[c.Tool]
	if h == nil {
		h = new(histogram)
		m.durations[c.Tool] = h
	}
	h.observe(c.Duration.Seconds())
	// A counter never goes down: a negative size counts as nothing.
	m.bytesShown += uint64(max(c.BytesShown, 0))
	m.bytesSpilled += uint64(max(c.BytesSpilled, 0))
}

// A Call is what the metrics and the audit log learn of one tool call.
type Call struct {
	Start    time.Time
	Session  string // the session's id: hashed before it is written
	Tool     string
	Command  string // bash: the command
	Path     string // read, ls, grep, find: the path
	Pattern  string // grep, find
	PID      int    // the job a check, write or kill reached
	Cwd      string
	ExitCode *int
	IsError  bool
	Duration time.Duration
	// BytesShown is the size of the text the model reads; BytesSpilled
	// the whole size of each stream that was cut and saved to a file.
	BytesShown   int64
	BytesSpilled int64
	SpillPaths   []string
	Sandbox      string // the layers, "landlock+scopes+namespaces"; "" unconfined
	// AnsweredVia says who answered the call's approval: "form",
	// "console", "console-unsandboxed" or "tty"; "" when none was asked.
	AnsweredVia string
	// Files are the files an edit, write or apply_patch changed, with
	// the hashes of their content before and after.
	Files []FileHashes
	// Rules is how the command rules decided a bash command, with its
	// parts; nil without rules.
	Rules *tool.RulesDetails
	// EnvNames are the names of the bash call's env parameter, sorted;
	// never their values, which may be secrets.
	EnvNames []string
	// ExecCheck is how the deny rules that name a program held when the
	// command ran (Toolset.ExecCheck): "denied at exec: FILE, …" or
	// "parser-only: …".
	ExecCheck string
}

// FileHashes is one file a call changed: its path and the SHA-256 of its
// content before ("" for a new file) and after ("" for a deleted one).
type FileHashes struct {
	Path   string `json:"path"`
	Before string `json:"sha256_before,omitempty"`
	After  string `json:"sha256_after,omitempty"`
}

// Layers splits a toolset's sandbox layers ("landlock+scopes") into names.
func Layers(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, "+")
}
