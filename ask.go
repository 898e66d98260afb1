package spillway

import (
	"context"

	"github.com/spillway-dev/spillway/tool"
)

// The answers an Asker returns: the choices the person is shown.
const (
	allowOnce    = "allow once"
	allowSession = "allow for this session"
	denyCommand  = "deny"
	// trustProject is the answer of an asker that had the person trust
	// the project (Toolset.TrustProject) when a suspended allow entry of
	// its own would have allowed the command: it is decided again.
	trustProject = "trust this project's rules"
)

// An asker asks the person at the keyboard whether a command that a rule
// holds for approval may run (Options.Asker).
type asker = func(ctx context.Context, command, cwd string, parts []RulePart) (string, error)

// askerFor is the asker of a call: the call's own (its CallInfo), else
// the toolset's.
func (t *Toolset) askerFor(ctx context.Context) asker {
	if a := tool.CallInfoFrom(ctx).Asker; a != nil {
		return a
	}
	return t.asker
}

// An askNotice is an asker's error that is the whole of the result (an
// error with a Notice() string method, from any asker): the
// question is still open elsewhere (the person's console), and the
// notice says what the model does next.
type askNotice interface {
	error
	Notice() string
}
