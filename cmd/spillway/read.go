package main

import (
	"context"
	"github.com/spf13/cobra"

	"github.com/spillway-dev/spillway"
)

func init() { commands = append(commands, newReadCmd) }

func newReadCmd() *cobra.Command {
	var in spillway.ReadInput
	cmd := &cobra.Command{
		Use:   "read PATH",
		Short: "Print one page of a file, as the model would get it",
		Long: `read prints one page of a text file: from line --offset, at most --limit
lines (2000 by default) and 50 KiB, lines over 2000 characters cut, with a
notice that says how to continue. Images are not printed; --json prints
their details. Binary files, directories, FIFOs and devices are refused.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			in.Path = args[0]
			return runOnce(cmd, func(ctx context.Context, ts *spillway.Toolset) (string, any, error) {
				res, err := ts.Read(ctx, in)
				return res.Text, res.Details, err
			})
		},
	}
	f := cmd.Flags()
	f.IntVar(&in.Offset, "offset", 0, "first line to show, 1-based (default 1)")
	f.IntVar(&in.Limit, "limit", 0, "most lines to show (default 2000)")
	f.BoolVar(&in.LineNumbers, "line-numbers", false, "prefix each line with its number, cat -n style")
	return cmd
}
