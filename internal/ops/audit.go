package ops

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"sync"
	"time"

	"github.com/spillway-dev/spillway/tool"
)

// maxCommandBytes cuts the command of an audit line: a heredoc can be
// megabytes, and the line must stay a line a person can read.
const maxCommandBytes = 4096

// An Audit writes one JSON line per tool call. Each line is one write, so
// that lines from many calls never interleave, and on a file opened for
// appending (OpenAudit) never overwrite what is there.
type Audit struct {
	mu sync.Mutex
	w  io.Writer
}

// NewAudit returns an Audit that writes to w.
func NewAudit(w io.Writer) *Audit { return &Audit{w: w} }

// OpenAudit opens path for appending (made, readable by its owner only,
// when missing).
func OpenAudit(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
}

// An auditLine is one line of the audit log (docs/operations.md). It has
// no field for a session id, a token, the values of a command's
// environment or the text sent to a job: those may be secrets.
type auditLine struct {
	Time         time.Time          `json:"time"`
	Session      string             `json:"session"`
	Tool         string             `json:"tool"`
	Command      string             `json:"command,omitempty"`
	Path         string             `json:"path,omitempty"`
	Pattern      string             `json:"pattern,omitempty"`
	PID          int                `json:"pid,omitempty"`
	Cwd          string             `json:"cwd,omitempty"`
	ExitCode     *int               `json:"exit_code,omitempty"`
	IsError      bool               `json:"is_error"`
	DurationMS   int64              `json:"duration_ms"`
	BytesShown   int64              `json:"bytes_shown"`
	BytesSpilled int64              `json:"bytes_spilled"`
	SpillPaths   []string           `json:"spill_paths,omitempty"`
	Sandbox      string             `json:"sandbox,omitempty"`
	AnsweredVia  string             `json:"answered_via,omitempty"`
	Files        []FileHashes       `json:"files,omitempty"`
	Rules        *tool.RulesDetails `json:"rules,omitempty"`
	EnvNames     []string           `json:"env_names,omitempty"`
	ExecCheck    string             `json:"exec_check,omitempty"`
}

// Write writes the line of c.
func (a *Audit) Write(c Call) error {
	cmd := c.Command
	if len(cmd) > maxCommandBytes {
		cmd = cmd[:maxCommandBytes] + "…"
	}
	b, err := json.Marshal(auditLine{
		Time:         c.Start.UTC(),
		Session:      SessionHash(c.Session),
		Tool:         c.Tool,
		Command:      cmd,
		Path:         c.Path,
		Pattern:      c.Pattern,
		PID:          c.PID,
		Cwd:          c.Cwd,
		ExitCode:     c.ExitCode,
		IsError:      c.IsError,
		DurationMS:   c.Duration.Milliseconds(),
		BytesShown:   c.BytesShown,
		BytesSpilled: c.BytesSpilled,
		SpillPaths:   c.SpillPaths,
		Sandbox:      c.Sandbox,
		AnsweredVia:  c.AnsweredVia,
		Files:        c.Files,
		Rules:        c.Rules,
		EnvNames:     c.EnvNames,
		ExecCheck:    c.ExecCheck,
	})
	if err != nil {
		return err
	}
	b = append(b, '\n')
	a.mu.Lock()
	defer a.mu.Unlock()
	_, err = a.w.Write(b)
	return err
}

// SessionHash names a session in logs and the audit log: the first 12
// hex digits of the SHA-256 of its id. The id is a bearer of the session
// (whoever has it, with the token, can run commands in it), so it is
// never written; its hash still tells one session's lines from
// another's, and an operator who has an id can compute it.
func SessionHash(id string) string {
	sum := sha256.Sum256([]byte(id))
	return hex.EncodeToString(sum[:6])
}
