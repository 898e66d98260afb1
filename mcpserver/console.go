package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spillway-dev/spillway"
	"github.com/spillway-dev/spillway/internal/console"
)

// The person's console (internal/console) is a second way to answer an
// approval, beside the client's form. Both are asked at once; the first
// answer wins, and the other question is withdrawn: the form's request
// is cancelled, the item leaves the page. A client without form
// elicitation is no longer refused: the question waits on the page for
// the call's timeout; then nothing runs, the model is told to ask the
// person to open the console and to run the same command again, and an
// answer given on the page meanwhile applies once to that next
// identical call.

// waitingNotice is the result of a call whose question waited on the
// console for its whole timeout.
const waitingNotice = "[waiting for approval: nothing ran; the person can approve it in spillway console, then run the same command again]"

// errWaiting is what the console's asker returns when the call's time
// ran out: decideBash shows its notice as the whole result.
type errWaiting struct{}

func (errWaiting) Error() string { return waitingNotice }

// Notice is the result's text (spillway.askNotice).
func (errWaiting) Notice() string { return waitingNotice }

// consoleCall is what identifies a call to the console: its environment
// and its timeout, from the call's arguments.
type consoleCall struct {
	Env     map[string]string `json:"env"`
	Timeout int               `json:"timeout"`
}

// consoleAsk asks through the console, and through the client's form
// when it takes one, for the calls of a client of a protocol that has
// the server make the request itself (before 2026-07-28).
func (a *commandAsker) consoleAsk(ctx context.Context, command, cwd string, parts []spillway.RulePart) (string, error) {
	q := console.Question{Session: a.session, Command: command, Cwd: cwd, Env: a.env, Parts: parts}
	if a.trust != nil {
		q.Project, q.Trust, q.TrustHash = a.trust.Dir, a.trust.Entries, a.trust.Hash
	}
	if ans, ok := a.hub.Granted(q); ok {
		a.via = ans.Via
		if ans.Choice == trustAnswer && a.trust != nil {
			// Answered on the page after the call gave up: the files
			// are trusted as they were shown there.
			a.trust.Hash = ans.TrustHash
		}
		return ans.Choice, nil
	}
	form := a.form
	if form && multiRoundTrip(a.ss) {
		return a.roundTripAsk(q, command, cwd, parts)
	}
	p := a.hub.Ask(q)
	var formDone chan formAnswer
	ectx, cancelForm := context.WithCancel(ctx)
	defer cancelForm()
	if form {
		formDone = make(chan formAnswer, 1)
		go func() {
			res, err := a.ss.Elicit(ectx, a.formParams(command, cwd, parts))
			formDone <- formAnswer{res, err}
		}()
	}
	// Without a form the question waits for the call's timeout; with
	// one, for as long as the form is up.
	var timeout <-chan time.Time
	if !form {
		t := time.NewTimer(a.timeout)
		defer t.Stop()
		timeout = t.C
	}
	for {
		select {
		case ans := <-p.Answered():
			cancelForm() // withdraws the form: the client gets notifications/cancelled
			a.via = ans.Via
			return ans.Choice, nil
		case f := <-formDone:
			if f.err != nil && errors.Is(ectx.Err(), context.Canceled) {
				continue // cancelled by the page's answer, read above
			}
			if !p.Withdraw() {
				ans := <-p.Answered()
				a.log.Warn("an approval answered on the form after the console had: the form's answer was ignored", "session", a.session)
				a.via = ans.Via
				return ans.Choice, nil
			}
			if f.err != nil {
				return "", f.err
			}
			a.via = console.ViaForm
			return a.formChoice(f.res), nil
		case <-timeout:
			if !p.GiveUp() {
				ans := <-p.Answered()
				a.via = ans.Via
				return ans.Choice, nil
			}
			return "", errWaiting{}
		case <-ctx.Done():
			if !p.GiveUp() {
				ans := <-p.Answered()
				a.via = ans.Via
				return ans.Choice, nil
			}
			return "", ctx.Err()
		}
	}
}

// roundTripAsk is the console beside the form of a client that answers
// in a second call (protocol 2026-07-28 and later): the first call puts
// the question on the page as well and returns the form; whichever the
// person answers first is what the second call finds.
func (a *commandAsker) roundTripAsk(q console.Question, command, cwd string, parts []spillway.RulePart) (string, error) {
	id := a.questionID(command, cwd)
	res, ok := a.responses[id].(*mcp.ElicitResult)
	if !ok {
		p := a.hub.Ask(q)
		p.GiveUp() // the call returns the form now; the item stays
		a.pendingID = id
		a.pending = a.formParams(command, cwd, parts)
		return "", errAskLater
	}
	a.hub.Withdraw(q)
	a.via = console.ViaForm
	return a.formChoice(res), nil
}

type formAnswer struct {
	res *mcp.ElicitResult
	err error
}

// formChoice is the choice a form's result holds; anything but an
// accepted choice the form offered is deny.
func (a *commandAsker) formChoice(res *mcp.ElicitResult) string {
	if res == nil || res.Action != "accept" {
		return console.Deny
	}
	choice, _ := res.Content[choiceField].(string)
	if slices.Contains(a.answers(), choice) {
		return choice
	}
	return console.Deny
}

// multiRoundTrip reports whether the client of ss answers input requests
// in a second call rather than being sent them.
func multiRoundTrip(ss *mcp.ServerSession) bool {
	p := ss.InitializeParams()
	return p != nil && p.ProtocolVersion >= "2026-07-28"
}

// consoleAsker makes the asker of a call when the server has a console.
func (s *toolServer) consoleAsker(a *commandAsker, sess *session, ts *spillway.Toolset, args json.RawMessage) {
	if s.console == nil {
		return
	}
	var c consoleCall
	json.Unmarshal(args, &c) // what does not decode is checked by the call
	env, _ := json.Marshal(c.Env)
	a.hub, a.session, a.env, a.log = s.console, sess.tag, string(env), s.log
	a.timeout = ts.Policy().Timeout
	if c.Timeout > 0 {
		a.timeout = time.Duration(c.Timeout) * time.Millisecond
	}
}

// consoleSource shows a session's jobs, history and secret prompts on
// the console.
type consoleSource struct{ s *session }

// consoleTail is how much of each job's output the page shows.
const consoleTail = 16 << 10

// consoleHistory is how many of the last commands the page lists.
const consoleHistory = 20

func (c consoleSource) Jobs() []console.Job {
	ts := c.s.current()
	if ts == nil {
		return nil
	}
	return ts.WatchJobs(consoleTail)
}

func (c consoleSource) History() []console.Run {
	ts := c.s.current()
	if ts == nil {
		return nil
	}
	r, err := ts.History(context.Background(), spillway.HistoryInput{})
	if err != nil {
		return nil
	}
	recs := r.Details.Records
	if len(recs) > consoleHistory {
		recs = recs[len(recs)-consoleHistory:]
	}
	out := make([]console.Run, 0, len(recs))
	for _, h := range recs {
		run := console.Run{ID: h.ID, Command: h.Command, Started: h.Start.Format("15:04:05"), Duration: (time.Duration(h.DurationMS) * time.Millisecond).String()}
		switch {
		case h.Running:
			// No running time: it would change the page at every look.
			run.Exit, run.Duration = "running", ""
		case h.ExitCode != nil:
			run.Exit = fmt.Sprint(*h.ExitCode)
		}
		out = append(out, run)
	}
	return out
}

func (c consoleSource) Secrets() []console.Secret {
	ts := c.s.current()
	if ts == nil {
		return nil
	}
	return ts.SecretPages().Prompts()
}

func (c consoleSource) AnswerSecret(id, action string, secret []byte) error {
	ts := c.s.current()
	if ts == nil {
		return console.ErrGone
	}
	return ts.SecretPages().Respond(id, action, secret)
}

func (c consoleSource) Hold(pid int, tap func([]byte)) ([]string, error) {
	ts := c.s.current()
	if ts == nil {
		return nil, console.ErrGone
	}
	return ts.HoldJob(pid, tap)
}

func (c consoleSource) Release(pid int) {
	if ts := c.s.current(); ts != nil {
		ts.ReleaseJob(pid)
	}
}

func (c consoleSource) Input(pid int, b []byte) error {
	ts := c.s.current()
	if ts == nil {
		return console.ErrGone
	}
	return ts.PersonInput(pid, b)
}
