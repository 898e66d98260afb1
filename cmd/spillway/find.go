package main

import (
	"context"
	"github.com/spf13/cobra"

	"github.com/spillway-dev/spillway"
)

func init() { commands = append(commands, newFindCmd) }

func newFindCmd() *cobra.Command {
	var in spillway.FindInput
	cmd := &cobra.Command{
		Use:   "find PATTERN [PATH]",
		Short: "Find files by glob, as the model would get it",
		Long: `find lists the paths below PATH (default: the current directory) that
match a glob: without "/" it matches the name at any depth ("*_test.go"),
with "/" the path relative to PATH ("src/**/*.ts"). Ignore files are
honoured as by grep; results are sorted and directories end in "/". At most
--limit results (1000 by default) and 50 KiB are shown.`,
		Args: cobra.RangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			in.Pattern = args[0]
			if len(args) == 2 {
				in.Path = args[1]
			}
			return runOnce(cmd, func(ctx context.Context, ts *spillway.Toolset) (string, any, error) {
				res, err := ts.Find(ctx, in)
				return res.Text, res.Details, err
			})
		},
	}
	f := cmd.Flags()
	f.IntVar(&in.Limit, "limit", 0, "most results to show (default 1000)")
	f.StringVar(&in.Type, "type", "", "any (default), file or dir")
	return cmd
}
