package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spillway-dev/spillway"
	"github.com/spillway-dev/spillway/schema"
)

// addTool adds tool t to s. Its handler gives the arguments to
// Toolset.Call, which checks them against the tools table (an invalid
// call is an isError result that says what is wrong); the result is shaped
// by toolResult. ctx ends when the client cancels the call, goes away, or
// the session ends.
func addTool(s *toolServer, t schema.Tool) {
	s.AddTool(t.MCP(s.typed), func(ctx context.Context, req *mcp.CallToolRequest) (res *mcp.CallToolResult, err error) {
		// A panic here (a bug) is this call's error; the server and the
		// other sessions go on.
		defer func() {
			if p := recover(); p != nil {
				s.log.Error("a tool call panicked", "tool", t.Name, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
				res, err = errorResult(fmt.Errorf("%s: internal error (a bug in spillway; the session goes on, and the stack is in the server's log): %v", t.Name, p)), nil
			}
		}()
		sess, client, err := s.session(req)
		if err != nil {
			return errorResult(err), nil
		}
		start := time.Now()
		s.inFlight.Add(1)
		defer s.inFlight.Add(-1)
		ts, callCtx, finish, err := sess.begin(ctx, client, req.Session, clientOf(req))
		if err != nil {
			s.record(sess, nil, t.Name, spillway.Result[any]{}, start, len(err.Error()), true)
			return errorResult(err), nil
		}
		defer finish()
		call := spillway.ToolCall{Name: t.Name, Args: req.Params.Arguments}
		var info spillway.CallInfo
		s.urlAsker(&info, req)
		var ask *commandAsker
		if ts.Policy().Rules.Configured() {
			ask = &commandAsker{ss: req.Session, form: formsFor(req.Session, ts.Policy().Rules), ts: ts, log: s.log, responses: req.Params.InputResponses}
			info.Asker = ask.ask
			s.consoleAsker(ask, sess, ts, req.Params.Arguments)
		}
		if token := req.Params.GetProgressToken(); token != nil {
			p := newProgressReporter(callCtx, req.Session, token)
			defer p.stop()
			info.Progress = p.report
		}
		r, err := ts.Call(spillway.WithCallInfo(callCtx, info), call)
		if ask != nil && ask.pending != nil {
			return ask.inputRequired(), nil // nothing ran: the call comes back with the answer
		}
		if err != nil {
			r.Details = nil // no result: the call could not be made
			s.record(sess, ts, t.Name, r, start, len(err.Error()), true)
			return s.failed(err), nil
		}
		details, err := json.Marshal(r.Details)
		if err != nil {
			return nil, fmt.Errorf("%s: encoding the details: %w", t.Name, err)
		}
		via := ""
		if ask != nil {
			via = ask.via
		}
		s.recordVia(via, sess, ts, t.Name, r, start, len(r.Text)+len(r.Image), r.IsError)
		res = toolResult(r, details, s.typed, s.spillLinks)
		if clientOf(req).PlainErrors() {
			res.IsError = false
		}
		return res, nil
	})
}

func errorResult(err error) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}}, IsError: true}
}
