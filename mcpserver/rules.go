package mcpserver

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spillway-dev/spillway"
	"github.com/spillway-dev/spillway/internal/console"
)

// A command that a rule holds for approval (docs/rules.md) is shown to
// the person through form-mode elicitation: the command, where it runs
// and the parts that need approval, with the choices of commandAnswers.
// Nothing runs until they answer. A client
// that declared no form elicitation cannot be asked: the call is
// refused, and its result says how to allow the command.
//
// The question is asked the multi-round-trip way: the first call returns
// the form as an input request, and the client calls again with the
// person's answer (the Go SDK does that round trip itself for a client
// of an older protocol, with elicitation/create). The answer is bound
// to the command and its cwd by the request's id, so an answer to one
// command never lets another run.

// commandAsker asks through the elicitation of one call's client.
type commandAsker struct {
	ss *mcp.ServerSession
	// form says the question may go to the client's form: it declared
	// form elicitation, and [rules] no_client_forms is not set.
	form bool
	// responses are the answers the call came back with.
	responses mcp.InputResponseMap
	// pending is the question to send when the call had no answer.
	pendingID string
	pending   *mcp.ElicitParams

	// With a console (console.go): the hub, the session's tag, the
	// call's environment and timeout, and how the question was answered.
	hub     *console.Hub
	session string
	env     string
	timeout time.Duration
	log     *slog.Logger
	via     string
}

// errAskLater refuses a command for now: the call returns the question
// instead of this refusal.
var errAskLater = errors.New("the user is being asked")

// errNoForm is why a client without form elicitation is not asked.
var errNoForm = errors.New("this MCP client cannot show the user a form (it declared no form elicitation)")

// errFormsOff is why a client is not asked when the person's config
// puts no question to the clients' forms, and no console can answer.
var errFormsOff = errors.New("spillway asks through no client's form ([rules] no_client_forms = true) and this server has no console (spillway serve --console)")

// choiceField is the form's one field.
const choiceField = "choice"

// commandAnswers are the choices the person is given, the answers of
// spillway.Options.Asker.
var commandAnswers = []string{"allow once", "allow for this session", "deny"}

// commandForm is the form's schema: one choice among the answers.
var commandForm = func() map[string]any {
	enum := make([]any, len(commandAnswers))
	for i, a := range commandAnswers {
		enum[i] = a
	}
	return map[string]any{
		"type": "object",
		"properties": map[string]any{
			choiceField: map[string]any{"type": "string", "title": "Run this command?", "enum": enum},
		},
		"required": []any{choiceField},
	}
}()

// ask is the call's spillway.CallInfo.Asker.
func (a *commandAsker) ask(ctx context.Context, command, cwd string, parts []spillway.RulePart) (string, error) {
	if a.hub != nil {
		return a.consoleAsk(ctx, command, cwd, parts)
	}
	if !a.form {
		if takesFormElicitation(a.ss) {
			return "", errFormsOff
		}
		return "", errNoForm
	}
	id := questionID(command, cwd)
	res, ok := a.responses[id].(*mcp.ElicitResult)
	if !ok {
		a.pendingID = id
		a.pending = &mcp.ElicitParams{Mode: "form", Message: commandMessage(command, cwd, parts), RequestedSchema: commandForm}
		return "", errAskLater
	}
	choice, _ := res.Content[choiceField].(string)
	if res.Action != "accept" || !slices.Contains(commandAnswers, choice) {
		return "deny", nil
	}
	a.via = console.ViaForm
	return choice, nil
}

// inputRequired is the result that asks the pending question.
func (a *commandAsker) inputRequired() *mcp.CallToolResult {
	return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{a.pendingID: a.pending}}
}

// questionID names a question by what it asks to run and where.
func questionID(command, cwd string) string {
	h := sha256.Sum256([]byte(command + "\x00" + cwd))
	return "spillway-command-" + hex.EncodeToString(h[:12])
}

// commandMessage is what the person reads above the choices.
func commandMessage(command, cwd string, parts []spillway.RulePart) string {
	var b strings.Builder
	fmt.Fprintf(&b, "The agent wants to run a command that needs your approval.\n\nCommand: %s\nIn: %s\n\nNeeds approval:", command, cwd)
	for _, p := range parts {
		fmt.Fprintf(&b, "\n  %s", p.Command)
		switch {
		case p.Rule != "":
			fmt.Fprintf(&b, " (rule %s, %s)", p.Rule, p.Source)
		case p.Reason != "":
			fmt.Fprintf(&b, " (%s)", p.Reason)
		}
		if p.Justification != "" {
			fmt.Fprintf(&b, ": %s", p.Justification)
		}
	}
	return b.String()
}

// formsFor reports whether a question of a call of the client of ss
// may go to its form: it declared form elicitation, and the person's
// rules do not say no_client_forms (a client that declines every form
// unseen, as codex exec does, would refuse what the person could have
// approved in the console). Without, it is treated as a client that has
// no form.
func formsFor(ss *mcp.ServerSession, r spillway.RulesPolicy) bool {
	return takesFormElicitation(ss) && !r.NoClientForms
}

// takesFormElicitation reports whether the client of ss declared form
// elicitation: an elicitation capability with form, or with no mode at
// all (as clients wrote it before URL mode was added).
func takesFormElicitation(ss *mcp.ServerSession) bool {
	if ss == nil {
		return false
	}
	p := ss.InitializeParams()
	if p == nil || p.Capabilities == nil || p.Capabilities.Elicitation == nil {
		return false
	}
	e := p.Capabilities.Elicitation
	return e.Form != nil || e.URL == nil
}
