package main

import (
	"fmt"
	"time"

	"github.com/spillway-dev/spillway/mcpserver"
)

// clientRequestTimeout is how long Claude Code, Codex, Gemini CLI and
// the other MCP clients wait for a tool call before they give up on it.
const clientRequestTimeout = 60 * time.Second

// timeoutWarning says why a bash timeout at or over the clients' request
// timeout is a mistake under MCP: the client gives up on the call before
// spillway moves the command to the background, and the model gets an
// error instead of the output so far and a pid.
func timeoutWarning(t time.Duration) string {
	return fmt.Sprintf("timeout_ms = %d is at or over the %d s after which MCP clients give up on a call: "+
		"a long command ends in the client's timeout error instead of moving to the background with its output so far; "+
		"leave timeout_ms out (spillway mcp and serve then use %d)",
		t.Milliseconds(), int(clientRequestTimeout.Seconds()), defaultServerTimeoutMS())
}

func defaultServerTimeoutMS() int64 { return mcpserver.DefaultTimeout.Milliseconds() }
