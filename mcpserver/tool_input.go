package mcpserver

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spillway-dev/spillway"
	"github.com/spillway-dev/spillway/internal/policy"
)

func init() {
	register(toolAdapter("write_stdin", writeStdinTool, callWriteStdin))
}

// writeStdinArgs are the write_stdin tool's parameters as a model sends
// them; timeout is in milliseconds.
type writeStdinArgs struct {
	PID        int      `json:"pid"`
	Input      string   `json:"input"`
	Keys       []string `json:"keys"`
	CloseStdin bool     `json:"close_stdin"`
	Timeout    int      `json:"timeout"`
}

func callWriteStdin(ctx context.Context, ts *spillway.Toolset, _ *mcp.CallToolRequest, a writeStdinArgs) (result[spillway.BashDetails], error) {
	r, err := ts.WriteStdin(ctx, spillway.WriteStdinInput{
		PID:        a.PID,
		Input:      a.Input,
		Keys:       a.Keys,
		CloseStdin: a.CloseStdin,
		Timeout:    time.Duration(min(a.Timeout, maxTimeoutMS)) * time.Millisecond,
	})
	return result[spillway.BashDetails]{Text: r.Text, Details: r.Details, IsError: r.IsError}, err
}

func writeStdinTool(policy.Policy) Tool {
	wait := spillway.DefaultWriteStdinWait.Milliseconds()
	return Tool{
		Name:  "write_stdin",
		Title: "Send input to a running command",
		Description: fmt.Sprintf("Send input to a background command started by `bash` with `tty: true` (a terminal) or "+
			"`stdin: true` (a pipe) — answer a prompt, drive a REPL — then return its new output, as `check_pid` does, "+
			"once it waits for input again, ends, or `timeout` ms pass (default %d).\n\n"+
			"`input` is sent as typed (`\"yes\\n\"`: a newline is Enter). `keys` are named keys sent after it, in order: %s. "+
			"On a terminal Ctrl-C interrupts the program and Ctrl-D ends its input; on a pipe Ctrl-C sends SIGINT and Ctrl-D closes the pipe. "+
			"`close_stdin: true` ends the input after the rest (a pipe is closed so that `cat` or `sort` can finish; a terminal gets Ctrl-D). "+
			"With neither input nor keys it only waits for new output. A terminal echoes what you type, so the output shows your input too.",
			wait, strings.Join(spillway.KeyNames(), ", ")),
		InputSchema: object{Closed: true, Required: []string{"pid"}, Props: []property{
			{"pid", integer("Pid of the background command, as bash returned it.", 1)},
			{"input", str("Text to send as typed; a newline is Enter.")},
			{"keys", map[string]any{"type": "array", "items": map[string]any{"type": "string"},
				"description": "Named keys to send after input, e.g. [\"Enter\"], [\"Ctrl-C\"], [\"Up\", \"Enter\"]."}},
			{"close_stdin", boolean("End the command's input after sending the rest (end of file).")},
			{"timeout", integer(fmt.Sprintf("Most milliseconds to wait for the answer (default %d); the call returns as soon as the command waits for input again or ends.", wait), 1)},
		}},
	}
}
