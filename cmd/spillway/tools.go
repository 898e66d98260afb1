package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"golang.org/x/term"

	"github.com/spillway-dev/spillway"
	"github.com/spillway-dev/spillway/internal/registry"
)

// The tool commands are made from the tools table (internal/registry): each
// positional parameter is an argument, every other parameter a flag of the
// same name in kebab case, with the type, help, default and bounds the
// table gives it. Only what the person wrote is passed on, so that a
// default is the policy's, whichever --profile or --config is in force.

// cliText is what the CLI says back to a command line that does not fit
// a tool: the tool's own words for a person are its registry.CLI.
type cliText struct {
	// manyArgs says what to type instead of too many arguments.
	manyArgs func(args []string) string
	// foreign are the short flags of the same tool elsewhere (grep -r).
	foreign map[string]foreignFlag
}

// grepFlags are grep's and rg's short flags that spillway's grep does
// not take.
var grepFlags = map[string]foreignFlag{
	"r": {"", "it searches directories recursively already"},
	"R": {"", "it searches directories recursively already"},
	"n": {"", "it numbers lines already"},
	"H": {"", "it names the file already"},
	"E": {"", "patterns are RE2 regular expressions already"},
	"P": {"", "patterns are RE2 regular expressions (no look-around)"},
	"l": {"--output-mode files_with_matches", "files with matches is --output-mode files_with_matches"},
	"c": {"--output-mode count", "counts are --output-mode count"},
	"w": {"", `whole words are \bWORD\b in the pattern`},
	"I": {"", "binary files are skipped already"},
}

var cliTexts = map[string]cliText{
	"bash": {
		manyArgs: func(args []string) string { return "quote it, as in spillway bash " + quoted(args) },
	},
	"read": {
		manyArgs: func(args []string) string {
			return "one file a call, as in spillway read " + shellQuote(args[0]) + ", then spillway read " + shellQuote(args[1]) +
				"; to search several files, spillway grep PATTERN DIR"
		},
	},
	"grep": {
		manyArgs: func(args []string) string {
			return "one PATH a call (a directory is searched whole), and a pattern with spaces in quotes, as in spillway grep " +
				quoted(args[:len(args)-1]) + " " + shellQuote(args[len(args)-1])
		},
		foreign: grepFlags,
	},
	"find": {
		manyArgs: func(args []string) string {
			return "quote the glob, or the shell expands it into many names: spillway find '" + commonGlob(args) + "'"
		},
	},
	"ls": {
		manyArgs: func(args []string) string {
			return "one directory a call, as in spillway ls " + shellQuote(args[0])
		},
	},
}

const exitStatusHelp = `Exit status: 0 for a successful call, 1 when the result is an error, 2
for bad usage.`

// toolCommands returns the commands of the tools, in the table's order.

// tool and param are the registry's, under spillway's policy.
type (
	tool  = registry.Tool
	param = registry.Param
)

func (g *globalFlags) toolCommands() []*cobra.Command {
	var cmds []*cobra.Command
	for _, t := range registry.Tools() {
		if !t.MCPOnly {
			cmds = append(cmds, g.toolCommand(t))
		} else {
			cmds = append(cmds, sessionToolCommand(t))
		}
	}
	return cmds
}

// sessionToolCommand is the hidden command of an MCP-only tool: it says
// why the CLI has none, and what to do instead, as --check-pid does.
func sessionToolCommand(t tool) *cobra.Command {
	return &cobra.Command{
		Use:                t.Name,
		Hidden:             true,
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, _ []string) error {
			instead := "use it"
			if s := t.CLI.Instead; s != "" {
				instead = s + "; or use it"
			}
			return fmt.Errorf("%s works across the calls of one session, and each spillway command is a session of its own that ends as it returns, so the CLI has no spillway %s: %s through spillway mcp or serve, where a session lasts as long as its client", t.Name, t.Name, instead)
		},
	}
}

// flagName is the CLI flag of a parameter: its name in kebab case.
func flagName(p param) string { return strings.ReplaceAll(p.Name, "_", "-") }

// toolCommand makes the command of tool t.
func (g *globalFlags) toolCommand(t tool) *cobra.Command {
	text := cliTexts[t.Name]
	short := t.CLI.Short
	if short == "" {
		// A tool with no words of the CLI's own is introduced by its
		// title, as MCP's tools/list does.
		short = t.Title
	}
	use, positional, required := commandUse(t)
	cmd := &cobra.Command{
		Use:     use,
		Short:   short,
		Example: t.CLI.Example,
		Args:    argsCheck(t, text, positional, required),
		RunE: func(cmd *cobra.Command, args []string) error {
			if t.CLI.StdinArg != "" {
				var err error
				if args, err = stdinArgument(t.Name, t.CLI.StdinArg, firstExample(t), cmd.InOrStdin(), stdinIsTerminal(), args); err != nil {
					return err
				}
			}
			call, err := cliCall(cmd, t, positional, args)
			if err != nil {
				return err
			}
			oneShotGC()
			return g.runCall(cmd, call)
		},
	}
	for _, p := range t.Params {
		if !p.Positional {
			addFlag(cmd.Flags(), p, toolFlagUsage(t, p))
		}
	}
	cmd.SetHelpFunc(g.toolHelp(t))
	return cmd
}

// commandUse is the usage line of tool t's command (its name, then its
// positional parameters, optional ones in brackets), those parameters,
// and how many of them must be given.
func commandUse(t tool) (use string, positional []param, required int) {
	use = t.Name
	for _, p := range t.Params {
		if !p.Positional {
			continue
		}
		positional = append(positional, p)
		arg := strings.ToUpper(p.Name)
		if (p.Required || (len(positional) == 1 && zeroRefused(t))) && (len(positional) > 1 || t.CLI.StdinArg == "") {
			required++
		} else {
			arg = "[" + arg + "]"
		}
		use += " " + arg
	}
	return use, positional, required
}

// toolFlagUsage is the help of p's flag: the CLI's own words when it has
// them, else the parameter's, with the values another tool's habit
// gives it.
func toolFlagUsage(t tool, p param) string {
	usage := flagUsage(p)
	if u, ok := t.CLI.Flags[p.Name]; ok {
		usage = u
	}
	if a := valueAliases[t.Name+"."+p.Name]; a != nil {
		var as []string
		for _, k := range slices.Sorted(maps.Keys(a)) {
			as = append(as, k+" for "+a[k])
		}
		usage += "; as in find(1), " + strings.Join(as, ", ")
	}
	return usage
}

// addFlag adds the flag of parameter p to f, of the type that holds p's
// values.
func addFlag(f *pflag.FlagSet, p param, usage string) {
	switch p.Type {
	case registry.String:
		f.StringP(flagName(p), p.Short, "", usage)
	case registry.Int, registry.Millis:
		f.Int64P(flagName(p), p.Short, 0, usage)
	case registry.Bool:
		f.BoolP(flagName(p), p.Short, false, usage)
	case registry.StringList:
		f.StringArrayP(flagName(p), p.Short, nil, usage+" (repeatable)")
	case registry.ObjectList:
		f.StringP(flagName(p), p.Short, "", usage+" As JSON, e.g. --"+flagName(p)+" '[{\"old_string\": \"a\", \"new_string\": \"b\"}]'.")
	case registry.StringMap:
		// The doc's example is the JSON a model sends; a person gives
		// one KEY=VALUE a flag.
		doc, _, _ := strings.Cut(usage, ", e.g.")
		f.StringArrayP(flagName(p), p.Short, nil, strings.TrimSuffix(doc, ".")+
			", as KEY=VALUE (repeatable), e.g. --"+flagName(p)+" CI=1")
	}
	if p.SessionOnly {
		// Parsed, so that using one says why it cannot work here.
		f.MarkHidden(flagName(p))
	}
}

// toolHelp is the help of tool t's command. It states the defaults and
// limits of the policy in force, known once --profile and --config have
// been parsed: the limits as the tool applies them, held to the result
// budget, so that the figure a notice gives is the one the help gives.
func (g *globalFlags) toolHelp(t tool) func(*cobra.Command, []string) {
	return func(cmd *cobra.Command, args []string) {
		p, err := g.cliPolicy()
		if err != nil {
			p = spillway.DefaultPolicy()
		}
		setDefaults(cmd, t, p)
		status := exitStatusHelp
		if t.CLI.ExitStatus != "" {
			status = t.CLI.ExitStatus
		}
		cmd.Long = strings.Join(slices.DeleteFunc([]string{t.CLI.Long, "For the model, the tool reads:\n\n" + wrapText(indent(t.Describe(p.WithinBudget())), helpWidth), status}, func(s string) bool { return s == "" }), "\n\n")
		cmd.Parent().HelpFunc()(cmd, args)
	}
}

// flagUsage is a parameter's help: its doc and its bounds. Backquotes are
// dropped: pflag would take the first quoted word for the value's name.
func flagUsage(p param) string {
	doc := strings.ReplaceAll(p.Doc, "`", "")
	if b := p.Bounds(); b != "" {
		return doc + " (" + b + ")"
	}
	return doc
}

// setDefaults shows, as each flag's default, the value the policy p gives
// its parameter.
func setDefaults(cmd *cobra.Command, t tool, p spillway.Policy) {
	for _, prm := range t.Params {
		if f := cmd.Flags().Lookup(flagName(prm)); f != nil && prm.Default != nil {
			f.DefValue = fmt.Sprint(prm.Default(p))
		}
	}
}

func indent(s string) string {
	return "  " + strings.ReplaceAll(s, "\n", "\n  ")
}

// valueAliases are the values a person types from another tool's habit
// (find -type f), by tool.parameter, and the value they mean.
var valueAliases = map[string]map[string]string{
	"find.type": {"f": "file", "d": "dir"},
}

// cliCall builds the call of tool t from the command line: the arguments,
// and the flags that were given, as the JSON object an MCP client sends.
func cliCall(cmd *cobra.Command, t tool, positional []param, args []string) (spillway.ToolCall, error) {
	values := map[string]any{}
	for i, a := range args {
		values[positional[i].Name] = a
	}
	var err error
	cmd.Flags().Visit(func(f *pflag.Flag) {
		p, ok := t.Param(strings.ReplaceAll(f.Name, "-", "_"))
		if !ok || err != nil {
			return // a global flag
		}
		switch p.Type {
		case registry.String:
			v, _ := cmd.Flags().GetString(f.Name)
			if a, ok := valueAliases[t.Name+"."+p.Name][v]; ok {
				v = a
			}
			values[p.Name] = v
		case registry.Int, registry.Millis:
			values[p.Name], _ = cmd.Flags().GetInt64(f.Name)
		case registry.Bool:
			values[p.Name], _ = cmd.Flags().GetBool(f.Name)
		case registry.StringList:
			values[p.Name], _ = cmd.Flags().GetStringArray(f.Name)
		case registry.ObjectList:
			s, _ := cmd.Flags().GetString(f.Name)
			if !json.Valid([]byte(s)) {
				err = fmt.Errorf("%s: --%s: want a JSON list of objects, e.g. '[{\"old_string\": \"a\", \"new_string\": \"b\"}]'", t.Name, f.Name)
				return
			}
			values[p.Name] = json.RawMessage(s)
		case registry.StringMap:
			kvs, _ := cmd.Flags().GetStringArray(f.Name)
			m := make(map[string]string, len(kvs))
			for _, kv := range kvs {
				k, v, ok := strings.Cut(kv, "=")
				if !ok || k == "" {
					err = fmt.Errorf("%s: --%s %q: want KEY=VALUE", t.Name, f.Name, kv)
					return
				}
				m[k] = v
			}
			values[p.Name] = m
		}
	})
	if err != nil {
		return spillway.ToolCall{}, err
	}
	raw, err := json.Marshal(values)
	return spillway.ToolCall{Name: t.Name, Args: raw}, err
}

// runCall runs a call on a one-shot toolset and prints its result. Ctrl-C
// or SIGTERM cancels it: a command's process group gets SIGTERM, then
// SIGKILL after 2s. Arguments that do not fit the tool are bad usage
// (exit status 2); a call that could not be made is printed as the model
// would read it (exit status 1).
func (g *globalFlags) runCall(cmd *cobra.Command, call spillway.ToolCall) error {
	ts, err := g.newCLIToolset()
	if err != nil {
		return err
	}
	defer ts.Close()
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if call.Name == "bash" {
		var stdin *os.File
		if call, stdin, err = withStdin(cmd, call); err != nil {
			return err
		}
		if stdin != nil {
			ctx = spillway.WithCallInfo(ctx, spillway.CallInfo{Stdin: stdin})
		}
	}
	res, err := ts.Call(ctx, call)
	var argsErr *spillway.ArgsError
	switch {
	case errors.As(err, &argsErr):
		return err
	case err != nil:
		return g.printFailure(cmd.OutOrStdout(), ts.Format(), err)
	}
	text := res.Text
	if !g.modelText && g.client == "" && ts.Format() != spillway.FormatJSON {
		text = personText(text, res.Details, cmd, call)
	}
	d, ok := res.Details.(spillway.BashDetails)
	if !ok {
		return g.printResult(cmd.OutOrStdout(), text, res.Details, res.IsError)
	}
	// A command spillway stopped is no success, here as in the exit
	// status: --json's is_error says the same as the status does.
	status := bashStatus(d, res.IsError)
	err = g.printResult(cmd.OutOrStdout(), text, res.Details, res.IsError || status != 0)
	if d.Running {
		fmt.Fprintf(cmd.ErrOrStderr(), "spillway: the session of a one-shot command ends here, so background job %d is being stopped\n", d.PID)
	}
	if err != nil && !errors.As(err, new(exitError)) {
		return err
	}
	if status != 0 {
		return exitError(status)
	}
	return nil
}

// bashStatus is the exit status of spillway bash: the command's own
// (128+N for signal N), or 124 when spillway stopped it, as timeout(1)
// does: the one-shot session ends with the call, so a command still
// running after its timeout, or waiting for input, is stopped then. A
// command that never ran (a rule held it, it could not start) is 1.
func bashStatus(d spillway.BashDetails, isError bool) int {
	switch {
	case d.ExitCode != nil:
		return *d.ExitCode
	case d.Running:
		return 124
	case isError:
		return 1
	}
	return 0
}

// withStdin gives a bash command the CLI's own stdin when it is not a
// terminal (a pipe, a file), or when --stdin asks for it, so that
// "echo hello | spillway bash 'read x'" reads hello; otherwise the
// command's stdin is /dev/null, as the model's is. A terminal is never
// passed: the command runs in a process group of its own, which the
// terminal stops when it reads.
func withStdin(cmd *cobra.Command, call spillway.ToolCall) (spillway.ToolCall, *os.File, error) {
	var args map[string]any
	if json.Unmarshal(call.Args, &args) != nil {
		return call, nil, nil
	}
	asked, _ := args["stdin"].(bool)
	if tty, _ := args["tty"].(bool); tty {
		return call, nil, nil
	}
	fi, err := os.Stdin.Stat()
	terminal := err == nil && fi.Mode()&os.ModeCharDevice != 0 && term.IsTerminal(int(os.Stdin.Fd()))
	switch {
	case asked && (err != nil || terminal):
		return call, nil, errors.New("--stdin passes spillway's own stdin to the command, and here it is a terminal (or closed), which a command running in its own process group cannot read: pipe the input in, as in printf 'y\\n' | spillway bash " + shellQuote(fmt.Sprint(args["command"])) + ", or give a file with < FILE")
	case err != nil || terminal:
		return call, nil, nil
	}
	delete(args, "stdin")
	raw, err := json.Marshal(args)
	if err != nil {
		return call, nil, err
	}
	call.Args = raw
	return call, os.Stdin, nil
}
