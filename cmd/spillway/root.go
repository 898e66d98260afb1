package main

import (
	"fmt"
	"strconv"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
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

	// Of mcp and serve: the shape of results, and the client to fit them to.
	typedResults bool
	client       string
}

func newRootCmd() *cobra.Command {
	g := &globalFlags{}
	root := &cobra.Command{
		Use:   "spillway",
		Short: "Agent tools (bash, read, grep, find, ls) whose results always fit",
		Long: `spillway runs the five tools an LLM coding agent lives on and guarantees
that no result can flood the model's context: whatever does not fit is
spilled, whole, to a file the agent can page through.

Each tool command prints exactly the text the model would get.`,
		SilenceUsage:      true,
		SilenceErrors:     true,
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error { return negativeFlag(cmd) },
	}
	pf := root.PersistentFlags()
	pf.BoolVar(&g.json, "json", false, `print {"text","details","is_error"} instead of the text`)
	pf.StringVar(&g.root, "root", "", "confine the file tools to this directory; bash starts there (mcp, serve: \"roots\" confines each session to its client's first root)")
	pf.BoolVar(&g.sandbox, "sandbox", false, "confine bash commands: Landlock, and namespaces where the kernel allows (needs --root)")
	pf.BoolVar(&g.noNetwork, "no-network", false, "with --sandbox, deny bash commands the network (a private loopback only)")
	pf.StringVar(&g.sandboxMin, "sandbox-min", "landlock", "with --sandbox, refuse to start unless these layers are available: landlock, scopes, namespaces, seccomp (comma-separated)")
	pf.StringVar(&g.config, "config", "", "TOML config file (default $SPILLWAY_CONFIG)")
	pf.StringVar(&g.profile, "profile", "", "limits profile: default, pi, zdx, opencode, macos-shell, pipe, claude-code")
	pf.StringVar(&g.format, "format", "text", "result format: text or json")
	root.AddCommand(g.toolCommands()...)
	root.AddCommand(g.newMCPCmd(), g.newServeCmd(), g.newSchemaCmd(), newVersionCmd())
	return root
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
