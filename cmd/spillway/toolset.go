package main

import (
	"context"

	"github.com/spf13/cobra"
	"github.com/spillway-dev/spillway"
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
	return spillway.New(hardened(spillway.Options{Policy: &p, KeepSpill: true}))
}

// runOnce runs one tool call on a one-shot toolset and prints its result:
// call returns the result's text and details, or the error of a call that
// could not be made, which is printed as the model would read it.
func runOnce(cmd *cobra.Command, call func(context.Context, *spillway.Toolset) (string, any, error)) error {
	ts, err := newCLIToolset()
	if err != nil {
		return err
	}
	defer ts.Close()
	text, details, err := call(cmd.Context(), ts)
	if err != nil {
		return printFailure(cmd.OutOrStdout(), ts.Policy().Format, err)
	}
	return printResult(cmd.OutOrStdout(), text, details, false)
}
