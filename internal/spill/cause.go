package spill

// A Cause says why a spill file was deleted before its session ended, so
// that a read of it can say so.
type Cause string

const (
	// CauseBudget: deleted to keep the session's files within their
	// budget, the oldest first.
	CauseBudget Cause = "budget"
	// CauseHistory: its call left the session's history, and no result
	// had named it, nor had it been written, within KeepNamed.
	CauseHistory Cause = "history"
	// CauseUnsaved: it could not be written whole, and was never named.
	CauseUnsaved Cause = "unsaved"
)
