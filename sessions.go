package spillway

import "time"

// SessionInfo describes a named bash session.
type SessionInfo struct {
	Name string `json:"name"`
	// Cwd is the session's working directory.
	Cwd string `json:"cwd"`
	// Env holds the variables the session's commands exported or
	// changed.
	Env map[string]string `json:"env,omitempty"`
	// Unset lists the variables its commands removed.
	Unset []string `json:"unset,omitempty"`
	// Calls counts the bash calls made in the session.
	Calls    int       `json:"calls"`
	LastUsed time.Time `json:"last_used"`
}

// Sessions lists the toolset's named bash sessions, by name. A session is
// made by the first bash call that names it (BashInput.Session) and ends
// with the toolset.
func (t *Toolset) Sessions() []SessionInfo {
	out := []SessionInfo{}
	t.shell.EachSession(func(name, cwd string, set map[string]string, unset []string, calls int, lastUsed time.Time) {
		out = append(out, SessionInfo{Name: name, Cwd: cwd, Env: set, Unset: unset, Calls: calls, LastUsed: lastUsed})
	})
	return out
}
