package main

import (
	"github.com/spillway-dev/spillway"
	"github.com/spillway-dev/spillway/spill"
)

// newCLIToolset returns the toolset of a one-shot CLI command: a session
// that ends at once, spilling into the kept $TMPDIR/spillway-<uid>/cli/ so
// that a person can open the files its notices name.
func newCLIToolset() (*spillway.Toolset, error) {
	return spillway.New(spillway.Options{
		SpillStore: spill.NewCLI(spill.Config{}),
	})
}
