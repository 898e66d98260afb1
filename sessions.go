package spillway

import "github.com/spillway-dev/spillway/internal/shell"

// SessionInfo describes a named bash session: its working directory and
// the environment its commands changed.
type SessionInfo = shell.SessionInfo

// Sessions lists the toolset's named bash sessions, by name. A session is
// made by the first bash call that names it (BashInput.Session) and ends
// with the toolset.
func (t *Toolset) Sessions() []SessionInfo { return t.shell.Sessions() }
