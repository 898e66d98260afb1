package main

import (
	"context"

	"github.com/spf13/cobra"
	"github.com/spillway-dev/spillway"
	"github.com/spillway-dev/spillway/internal/spill"
)

// newCLIToolset returns the toolset of a one-shot CLI command: a session
// that ends at once, spilling into the kept $TMPDIR/spillway-<uid>/cli/ so
// that a person can open the files its notices name. Its policy comes from
// --profile, --config (or $SPILLWAY_CONFIG) and --format.
func newCLIToolset() (*spillway.Toolset, error) {
	p, err := loadPolicy()
	if err != nil {
		return nil, err
	}
	return spillway.New(hardened(spillway.Options{ // issue 7: --root, --sandbox, --no-network
		Policy:     &p,
		SpillStore: spill.NewCLI(p.Spill.StoreConfig()),
	}))
}

// runOnce runs one tool call on a one-shot toolset and prints its result:
// call returns the result's text, details and is_error.
func runOnce(cmd *cobra.Command, call func(context.Context, *spillway.Toolset) (string, any, bool)) error {
	ts, err := newCLIToolset()
	if err != nil {
		return err
	}
	defer ts.Close()
	text, details, isError := call(cmd.Context(), ts)
	return printResult(cmd.OutOrStdout(), text, details, isError)
}
