package main

import (
	"github.com/spillway-dev/spillway"
	"github.com/spillway-dev/spillway/mcpserver"
)

// newCLIToolset returns the toolset of a one-shot CLI command: a session
// that ends at once, spilling into the kept directory of spill.NewCLI so
// that a person can open the files its notices name. Its policy comes from
// --profile, --config (or $SPILLWAY_CONFIG) and --format; with --client,
// it is the MCP server's policy fitted to that client, so that the text is
// the one that client's model would read.
func (g *globalFlags) newCLIToolset() (*spillway.Toolset, error) {
	p, err := g.cliPolicy()
	if err != nil {
		return nil, err
	}
	return spillway.New(g.hardened(spillway.Options{Policy: &p, KeepSpill: true, Asker: ttyAsker}))
}

// cliPolicy is the policy of a tool command: the library's, or with
// --client the MCP server's fitted to that client.
func (g *globalFlags) cliPolicy() (spillway.Policy, error) {
	if g.client == "" {
		return g.loadPolicy()
	}
	p, err := g.serverPolicy()
	if err != nil {
		return spillway.Policy{}, err
	}
	return mcpserver.Client{Name: g.client}.Fit(p), nil
}
