// Package e2e drives the MCP clients people run — Claude Code and Codex,
// installed from npm — against spillway, with a stand-in for their model
// API on 127.0.0.1, and checks what the model would read. It holds tests
// only; they skip unless SPILLWAY_E2E_CLAUDE or SPILLWAY_E2E_CODEX name
// the clients' binaries (.ci/run installs them and sets both).
package e2e
