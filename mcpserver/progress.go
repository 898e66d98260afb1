package mcpserver

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spillway-dev/spillway/output"
)

// A progressReporter turns the bash progress callback into MCP
// notifications/progress for one call. progress is the seconds the command
// has run, which increases with every notification as MCP requires even
// when the command is silent (clients use progress to keep a long call
// alive); the message says how much output there is so far.
type progressReporter struct {
	ctx   context.Context // the call's: routes the notification to its stream
	ss    *mcp.ServerSession
	token any
	start time.Time

	mu   sync.Mutex
	last float64
	done bool
}

func newProgressReporter(ctx context.Context, ss *mcp.ServerSession, token any) *progressReporter {
	return &progressReporter{ctx: ctx, ss: ss, token: token, start: time.Now()}
}

// report sends one notification. It is the ToolCall's Progress callback.
func (p *progressReporter) report(bytes, lines int64) {
	p.mu.Lock()
	defer p.mu.Unlock() // also keeps notifications in order
	if p.done {
		return
	}
	elapsed := time.Since(p.start).Seconds()
	if elapsed <= p.last {
		elapsed = p.last + 0.001
	}
	p.last = elapsed
	err := p.ss.NotifyProgress(p.ctx, &mcp.ProgressNotificationParams{
		ProgressToken: p.token,
		Progress:      elapsed,
		Message:       progressMessage(bytes, lines, elapsed),
	})
	if err != nil {
		// The client is gone or the stream closed: stop trying.
		p.done = true
	}
}

// stop ends the reports: none is sent after the call's result.
func (p *progressReporter) stop() {
	p.mu.Lock()
	p.done = true
	p.mu.Unlock()
}

func progressMessage(bytes, lines int64, elapsed float64) string {
	unit := "lines"
	if lines == 1 {
		unit = "line"
	}
	return fmt.Sprintf("running for %.0fs: %d %s (%s) of output so far", elapsed, lines, unit, output.FormatSize(bytes))
}
