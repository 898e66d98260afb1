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
	"github.com/spillway-dev/spillway/internal/visible"
)

// A command that a rule holds for approval (docs/rules.md) is shown to
// the person through form-mode elicitation: the command, where it runs
// and the parts that need approval, with the choices of commandAnswers.
// Nothing runs until they answer. A client
// that declared no form elicitation (or every client, under [rules]
// no_client_forms) is not sent the form: the question waits on the
// person's console (console.go), or, without one, the call is refused
// and its result says how to allow the command. A question about a
// command that a suspended allow entry of the project would have
// allowed offers to trust the project too (ask).
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
	// ts is the call's toolset, whose project the person may trust
	// when one of its suspended allow entries would have allowed the
	// command; trust, set by ask, holds that project's allow entries
	// while the question offers it.
	ts    *spillway.Toolset
	trust *projectTrust
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

// trustAnswer is the further choice of a question about a command that
// an allow entry of the project would have allowed, had the person
// trusted the project: choosing it trusts the project
// (spillway.Toolset.TrustProject), and the command is decided again.
const trustAnswer = console.TrustProject

// A projectTrust is what the person is shown before trusting the
// project: where it is, the allow entries that trusting it lets count,
// and the hash of its files then.
type projectTrust = spillway.ProjectTrust

// answers are the choices of the question a asks.
func (a *commandAsker) answers() []string {
	if a.trust != nil {
		return append(slices.Clone(commandAnswers), trustAnswer)
	}
	return commandAnswers
}

// commandForm is the form's schema: one choice among the answers.
func (a *commandAsker) commandForm() map[string]any {
	answers := a.answers()
	enum := make([]any, len(answers))
	for i, c := range answers {
		enum[i] = c
	}
	return map[string]any{
		"type": "object",
		"properties": map[string]any{
			choiceField: map[string]any{"type": "string", "title": "Run this command?", "enum": enum},
		},
		"required": []any{choiceField},
	}
}

// formParams is the form that asks about command.
func (a *commandAsker) formParams(command, cwd string, parts []spillway.RulePart) *mcp.ElicitParams {
	return &mcp.ElicitParams{Mode: "form", Message: commandMessage(command, cwd, parts, a.trust), RequestedSchema: a.commandForm()}
}

// ask is the call's spillway.CallInfo.Asker. When a suspended allow
// entry of the project would have allowed a part, the question offers
// to trust the project as well; the person's choice of it trusts the
// project through the channel they answered on.
func (a *commandAsker) ask(ctx context.Context, command, cwd string, parts []spillway.RulePart) (string, error) {
	a.trust = a.offerTrust(parts)
	choice, err := a.question(ctx, command, cwd, parts)
	if err != nil || choice != trustAnswer {
		return choice, err
	}
	if a.trust == nil {
		return console.Deny, nil // not offered: no answer of the person's
	}
	if err := a.ts.TrustProject(*a.trust, a.via); err != nil {
		return "", fmt.Errorf("the person chose to trust the project %s, and it could not be trusted: %w", a.trust.Dir, err)
	}
	a.log.Info("the person trusted the project's rules", "session", a.session, "dir", a.trust.Dir, "via", a.via)
	return trustAnswer, nil
}

// offerTrust is the project to offer trust in when a part of the
// question would have been allowed by a suspended allow entry of the
// project (its reason says so), and the project is not trusted now.
func (a *commandAsker) offerTrust(parts []spillway.RulePart) *projectTrust {
	if a.ts == nil {
		return nil
	}
	suspended := slices.ContainsFunc(parts, func(p spillway.RulePart) bool { return strings.Contains(p.Reason, " is suspended: ") })
	if !suspended {
		return nil
	}
	return a.ts.UntrustedProject()
}

// question asks the person through the console and the client's form.
func (a *commandAsker) question(ctx context.Context, command, cwd string, parts []spillway.RulePart) (string, error) {
	if a.hub != nil {
		return a.consoleAsk(ctx, command, cwd, parts)
	}
	if !a.form {
		if takesFormElicitation(a.ss) {
			return "", errFormsOff
		}
		return "", errNoForm
	}
	id := a.questionID(command, cwd)
	res, ok := a.responses[id].(*mcp.ElicitResult)
	if !ok {
		a.pendingID = id
		a.pending = a.formParams(command, cwd, parts)
		return "", errAskLater
	}
	a.via = console.ViaForm
	return a.formChoice(res), nil
}

// inputRequired is the result that asks the pending question.
func (a *commandAsker) inputRequired() *mcp.CallToolResult {
	return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{a.pendingID: a.pending}}
}

// questionID names a question by what it asks to run and where, and
// whether it offers to trust the project: once the project is trusted,
// the command asked about again is another question, which the answer
// that trusted it does not answer.
func (a *commandAsker) questionID(command, cwd string) string {
	h := sha256.Sum256([]byte(command + "\x00" + cwd))
	id := "spillway-command-" + hex.EncodeToString(h[:12])
	if a.trust != nil {
		id += "-trust"
	}
	return id
}

// commandMessage is what the person reads above the choices; with
// trust, what trusting the project lets count.
func commandMessage(command, cwd string, parts []spillway.RulePart, trust *projectTrust) string {
	var b strings.Builder
	fmt.Fprintf(&b, "The agent wants to run a command that needs your approval.\n\nCommand: %s\nIn: %s\n\nNeeds approval:", visible.Indented(command, "  "), visible.Indented(cwd, "  "))
	for _, p := range parts {
		fmt.Fprintf(&b, "\n  %s", visible.Indented(p.Command, "    "))
		switch {
		case p.Rule != "":
			fmt.Fprintf(&b, " (rule %s, %s)", visible.Indented(p.Rule, "    "), visible.Indented(p.Source, "    "))
		case p.Reason != "":
			fmt.Fprintf(&b, " (%s)", visible.Indented(p.Reason, "    "))
		}
		if p.Justification != "" {
			fmt.Fprintf(&b, ": %s", visible.Indented(p.Justification, "    "))
		}
	}
	if trust != nil {
		fmt.Fprintf(&b, "\n\nThe project %s has allow entries of its own, which count only once you trust it (its rule files are written by whoever wrote the repository, or by the agent). %q trusts them as shown here, for this and later sessions, until a file changes:", visible.Indented(trust.Dir, "  "), trustAnswer)
		for _, e := range trust.Entries {
			fmt.Fprintf(&b, "\n  %s", visible.Indented(e, "    "))
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
