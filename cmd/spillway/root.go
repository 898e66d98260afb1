package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/spillway-dev/spillway"
	"github.com/spillway-dev/spillway/mcpserver"
	"github.com/spillway-dev/spillway/schema"
)

// globalFlags hold the flags of one command tree: those every command
// takes, and those of mcp and serve. newRootCmd makes a new one for each
// tree, so that two trees (in tests) share nothing.
type globalFlags struct {
	json    bool
	root    string
	sandbox bool
	config  string
	profile string
	format  string

	noNetwork  bool
	sandboxMin string
	// tokenFile is serve's --token-file: its directory is hidden from
	// sandboxed commands.
	tokenFile string
	// auditLog is serve's --audit-log, hidden from sandboxed commands.
	auditLog string

	// Of mcp and serve: the shape of results, and the client to fit them to.
	typedResults bool
	client       string
}

func newRootCmd() *cobra.Command {
	g := &globalFlags{}
	root := &cobra.Command{
		Use:   "spillway",
		Short: "Agent tools (bash, read, grep, find, ls) whose results always fit",
		Long: "spillway serves an LLM coding agent " + schema.Summary() + `,
and guarantees that no result can flood the model's context: whatever does
not fit is spilled, whole, to a file the agent can page through.

Each tool command prints exactly the text the model would get (--client
NAME: as that MCP client would show it). The job and history tools are
MCP only: a one-shot command's session ends with it.`,
		SilenceUsage:      true,
		SilenceErrors:     true,
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error { return negativeFlag(cmd) },
	}
	root.SetFlagErrorFunc(flagError)
	// The flags of the tool commands, mcp and serve may come before the
	// command's name too (spillway --root DIR bash …).
	g.addRunFlags(root.PersistentFlags())
	root.PersistentFlags().BoolVar(&g.json, "json", false, `tool commands: print {"text","details","is_error"} instead of the text`)
	root.AddCommand(g.toolCommands()...)
	root.AddCommand(g.newMCPCmd(), g.newServeCmd(), g.newSchemaCmd(), g.newVersionCmd(), g.newDoctorCmd(), g.newRulesCmd())
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		if c.Name() == "version" || c.Name() == "completion" {
			noGlobalFlags(c)
		}
	}
	return root
}

// addRunFlags adds the flags of the commands that run tools: the policy
// and the client it is fitted to, the result's shape, and the confinement
// of the tools. version and completion take them too (they are the root's)
// but do not list them: see noGlobalFlags.
func (g *globalFlags) addRunFlags(f *pflag.FlagSet) {
	f.StringVar(&g.config, "config", "", "TOML config file (default $SPILLWAY_CONFIG, else ~/.config/spillway/config.toml if it exists; see docs/profiles.md)")
	f.StringVar(&g.profile, "profile", "", "limits profile: "+strings.Join(spillway.ProfileNames(), ", "))
	f.StringVar(&g.client, "client", "",
		"fit results to what this MCP client shows the model whole ("+mcpserver.KnownClients()+"); mcp and serve "+
			"otherwise fit each session to the name its client sends, and the tool commands then print what that client's model reads")
	f.StringVar(&g.format, "format", "text", "result format: text or json")
	f.StringVar(&g.root, "root", "", "confine the file tools to this directory; bash starts there (mcp, serve: \"roots\" confines each session to its client's first root)")
	f.BoolVar(&g.sandbox, "sandbox", false, "confine bash commands: Landlock, and namespaces where the kernel allows (needs --root)")
	f.BoolVar(&g.noNetwork, "no-network", false, "with --sandbox, deny bash commands the network (a private loopback only)")
	f.StringVar(&g.sandboxMin, "sandbox-min", "landlock", "with --sandbox, refuse to start unless these layers are available: landlock, scopes, namespaces, seccomp (comma-separated)")
}

// noGlobalFlags leaves the root's flags out of the help of c and its
// subcommands, to which none of them applies.
func noGlobalFlags(c *cobra.Command) {
	t := c.UsageTemplate()
	if i := strings.Index(t, "{{if .HasAvailableInheritedFlags}}"); i >= 0 {
		if j := strings.Index(t[i:], "{{end}}"); j >= 0 {
			t = t[:i] + t[i+j+len("{{end}}"):]
		}
	}
	c.SetUsageTemplate(t)
	for _, sub := range c.Commands() {
		noGlobalFlags(sub)
	}
}

// negativeFlag rejects a negative number given to any integer flag: no
// count, line, pid or duration of spillway's is negative, and a value the
// flag parser cannot read ("--offset abc") is already a usage error, so
// "--offset -5" is one too (exit status 2, not a failed call's 1).
func negativeFlag(cmd *cobra.Command) error {
	var err error
	cmd.Flags().Visit(func(f *pflag.Flag) {
		switch f.Value.Type() {
		case "int", "int64", "int32":
		default:
			return
		}
		if n, e := strconv.ParseInt(f.Value.String(), 10, 64); e == nil && n < 0 && err == nil {
			err = fmt.Errorf("--%s %d: must not be negative", f.Name, n)
		}
	})
	return err
}
