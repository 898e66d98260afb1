package main

import (
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/spillway-dev/spillway/mcpserver"
	"github.com/spillway-dev/spillway/schema"
)

// tokenEnv holds the bearer token when --token is not given.
const tokenEnv = "SPILLWAY_TOKEN"

func (g *globalFlags) newServeCmd() *cobra.Command {
	s := &serveFlags{}
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the tools to many MCP clients over Streamable HTTP",
		Long: "serve serves " + schema.Summary() + `
over MCP Streamable HTTP at http://LISTEN/mcp. Every MCP session gets a toolset of its own (cwd, env,
background jobs, spill directory), invisible to the others; a session ends
when its client deletes it or after --idle-timeout without a request, and
then its jobs are killed and its spill directory removed.

Safety: every request must send "Authorization: Bearer <token>" or gets
401, on loopback too (any local user could run commands as you
otherwise). Give the token with $SPILLWAY_TOKEN (or --token, but
arguments are visible to other users in ps); without one, serve makes
one, prints it once on stderr and writes it to a file (--token-file;
default $XDG_RUNTIME_DIR/spillway/serve-PORT.token, or under your config
directory), removed when serve ends. That file is mode 0600: other users
cannot read it, but every program running as you can, the commands serve
runs without --sandbox included (--sandbox hides it from them).
--token-file - prints the token once and writes no file. --no-token
turns this off on a loopback address, for a machine no one else uses.
The token is not in the commands' environment, and serve is
non-dumpable on Linux, so a command cannot read it, nor serve's log,
through /proc/$PPID. It listens on 127.0.0.1 by default; a
browser Origin other than the server's own (http://localhost:PORT,
http://127.0.0.1:PORT, http://[::1]:PORT) or one given with
--allow-origin gets 403 (DNS-rebinding protection). At most
--max-sessions sessions are open at once, and connections are capped
below the descriptor limit: past the cap, connections that have made no
authorised request are closed, oldest first.

For operators (docs/operations.md): GET /healthz and GET /readyz answer
without the token (the state only); GET /metrics serves Prometheus
metrics behind the token, or without it on --metrics-listen;
--audit-log appends a JSON line per call. SIGTERM (or POST /drain)
drains: readiness and new sessions get 503, the calls in flight and the
jobs get --drain-timeout to finish, then serve ends them and exits 0; a
second SIGTERM, or SIGINT, ends it at once. --node-id puts the node in
every session id, so that a proxy routes each session to its node.`,
		Example: `  spillway serve
  SPILLWAY_TOKEN=$(openssl rand -hex 32) spillway serve --listen 0.0.0.0:7777`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return g.runServe(cmd, s) },
	}
	f := cmd.Flags()
	f.StringVar(&s.listen, "listen", mcpserver.DefaultListen, "address to listen on (HOST:PORT); not loopback needs a token")
	f.StringVar(&s.token, "token", "", "bearer token every request must carry (default $"+tokenEnv+", else one made at start)")
	f.BoolVar(&s.noToken, "no-token", false, "on a loopback address, require no token (any local user can then run commands)")
	f.StringVar(&s.tokenOut, "token-file", "", "where to write the token serve makes, readable by every program of your user (default: serve-PORT.token in $XDG_RUNTIME_DIR/spillway/; - prints it once and writes no file)")
	f.IntVar(&s.maxSess, "max-sessions", mcpserver.DefaultMaxSessions, "most sessions open at once; one more gets 503")
	f.DurationVar(&s.idle, "idle-timeout", mcpserver.DefaultIdleTimeout, "end a session after this long without a request (0: never)")
	f.StringArrayVar(&s.origins, "allow-origin", nil, "also accept this browser Origin (scheme://host[:port]); repeatable")
	f.StringVar(&s.logLevel, "log-level", "info", "what to log on stderr: debug, info, warn or error")
	f.BoolVar(&s.console, "console", false, "show the sessions on spillway console, to the person who presents the token (docs/console.md)")
	s.ops.add(f)
	g.addServerFlags(cmd)
	return cmd
}

// serveFlags are serve's own flags.
type serveFlags struct {
	listen   string
	token    string
	idle     time.Duration
	origins  []string
	logLevel string
	noToken  bool
	tokenOut string
	// tokenFlag: the token was given with --token.
	tokenFlag bool
	maxSess   int
	ops       opsFlags
	console   bool
}

// serveSecrets tells the server's configuration where serve keeps its
// secrets, to be hidden from sandboxed commands: the token file (written
// when serve made the token, made), the audit log, and the console's
// credential.
func (g *globalFlags) serveSecrets(s *serveFlags, made bool) error {
	g.tokenFile, g.auditLog = s.tokenOut, s.ops.auditLog
	if s.tokenOut == "-" {
		g.tokenFile = "" // no file to hide
	}
	if made && s.tokenOut != "-" {
		dir, err := tokenDirFor(s.tokenOut)
		if err != nil {
			return err
		}
		g.tokenDir = dir
	}
	g.console, g.consoleCredential = s.console, s.token
	g.tokenInArgs = s.tokenFlag
	return nil
}

// runServe serves until a signal or a drain ends it.
func (g *globalFlags) runServe(cmd *cobra.Command, s *serveFlags) error {
	log, err := newLogger(s.logLevel, slog.LevelInfo)
	if err != nil {
		return err
	}
	s.tokenFlag = cmd.Flags().Changed("token")
	if !s.tokenFlag {
		// A copy: the value lies in the environment block that
		// scrubEnviron blanks.
		s.token = strings.Clone(envOr(tokenEnv, ""))
	}
	// A server secret never reaches the commands, nor shows in
	// /proc/PID/environ.
	os.Unsetenv(tokenEnv)
	if err := scrubEnviron(tokenEnv); err != nil {
		log.Warn("$"+tokenEnv+" still shows in this process's first environment (/proc/PID/environ)", "error", err)
	}
	// After scrubEnviron, which writes /proc/self/mem (a
	// non-dumpable process's /proc files are root's), and before
	// any command runs: a command of the same user must not read
	// the server's descriptors, environment or memory there.
	if err := notDumpable(); err != nil {
		log.Warn("commands of this user can read this process's descriptors and memory through /proc (PR_SET_DUMPABLE failed)", "error", err)
	}
	if s.noToken && s.token != "" {
		return errors.New("--no-token and a token (--token or $" + tokenEnv + ") contradict each other")
	}
	made := false
	if s.token == "" && !s.noToken {
		s.token, made = rand.Text(), true
	}
	// Check the address before anything else is set up.
	if err := mcpserver.CheckListen(s.listen, s.token); err != nil {
		return err
	}
	if err := g.serveSecrets(s, made); err != nil {
		return err
	}
	cfg, err := g.serverConfig(log)
	if err != nil {
		return err
	}
	defer g.listenConsole(&cfg, "serve", log)()
	if s.idle == 0 {
		s.idle = -1 // 0 on the command line means never
	}
	audit, err := s.ops.openAudit()
	if err != nil {
		return err
	}
	if audit != nil {
		defer audit.Close()
	}
	srv, err := mcpserver.ListenHTTP(mcpserver.HTTPConfig{
		Config:         cfg,
		Listen:         s.listen,
		Token:          s.token,
		IdleTimeout:    s.idle,
		AllowedOrigins: s.origins,
		MaxSessions:    s.maxSess,
		NodeID:         s.ops.nodeID,
		MetricsListen:  s.ops.metricsListen,
		AuditLog:       writerOrNil(audit),
		DrainTimeout:   s.ops.drainTimeout(),
	})
	if errors.Is(err, syscall.EADDRINUSE) {
		return failure{fmt.Errorf("%w: another program (perhaps a spillway serve already running) listens there; "+
			"use that server, stop it, or give --listen 127.0.0.1:PORT with a free port (:0 picks one)", err)}
	}
	if err != nil {
		return err
	}
	if made && s.tokenOut == "-" {
		fmt.Fprintf(cmd.ErrOrStderr(), "spillway: token (printed this once, written to no file): %s\n", s.token)
	} else if made {
		path, err := writeToken(s.tokenOut, srv.URL(), s.token)
		if err != nil {
			return err
		}
		defer os.Remove(path)
		fmt.Fprintf(cmd.ErrOrStderr(), "spillway: token (also in %s, readable by every program of your user): %s\n", path, s.token)
	} else if s.noToken {
		log.Warn("serving without a token: any local user can run commands as you (--no-token)")
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "spillway: serving MCP at %s\n", srv.URL())
	if need, have := mcpserver.DescriptorsFor(s.maxSess), mcpserver.DescriptorLimit(); have < need {
		fmt.Fprintf(cmd.ErrOrStderr(), "spillway: the descriptor limit (ulimit -n %d) holds about %d sessions with a running job each, not --max-sessions %d: raise it to %d or more (docs/operations.md)\n",
			have, mcpserver.SessionsFor(have), s.maxSess, need)
	}
	if s.ops.metricsListen != "" {
		fmt.Fprintf(cmd.ErrOrStderr(), "spillway: metrics at %s\n", srv.MetricsURL())
	}
	ctx, stop := drainOnSignal(cmd.Context(), srv, log)
	defer stop()
	return srv.Serve(ctx)
}
