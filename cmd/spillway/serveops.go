package main

import (
	"context"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/pflag"

	"github.com/spillway-dev/spillway/internal/ops"
	"github.com/spillway-dev/spillway/mcpserver"
)

// opsFlags are the flags of serve for its operator (docs/operations.md).
type opsFlags struct {
	nodeID        string
	metricsListen string
	auditLog      string
	drain         time.Duration
}

func (o *opsFlags) add(f *pflag.FlagSet) {
	f.StringVar(&o.nodeID, "node-id", "", "begin every session id with this node id (NODE.…), for a proxy that routes sessions to their node")
	f.StringVar(&o.metricsListen, "metrics-listen", "", "also serve /metrics on this address (HOST:PORT), without the token")
	f.StringVar(&o.auditLog, "audit-log", "", "append one JSON line per tool call to this file (no tokens, no session ids)")
	f.DurationVar(&o.drain, "drain-timeout", mcpserver.DefaultDrainTimeout, "on SIGTERM or POST /drain, how long the calls in flight and the jobs get to finish (0: none)")
}

// drainTimeout is the HTTPConfig.DrainTimeout of the flag: 0 there means
// the default, here no wait.
func (o *opsFlags) drainTimeout() time.Duration {
	if o.drain <= 0 {
		return -1
	}
	return o.drain
}

// openAudit opens the audit log, if one is asked for.
func (o *opsFlags) openAudit() (*os.File, error) {
	if o.auditLog == "" {
		return nil, nil
	}
	return ops.OpenAudit(o.auditLog)
}

// writerOrNil keeps a nil *os.File from becoming a non-nil io.Writer.
func writerOrNil(f *os.File) io.Writer {
	if f == nil {
		return nil
	}
	return f
}

// drainOnSignal returns a context that ends at once on SIGINT or on a
// second SIGTERM; the first SIGTERM starts a drain of srv (what an
// orchestrator sends before it kills a process).
func drainOnSignal(parent context.Context, srv *mcpserver.HTTPServer, log *slog.Logger) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(parent)
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		terms := 0
		for {
			select {
			case <-ctx.Done():
				return
			case sig := <-sigs:
				if sig == syscall.SIGTERM && terms == 0 {
					terms++
					srv.Drain()
					continue
				}
				log.Warn("ending at once", "signal", sig.String())
				cancel()
				return
			}
		}
	}()
	return ctx, func() {
		signal.Stop(sigs)
		cancel()
	}
}
