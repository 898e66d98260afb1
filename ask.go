package spillway

import "context"

// The answers an Asker returns: the choices the person is shown.
const (
	allowOnce    = "allow once"
	allowSession = "allow for this session"
	denyCommand  = "deny"
)

// An asker asks the person at the keyboard whether a command that a rule
// holds for approval may run (Options.Asker).
type asker = func(ctx context.Context, command, cwd string, parts []RulePart) (string, error)

// askerFor is the asker of a call: the call's own, else the toolset's.
func (t *Toolset) askerFor(in BashInput) asker {
	if in.Asker != nil {
		return in.Asker
	}
	return t.asker
}

// An AskNotice is an asker's error that is the whole of the result: the
// question is still open elsewhere (the person's console), and the
// notice says what the model does next.
type AskNotice interface {
	error
	Notice() string
}
