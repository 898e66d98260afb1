package main

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spillway-dev/spillway"
	"github.com/spillway-dev/spillway/mcpserver"
	"github.com/spillway-dev/spillway/schema"
)

func (g *globalFlags) newSchemaCmd() *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "schema",
		Short: "Print the tool definitions for an LLM provider's API",
		Long: `schema prints the definitions of the tools (name, description, input JSON
schema) as JSON, for agents that call the spillway library through their own
provider SDK:

  --format mcp        {"tools": [...]} as MCP tools/list returns it, with
                      annotations (and output schemas with --typed-results)
  --format anthropic  the "tools" array of the Anthropic Messages API
  --format openai     the "tools" array of the OpenAI Chat Completions API

The descriptions state the limits of the policy in force (--profile,
--config).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			// The mcp shape is what spillway mcp lists, with its timeout;
			// the provider shapes are for the library, with its own.
			load := g.loadPolicy
			if format == "mcp" {
				load = g.serverPolicy
			}
			p, err := load()
			if err != nil {
				return err
			}
			if g.client != "" {
				p = mcpserver.Client{Name: g.client}.Fit(p)
			}
			defs, err := toolDefinitions(p, format, g.typedResults)
			if err != nil {
				return err
			}
			enc := json.NewEncoder(cmd.OutOrStdout())
			enc.SetEscapeHTML(false)
			enc.SetIndent("", "  ")
			return enc.Encode(defs)
		},
	}
	// This --format names a provider: results are not printed here.
	cmd.Flags().StringVar(&format, "format", "mcp", "shape of the definitions: mcp, anthropic or openai")
	g.addServerFlags(cmd)
	return cmd
}

// toolDefinitions returns the tools under policy p in the shape of one
// provider's API. typed gives the mcp shape the output schemas of typed
// results.
func toolDefinitions(p spillway.Policy, format string, typed bool) (any, error) {
	switch format {
	case "mcp":
		type list struct {
			Tools []*mcp.Tool `json:"tools"`
		}
		return list{schema.MCP(p, typed)}, nil
	case "anthropic":
		return schema.Anthropic(p), nil
	case "openai":
		return schema.OpenAI(p), nil
	}
	if format == "text" || format == "json" {
		// spillway --format json schema: the tool commands' --format,
		// given before the command's name, lands on schema's own.
		return nil, fmt.Errorf("--format %q is the tool commands' result format (text or json), and schema's --format names a provider's shape: give --format mcp, anthropic or openai (schema prints JSON whichever)", format)
	}
	return nil, fmt.Errorf("--format %q: want mcp, anthropic or openai", format)
}
