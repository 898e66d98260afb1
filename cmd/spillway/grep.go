package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/spillway-dev/spillway"
)

func init() { commands = append(commands, newGrepCmd) }

func newGrepCmd() *cobra.Command {
	var in spillway.GrepInput
	cmd := &cobra.Command{
		Use:   "grep PATTERN [PATH]",
		Short: "Search file contents, as the model would get it",
		Long: `grep searches the files below PATH (default: the current directory) for
an RE2 regular expression, in-process: .gitignore, .ignore and
.git/info/exclude are honoured at every level, .git and binary files are
skipped, other hidden files are searched. Results come in path order, then
line order: "path:LINE: text", context lines "path-LINE- text".

At most --limit matches (100 by default) and 50 KiB are shown; lines are
cut at 500 characters.`,
		Args: cobra.RangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			in.Pattern = args[0]
			if len(args) == 2 {
				in.Path = args[1]
			}
			return runOnce(cmd, func(ctx context.Context, ts *spillway.Toolset) (string, any, error) {
				res, err := ts.Grep(ctx, in)
				return res.Text, res.Details, err
			})
		},
	}
	f := cmd.Flags()
	f.StringVar(&in.Glob, "glob", "", `only files whose path matches, e.g. "*.go" or "src/**/*.ts" ("!glob" excludes)`)
	f.BoolVarP(&in.IgnoreCase, "ignore-case", "i", false, "match without regard to case")
	f.BoolVarP(&in.Literal, "literal", "F", false, "the pattern is a plain string, not a regular expression")
	f.IntVarP(&in.Context, "context", "C", 0, "lines to show before and after each match")
	f.StringVar(&in.OutputMode, "output-mode", "", "content (default), files_with_matches or count")
	f.IntVar(&in.Limit, "limit", 0, "most matches to show (files, in the other modes; default 100)")
	return cmd
}
