package main

import (
	"fmt"
	"log/slog"
	"time"

	"github.com/spf13/cobra"

	"github.com/spillway-dev/spillway/mcpserver"
)

func init() { commands = append(commands, newServeCmd) }

// tokenEnv holds the bearer token when --token is not given.
const tokenEnv = "SPILLWAY_TOKEN"

func newServeCmd() *cobra.Command {
	var (
		listen   string
		token    string
		idle     time.Duration
		origins  []string
		logLevel string
	)
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the tools to many MCP clients over Streamable HTTP",
		Long: `serve serves bash, read, grep, find and ls over MCP Streamable HTTP at
http://LISTEN/mcp. Every MCP session gets a toolset of its own (cwd, env,
background jobs, spill directory), invisible to the others; a session ends
when its client deletes it or after --idle-timeout without a request, and
then its jobs are killed and its spill directory removed.

Safety: it listens on 127.0.0.1 by default; a browser Origin that is not
loopback (or given with --allow-origin) gets 403 (DNS-rebinding
protection). To listen on any other address, set a bearer token with
--token or $SPILLWAY_TOKEN (prefer the variable: arguments are visible to
other users in ps); every request must then send
"Authorization: Bearer <token>" or gets 401.`,
		Example: `  spillway serve
  SPILLWAY_TOKEN=$(openssl rand -hex 32) spillway serve --listen 0.0.0.0:7777`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			log, err := newLogger(logLevel, slog.LevelInfo)
			if err != nil {
				return err
			}
			if !cmd.Flags().Changed("token") {
				token = envOr(tokenEnv, "")
			}
			// Check the address before anything else is set up.
			if err := mcpserver.CheckListen(listen, token); err != nil {
				return err
			}
			cfg, err := serverConfig(log)
			if err != nil {
				return err
			}
			if idle == 0 {
				idle = -1 // 0 on the command line means never
			}
			srv, err := mcpserver.ListenHTTP(mcpserver.HTTPConfig{
				Config:         cfg,
				Listen:         listen,
				Token:          token,
				IdleTimeout:    idle,
				AllowedOrigins: origins,
			})
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "spillway: serving MCP at %s\n", srv.URL())
			ctx, stop := signalContext(cmd.Context())
			defer stop()
			return srv.Serve(ctx)
		},
	}
	f := cmd.Flags()
	f.StringVar(&listen, "listen", mcpserver.DefaultListen, "address to listen on (HOST:PORT); not loopback needs a token")
	f.StringVar(&token, "token", "", "bearer token every request must carry (default $"+tokenEnv+")")
	f.DurationVar(&idle, "idle-timeout", mcpserver.DefaultIdleTimeout, "end a session after this long without a request (0: never)")
	f.StringArrayVar(&origins, "allow-origin", nil, "also accept this browser Origin (scheme://host[:port]); repeatable")
	f.StringVar(&logLevel, "log-level", "info", "what to log on stderr: debug, info, warn or error")
	addServerFlags(cmd)
	return cmd
}
