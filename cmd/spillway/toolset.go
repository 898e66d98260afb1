package main

import (
	"github.com/spillway-dev/spillway"
)

// newCLIToolset returns the toolset of a one-shot CLI command: a session
// that ends at once, spilling into the kept $TMPDIR/spillway-<uid>/cli/ so
// that a person can open the files its notices name. Its policy comes from
// --profile, --config (or $SPILLWAY_CONFIG) and --format.
func (g *globalFlags) newCLIToolset() (*spillway.Toolset, error) {
	p, err := g.loadPolicy()
	if err != nil {
		return nil, err
	}
	return spillway.New(g.hardened(spillway.Options{Policy: &p, KeepSpill: true}))
}
