package main

import (
	"context"
	"github.com/spf13/cobra"

	"github.com/spillway-dev/spillway"
)

func init() { commands = append(commands, newLsCmd) }

func newLsCmd() *cobra.Command {
	var in spillway.LsInput
	cmd := &cobra.Command{
		Use:   "ls [PATH]",
		Short: "List a directory, as the model would get it",
		Long: `ls lists a directory (default: the current one): names sorted
case-insensitively, dotfiles included, directories ending in "/" and
symlinks in "@", at most --limit entries (500 by default) and 50 KiB.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				in.Path = args[0]
			}
			return runOnce(cmd, func(ctx context.Context, ts *spillway.Toolset) (string, any, error) {
				res, err := ts.Ls(ctx, in)
				return res.Text, res.Details, err
			})
		},
	}
	cmd.Flags().IntVar(&in.Limit, "limit", 0, "most entries to show (default 500)")
	return cmd
}
