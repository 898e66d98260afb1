package mcpserver

import (
	"encoding/json"
	"iter"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// admission keeps the count --max-sessions caps: the sessions that
// initialized and have not ended, and the initializes still being
// answered, each of which may start one.
//
// The SDK's own list of sessions is not that count. It also holds, for a
// moment after their answer, the sessions it makes for session-less POSTs
// that never initialize; a client's server/discover probe, which comes
// just before its initialize, is one, so a client's initialize found its
// own probe counted against the cap. And a check of that list, followed by
// the SDK adding the session later, let concurrent initializes all pass a
// cap that only one of them fitted under.
type admission struct {
	max      int
	sessions func() iter.Seq[*mcp.ServerSession]

	mu       sync.Mutex
	pending  int             // session-less POSTs admitted, not yet answered
	admitted map[string]bool // ids of the sessions that initialized
}

func newAdmission(max int, sessions func() iter.Seq[*mcp.ServerSession]) *admission {
	return &admission{max: max, sessions: sessions, admitted: map[string]bool{}}
}

// count is the number of sessions held against the cap.
func (a *admission) count() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.countLocked()
}

// countLocked forgets the sessions that ended before it counts.
func (a *admission) countLocked() int {
	if len(a.admitted) > 0 {
		live := map[string]bool{}
		for ss := range a.sessions() {
			live[ss.ID()] = true
		}
		for id := range a.admitted {
			if !live[id] {
				delete(a.admitted, id)
			}
		}
	}
	return len(a.admitted) + a.pending
}

// enter admits a session-less POST that may start a session, or reports
// false at the cap. An admitted POST holds its place until leave.
func (a *admission) enter() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.countLocked() >= a.max {
		return false
	}
	a.pending++
	return true
}

// leave ends the admission of a session-less POST once it is answered. id
// is the session its answer named, if any: the place stays with it when
// it initialized, and is freed otherwise.
func (a *admission) leave(id string) {
	var started bool
	if id != "" {
		for ss := range a.sessions() {
			if ss.ID() == id {
				started = ss.InitializeParams() != nil
				break
			}
		}
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.pending--
	if started {
		a.admitted[id] = true
	}
}

// adopt counts a session the SDK kept from a POST that was not admitted
// (its body did not read as an initialize here, but did to the SDK) when
// there is room under the cap, and closes it when there is not, so that no
// spelling of a request gets past the cap. It reports whether the session
// stays.
func (a *admission) adopt(id string) bool {
	var ss *mcp.ServerSession
	for s := range a.sessions() {
		if s.ID() == id {
			ss = s
			break
		}
	}
	if ss == nil || ss.InitializeParams() == nil {
		return true
	}
	a.mu.Lock()
	room := a.admitted[id] || a.countLocked() < a.max
	if room {
		a.admitted[id] = true
	}
	a.mu.Unlock()
	if !room {
		ss.Close()
	}
	return room
}

// mayStartSession says whether a session-less POST with this body can
// leave a session behind: the SDK keeps the session it makes for one only
// when the body is an initialize. Any other request (a client's
// server/discover probe before its initialize, a stray call) is answered
// and its session closed, so it takes no place. A body that does not read
// as one request counts as one that may.
func mayStartSession(body []byte) bool {
	var req struct {
		Method *string `json:"method"`
	}
	if json.Unmarshal(body, &req) != nil || req.Method == nil {
		return true
	}
	return *req.Method == "initialize"
}
