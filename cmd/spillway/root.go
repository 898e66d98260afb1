package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/spillway-dev/spillway/internal/policy"
	"github.com/spillway-dev/spillway/mcpserver"
	"github.com/spillway-dev/spillway/schema"
)

// globalFlags hold the flags of one command tree: those every command
// takes, and those of mcp and serve. newRootCmd makes a new one for each
// tree, so that two trees (in tests) share nothing.
type globalFlags struct {
	json bool
	// modelText prints the tool's text as the model reads it: hints as
	// tool parameters, not spillway commands.
	modelText bool
	root      string
	sandbox   bool
	config    string
	profile   string
	format    string

	noNetwork  bool
	sandboxMin string
	// tokenFile is serve's --token-file: its directory is hidden from
	// sandboxed commands.
	tokenFile string
	// tokenDir is the directory serve writes its token file to, "" when
	// it writes none (a token given, or --token-file -).
	tokenDir string
	// tokenInArgs: serve's token was given with --token, on its command
	// line.
	tokenInArgs bool
	// auditLog is serve's --audit-log, hidden from sandboxed commands.
	auditLog string

	// Of mcp and serve: the shape of results, and the client to fit them to.
	typedResults bool
	client       string
	// console: the server shows its sessions on spillway console (mcp
	// always, serve with --console); consoleCredential scopes a serve's
	// sessions to the consoles that present its token.
	console           bool
	consoleCredential string
}

func newRootCmd() *cobra.Command {
	g := &globalFlags{}
	root := &cobra.Command{
		Use:   "spillway",
		Short: "Agent tools (bash, read, grep, find, ls) whose results always fit",
		Long: "spillway serves an LLM coding agent " + schema.Summary() + `,
and guarantees that no result can flood the model's context: whatever does
not fit is spilled, whole, to a file the agent can page through.

Each tool command prints the text the model would get, with its hints
said as spillway commands ("Run spillway read FILE --offset 688"), so
that a person or a script can follow them; --model-text prints the
model's text as it is, and --client NAME as that MCP client shows it.
The job and history tools, and the parameters that act on an earlier
call (check_pid, kill_pid, run_in_background, session, diff_with), are
MCP only: each command is a session of its own that ends as it returns.

--profile NAME makes the tools behave like another harness's own
(its limits and notices); --client NAME fits the results to what an MCP
client shows its model. Profiles:
` + profileHelp(),
		SilenceUsage:      true,
		SilenceErrors:     true,
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error { return negativeFlag(cmd) },
	}
	root.SetFlagErrorFunc(flagError)
	// The flags of the tool commands, mcp and serve may come before the
	// command's name too (spillway --root DIR bash …).
	g.addRunFlags(root.PersistentFlags())
	root.PersistentFlags().BoolVar(&g.json, "json", false, `tool commands: print the result for a script, {"text","details","is_error"}, instead of the text (--format json is the model's own JSON result)`)
	root.PersistentFlags().BoolVar(&g.modelText, "model-text", false, "tool commands: print the text exactly as an MCP client's model reads it, its hints as tool parameters (offset=688) instead of spillway commands; --client NAME implies it")
	root.AddCommand(g.toolCommands()...)
	root.AddCommand(g.newMCPCmd(), g.newServeCmd(), g.newSchemaCmd(), g.newVersionCmd(), g.newDoctorCmd(), g.newRulesCmd(), g.newConsoleCmd())
	root.InitDefaultCompletionCmd()
	// The long help is wrapped when it is shown: wrapping every command's
	// at each start cost a tool call about a millisecond of CPU.
	help := root.HelpFunc()
	root.SetHelpFunc(func(c *cobra.Command, args []string) {
		c.Long = wrapText(c.Long, helpWidth)
		help(c, args)
	})
	// The flags' help too: a terminal would break a long one mid-word.
	root.SetUsageTemplate(strings.NewReplacer(
		".LocalFlags.FlagUsages", "(.LocalFlags.FlagUsagesWrapped "+strconv.Itoa(helpWidth)+")",
		".InheritedFlags.FlagUsages", "(.InheritedFlags.FlagUsagesWrapped "+strconv.Itoa(helpWidth)+")",
	).Replace(root.UsageTemplate()))
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
	f.StringVar(&g.profile, "profile", "", "behave like another harness's own tools, its limits and notices (see spillway --help): "+strings.Join(policy.ProfileNames(), ", "))
	f.StringVar(&g.client, "client", "",
		"fit results to what this MCP client shows the model whole ("+mcpserver.KnownClients()+"); mcp and serve "+
			"otherwise fit each session to the name its client sends; the tool commands then print exactly what that client's model reads")
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

// profileHelp lists the profiles with what each is, one a line.
func profileHelp() string {
	var b strings.Builder
	for _, p := range policy.Profiles() {
		fmt.Fprintf(&b, "  %-12s %s\n", p.Name, p.Words)
	}
	return strings.TrimRight(b.String(), "\n")
}

// helpWidth is the width of the help's prose: a terminal's 80 columns.
const helpWidth = 80

// wrapText breaks each line of s longer than width at spaces; a
// continuation keeps the line's indent, and a list item's ("- ") text.
// The lines of a paragraph of prose (not indented) are joined first, so
// that a paragraph made of pieces (the tools' summary, a sentence added
// to a hand-wrapped one) is wrapped as one, with no short line inside;
// indented lines (tables, commands) keep their breaks.
func wrapText(s string, width int) string {
	var out []string
	for _, line := range joinProse(strings.Split(s, "\n")) {
		body := strings.TrimLeft(line, " ")
		indent := line[:len(line)-len(body)]
		hang := indent
		if strings.HasPrefix(body, "- ") {
			hang += "  "
		}
		cur := indent
		words := strings.Split(body, " ")
		for i, w := range words {
			switch {
			case i == 0:
				cur += w
			case len(cur)+1+len(w) > width && strings.TrimSpace(cur) != "":
				out = append(out, cur)
				cur = hang + w
			default:
				cur += " " + w
			}
		}
		out = append(out, cur)
	}
	return strings.Join(out, "\n")
}

// joinProse joins each line of prose to the one before it when both are
// prose: not empty, not indented, and not the start of a list item.
func joinProse(lines []string) []string {
	var out []string
	prose := func(l string) bool { return l != "" && l[0] != ' ' && l[0] != '\t' }
	for _, l := range lines {
		if n := len(out); n > 0 && prose(out[n-1]) && prose(l) && !strings.HasPrefix(l, "- ") {
			out[n-1] = strings.TrimRight(out[n-1], " ") + " " + l
			continue
		}
		out = append(out, l)
	}
	return out
}
