package spillway

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/spillway-dev/spillway/output"
)

// A ToolCall is a call of a tool by name, with its arguments as a JSON
// object: what an MCP client sends, and what the CLI builds from its
// flags.
type ToolCall struct {
	// Name is the tool's name: bash, write_stdin, jobs, read, grep, find,
	// ls or history.
	Name string
	// Args are the parameters by name (see Tools and docs/tools.md).
	Args json.RawMessage
	// Progress, for a bash command, receives the bytes and lines so far
	// about once a second.
	Progress func(BashProgress)
}

// A ToolResult is the result of any tool: the text for the model, the
// tool's details (a BashDetails, ReadDetails, …), whether the command
// failed, and the image a read returned.
type ToolResult struct {
	// Text is what the model reads.
	Text string
	// Details are the tool's details: a BashDetails, ReadDetails,
	// GrepDetails, FindDetails, LsDetails, JobsDetails or HistoryDetails.
	Details any
	// IsError says the command did not succeed (see BashResult.IsError),
	// or a Rerender could not show a stream.
	IsError bool
	// Image holds an image a read returned, MimeType its type.
	Image    []byte
	MimeType string
}

// Call runs a tool by name: its arguments are checked against the tool's
// parameters (an *ArgsError says what does not fit) and given to the
// method they ask for (bash's check_pid goes to CheckJob). The MCP server
// and the CLI call the tools through it.
func (t *Toolset) Call(ctx context.Context, c ToolCall) (ToolResult, error) {
	name, args, peerSets, err := peerCall(t.policy.Profile, c.Name, c.Args)
	if err != nil {
		return ToolResult{}, err
	}
	tool, ok := LookupTool(name)
	if !ok {
		return ToolResult{}, fmt.Errorf("no tool is named %q", c.Name)
	}
	cl, err := decodeArgs(tool, args)
	if err != nil {
		return ToolResult{}, err
	}
	in := cl.in.Interface()
	if b, ok := in.(*BashInput); ok {
		for _, set := range peerSets {
			if err := set(b); err != nil {
				return ToolResult{}, err
			}
		}
	}
	type method struct {
		tool string
		m    Method
	}
	switch (method{tool.Name, cl.method}) {
	case method{"bash", Run}:
		in := *in.(*BashInput)
		in.Progress = c.Progress
		return bashResult(t.Bash(ctx, in))
	case method{"bash", CheckJob}:
		return bashResult(t.CheckJob(ctx, *in.(*CheckJobInput)))
	case method{"bash", KillJob}:
		return bashResult(t.KillJob(ctx, *in.(*KillJobInput)))
	case method{"write_stdin", Run}:
		return bashResult(t.WriteStdin(ctx, *in.(*WriteStdinInput)))
	case method{"jobs", Run}:
		if err := t.open(); err != nil {
			return ToolResult{}, err
		}
		text, jobs := t.JobsText()
		return ToolResult{Text: text, Details: JobsDetails{Jobs: jobs, Tokens: output.EstimateTokensString(text)}}, nil
	case method{"read", Run}:
		r, err := t.Read(ctx, *in.(*ReadInput))
		return ToolResult{Text: r.Text, Details: r.Details, Image: r.Image, MimeType: r.MimeType}, err
	case method{"grep", Run}:
		r, err := t.Grep(ctx, *in.(*GrepInput))
		return ToolResult{Text: r.Text, Details: r.Details}, err
	case method{"find", Run}:
		r, err := t.Find(ctx, *in.(*FindInput))
		return ToolResult{Text: r.Text, Details: r.Details}, err
	case method{"ls", Run}:
		r, err := t.Ls(ctx, *in.(*LsInput))
		return ToolResult{Text: r.Text, Details: r.Details}, err
	case method{"history", Run}:
		if err := t.open(); err != nil {
			return ToolResult{}, err
		}
		text, records := t.HistoryText(*in.(*HistoryFilter))
		return ToolResult{Text: text, Details: HistoryDetails{Records: records, Sessions: t.Sessions(), Tokens: output.EstimateTokensString(text)}}, nil
	case method{"history", Rerender}:
		r, err := t.Rerender(*in.(*RerenderInput))
		return ToolResult{Text: r.Text, Details: HistoryDetails{Shown: &r.Details, Tokens: output.EstimateTokensString(r.Text)}, IsError: r.IsError}, err
	}
	return ToolResult{}, fmt.Errorf("%s: no method %d", tool.Name, cl.method)
}

func bashResult(r BashResult, err error) (ToolResult, error) {
	return ToolResult{Text: r.Text, Details: r.Details, IsError: r.IsError}, err
}
