package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/spillway-dev/spillway"
	"github.com/spillway-dev/spillway/internal/config"
	"github.com/spillway-dev/spillway/internal/spill"
	"github.com/spillway-dev/spillway/mcpserver"
	"github.com/spillway-dev/spillway/schema"
)

func (g *globalFlags) newMCPCmd() *cobra.Command {
	var logLevel string
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Serve the tools to one MCP client over stdio",
		Long: "mcp serves " + schema.Summary() + `
to one MCP client over stdin and stdout (newline-delimited JSON-RPC), for
Claude Code, Claude Desktop, Codex, Cursor, VS Code or any MCP client that
starts its servers as commands:

  claude mcp add -s user spillway -- spillway mcp

The process is one session: its background jobs and its spill directory
live until the client closes stdin or the process gets SIGINT or SIGTERM,
then the jobs are killed and the spill directory removed. stdout carries
JSON-RPC only; the log goes to stderr.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			log, err := newLogger(logLevel, slog.LevelWarn)
			if err != nil {
				return err
			}
			if err := notDumpable(); err != nil {
				log.Warn("commands of this user can read this process's descriptors and memory through /proc (PR_SET_DUMPABLE failed)", "error", err)
			}
			g.console = true
			cfg, err := g.serverConfig(log)
			if err != nil {
				return err
			}
			defer g.listenConsole(&cfg, "mcp", log)()
			ctx, stop := signalContext(cmd.Context())
			defer stop()
			return mcpserver.ServeStdio(ctx, cfg, os.Stdin, os.Stdout)
		},
	}
	cmd.Flags().StringVar(&logLevel, "log-level", "warn", "what to log on stderr: debug, info, warn or error")
	g.addServerFlags(cmd)
	return cmd
}

// toolsetFor makes the toolset of a session for its client: the options,
// with the policy fitted to what that client shows the model (or to the
// client --client names).
func (g *globalFlags) toolsetFor(opts spillway.Options, log *slog.Logger) func(mcpserver.Client) (*spillway.Toolset, error) {
	return func(c mcpserver.Client) (*spillway.Toolset, error) {
		return spillway.New(g.fitted(opts, c, log))
	}
}

// fitted returns opts with its policy fitted to the client c.
func (g *globalFlags) fitted(opts spillway.Options, c mcpserver.Client, log *slog.Logger) spillway.Options {
	if g.client != "" {
		c.Name = g.client
	}
	p := c.Fit(*opts.Policy)
	if p.ResultBudget != opts.Policy.ResultBudget || p.ErrorResultBudget != opts.Policy.ErrorResultBudget {
		log.Info("results fit the client", "client", c.Name, "result_budget", p.ResultBudget, "error_result_budget", p.ErrorResultBudget)
	}
	opts.Policy = &p
	return opts
}

// toolsetInRoot makes, with no --root, the toolset of a session in its
// client's first root (with --root roots, confined to it too). A --root
// DIR wins over the client's roots: nil.
func (g *globalFlags) toolsetInRoot(opts spillway.Options, rootsOnly bool, log *slog.Logger) func(string, mcpserver.Client) (*spillway.Toolset, error) {
	if opts.Root != "" {
		return nil
	}
	return func(dir string, c mcpserver.Client) (*spillway.Toolset, error) {
		o := g.fitted(opts, c, log)
		o.Cwd = dir
		if rootsOnly {
			o.Root = dir
		}
		return spillway.New(o)
	}
}

// rootsRoot is the --root value that confines each session to its
// client's roots.
const rootsRoot = "roots"

func (g *globalFlags) addServerFlags(cmd *cobra.Command) {
	cmd.Flags().BoolVar(&g.typedResults, "typed-results", false,
		"give tools an outputSchema and results a structuredContent {text, details}; "+
			"most clients then show the model that JSON instead of the text")
}

// serverConfig builds the configuration of spillway mcp and serve from the
// global flags: the policy (--profile, --config, --format), the hardening
// (--root, --sandbox, --no-network), and one toolset per session made from
// them. It first removes the spill directories that
// dead spillway processes left behind.
func (g *globalFlags) serverConfig(log *slog.Logger) (mcpserver.Config, error) {
	p, err := g.serverPolicy()
	if err != nil {
		return mcpserver.Config{}, err
	}
	if p.Timeout >= clientRequestTimeout {
		log.Warn(timeoutWarning(p.Timeout))
	}
	opts := g.hardened(spillway.Options{Policy: &p})
	// --root roots: each session is confined to its client's first root.
	rootsOnly := opts.Root == rootsRoot
	if rootsOnly {
		opts.Root = ""
		if opts.Sandbox {
			return mcpserver.Config{}, fmt.Errorf("--root roots with --sandbox: the sandbox needs its root at start; give --root DIR")
		}
	}
	if err := checkRules(opts, log); err != nil {
		return mcpserver.Config{}, err
	}
	layers, execLines, err := checkHardening(opts) // refuse at start, never run unconfined
	if err != nil {
		return mcpserver.Config{}, err
	}
	if err := g.checkSecretsOutsideRoot(opts.Root, layers); err != nil {
		return mcpserver.Config{}, err
	}
	if in := personRulesIn(opts.Root); opts.Sandbox && len(in) > 0 {
		log.Warn("your own rules are inside --root, where a command may write: one that rewrites them (a script an allowed interpreter runs) changes what the next session allows; give a narrower --root than your home", "dirs", in)
	}
	for _, l := range execLines {
		if strings.HasPrefix(l, "parser-only:") {
			log.Warn("a deny rule is not held at exec under --sandbox: " + strings.TrimPrefix(l, "parser-only: "))
		}
	}
	switch {
	case layers == "":
	case !strings.Contains(layers, "namespaces"):
		log.Warn("bash commands run sandboxed without namespaces: they may change the mode, owner, times and xattrs of files outside the root, and see every process (see docs/reliability.md)", "layers", layers, "no_network", opts.NoNetwork)
	default:
		log.Info("bash commands run sandboxed", "layers", layers, "no_network", opts.NoNetwork)
	}
	for _, dir := range spill.Sweep(p.Spill.Dir) {
		log.Info("removed the spill directory of a dead process", "dir", dir)
	}
	hub := g.consoleHub(opts, log)
	if p.Rules.NoClientForms && hub == nil {
		log.Warn("[rules] no_client_forms = true and this server has no console (serve --console): a command a rule asks about is refused")
	}
	return mcpserver.Config{
		NewToolset:   g.toolsetFor(opts, log),
		NewToolsetIn: g.toolsetInRoot(opts, rootsOnly, log),
		RootsOnly:    rootsOnly,
		Policy:       &p,
		Format:       opts.Format,
		Version:      moduleVersion(),
		Logger:       log,

		TypedResults: g.typedResults,
		Console:      hub,
	}, nil
}

// checkRules loads the command rules at start, in the server's working
// directory, so that a pattern of spillway's own config that cannot be
// used stops spillway mcp and serve with its file and line, not each
// session. An imported rules file that cannot be read or evaluated does
// not stop it: it is named here, as a warning, and makes every command
// ask; so is each entry read the stricter way.
func checkRules(opts spillway.Options, log *slog.Logger) error {
	ts, err := spillway.New(spillway.Options{Policy: opts.Policy, Cwd: opts.Root})
	if err != nil {
		return err
	}
	for _, f := range ts.ImportFailures() {
		log.Warn("import failure: every bash command asks until the file is fixed: " + f)
	}
	for _, n := range ts.RuleNotes() {
		log.Warn("rules: " + n)
	}
	return ts.Close()
}

// serverPolicy is the policy of spillway mcp and serve before it is fitted
// to a client: the layers of loadPolicy, with the MCP default timeout
// (below the clients' request timeout) and the bound on a call's wait.
// It checks --client too, which every command that takes it fits to.
func (g *globalFlags) serverPolicy() (spillway.Policy, error) {
	if err := g.checkClient(); err != nil {
		return spillway.Policy{}, err
	}
	if _, err := g.resultFormat(); err != nil {
		return spillway.Policy{}, err
	}
	src := g.policySources()
	src.TimeoutMS = int(mcpserver.DefaultTimeout.Milliseconds())
	p, err := config.Load(src)
	if err != nil {
		// A client shows no more than "failed to connect"; its log has
		// this.
		return spillway.Policy{}, fmt.Errorf("%w\nthe server did not start: fix the config (spillway doctor lists every problem, and the clients' entries)", err)
	}
	p.MaxWait = max(mcpserver.MaxWait, p.Timeout)
	return p, nil
}

// checkClient refuses a --client spillway does not know.
func (g *globalFlags) checkClient() error {
	if c := (mcpserver.Client{Name: g.client}); c.Name != "" && !c.Known() {
		return fmt.Errorf("--client %q: the clients spillway fits results to are %s; leave --client out for the policy's own budget", c.Name, mcpserver.KnownClients())
	}
	return nil
}

// newLogger returns a logger that writes to stderr at the given level.
func newLogger(level string, def slog.Level) (*slog.Logger, error) {
	l := def
	if level != "" {
		if err := l.UnmarshalText([]byte(level)); err != nil {
			return nil, fmt.Errorf("--log-level %q: want debug, info, warn or error", level)
		}
	}
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: l})), nil
}

// moduleVersion is the version reported to MCP clients: a release's
// version, the module version, or the commit of a development build.
func moduleVersion() string {
	if releaseVersion != "" {
		return releaseVersion
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(devel)"
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" {
			return "(devel) " + s.Value[:min(12, len(s.Value))]
		}
	}
	return "(devel)"
}

// signalContext returns a context cancelled by SIGINT or SIGTERM.
func signalContext(parent context.Context) (context.Context, context.CancelFunc) {
	return signal.NotifyContext(parent, os.Interrupt, syscall.SIGTERM)
}

// envOr returns the value of the environment variable name, or def.
func envOr(name, def string) string {
	if v, ok := os.LookupEnv(name); ok {
		return strings.TrimSpace(v)
	}
	return def
}
