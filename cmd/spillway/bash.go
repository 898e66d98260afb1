package main

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/spillway-dev/spillway"
)

func init() { commands = append(commands, newBashCmd) }

func newBashCmd() *cobra.Command {
	var in spillway.BashInput
	var env []string
	var timeoutMS, checkPID, killPID int
	cmd := &cobra.Command{
		Use:   "bash COMMAND",
		Short: "Run a shell command and print its result as the model would get it",
		Long: `bash runs COMMAND with bash -c (stdin from /dev/null, its own process
group) and prints stdout and stderr, each cut to fit its limits, with the
exit code. What does not fit is kept whole in a file under
$TMPDIR/spillway-<uid>/cli/ that the notice names.

A command still running after --timeout, or children it leaves running,
become a background job of the session. A one-shot command is a session of
its own that ends when the command returns, so such jobs are stopped then
(SIGTERM, SIGKILL after 2s); --check-pid and --kill-pid are here for
completeness and reach the jobs of the same session only.

Exit status: 0 for a successful call, 1 when the result is an error (a
non-zero exit code included), 2 for bad usage.`,
		Example: `  spillway bash 'seq 1 100000'
  spillway bash --timeout 5000 'make test'
  spillway bash --env GOFLAGS=-count=1 --cwd ./sub 'go test ./...'`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				in.Command = args[0]
			}
			if err := checkBashUsage(cmd, in.Command, checkPID, killPID); err != nil {
				return err
			}
			in.Timeout = time.Duration(timeoutMS) * time.Millisecond
			vars, err := parseEnv(env)
			if err != nil {
				return err
			}
			in.Env = vars

			ts, err := newCLIToolset()
			if err != nil {
				return err
			}
			// Ctrl-C or SIGTERM cancels the call: the command's process
			// group gets SIGTERM, then SIGKILL after 2s.
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			var res spillway.BashResult
			switch {
			case checkPID != 0:
				res, err = ts.CheckJob(ctx, spillway.CheckJobInput{PID: checkPID})
			case killPID != 0:
				res, err = ts.KillJob(ctx, spillway.KillJobInput{PID: killPID})
			default:
				res, err = ts.Bash(ctx, in)
			}
			if err != nil {
				err = printFailure(cmd.OutOrStdout(), ts.Policy().Format, err)
				ts.Close()
				return err
			}
			err = printResult(cmd.OutOrStdout(), res.Text, res.Details, res.IsError)
			if res.Details.Running {
				fmt.Fprintf(cmd.ErrOrStderr(), "spillway: the session of a one-shot command ends here, so background job %d is being stopped\n", res.Details.PID)
			}
			ts.Close()
			return err
		},
	}
	f := cmd.Flags()
	f.IntVar(&timeoutMS, "timeout", 0, "milliseconds after which the command is backgrounded, not killed (default 120000)")
	f.BoolVar(&in.RunInBackground, "run-in-background", false, "start the command in the background and return at once with its pid")
	f.StringVar(&in.Cwd, "cwd", "", "working directory (default: the current one)")
	f.StringArrayVar(&env, "env", nil, "extra environment variable KEY=VALUE (repeatable)")
	f.IntVar(&in.MaxLines, "max-lines", 0, "most lines shown of each stream (default 2000)")
	f.IntVar(&in.MaxBytes, "max-bytes", 0, "most bytes shown of each stream (default 51200)")
	f.BoolVar(&in.FullOutput, "full-output", false, "show everything up to the hard ceiling (1 MiB a stream)")
	f.IntVar(&checkPID, "check-pid", 0, "status and new output of a background job (of this session)")
	f.IntVar(&killPID, "kill-pid", 0, "stop a background job (of this session) and print its final output")
	f.BoolVar(&in.TTY, "tty", false, "run the command on a terminal (120x40, TERM=dumb); stdout and stderr arrive as one stream")
	f.BoolVar(&in.Stdin, "stdin", false, "give the command a pipe as stdin instead of /dev/null (a one-shot command gets no input: it is told it waits for it)")
	return cmd
}

// checkBashUsage reports a call that names no command or more than one
// thing to do, or gives a job call the flags of a new command: bad usage,
// exit status 2.
func checkBashUsage(cmd *cobra.Command, command string, checkPID, killPID int) error {
	given := 0
	for _, ok := range []bool{command != "", checkPID != 0, killPID != 0} {
		if ok {
			given++
		}
	}
	if given != 1 {
		return errors.New("bash: give exactly one of COMMAND, --check-pid or --kill-pid (see spillway bash --help)")
	}
	if command != "" {
		return nil
	}
	var extra []string
	for _, name := range []string{"timeout", "run-in-background", "cwd", "env", "max-lines", "max-bytes", "full-output"} {
		if cmd.Flags().Changed(name) {
			extra = append(extra, "--"+name)
		}
	}
	if len(extra) > 0 {
		return fmt.Errorf("bash: --check-pid and --kill-pid take no other flag (got %s): a background command keeps the limits it was started with", strings.Join(extra, ", "))
	}
	return nil
}

// parseEnv reads the --env KEY=VALUE flags.
func parseEnv(flags []string) (map[string]string, error) {
	if len(flags) == 0 {
		return nil, nil
	}
	vars := make(map[string]string, len(flags))
	for _, kv := range flags {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("bash: --env %q: want KEY=VALUE", kv)
		}
		vars[k] = v
	}
	return vars, nil
}
