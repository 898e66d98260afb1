// Package e2e drives the MCP clients people run — Claude Code, Codex,
// Gemini CLI and opencode, installed from npm — against spillway, with a
// stand-in for their model API on 127.0.0.1, and checks what the model
// would read. Gemini CLI and opencode get the README's entries for them,
// read from README.md. It holds tests only; each client's tests skip
// unless SPILLWAY_E2E_CLAUDE, SPILLWAY_E2E_CODEX, SPILLWAY_E2E_GEMINI or
// SPILLWAY_E2E_OPENCODE names its binary (.ci/clients.sh installs them and
// sets all four). SPILLWAY_E2E_DUMP=FILE writes what the model read to
// FILE and the client's own output to FILE.log. SPILLWAY_E2E_FACTS=1 runs
// TestFactsThroughClients: the facts corpus of bench/facts through each
// client's own shell tool and through spillway, as the model reads it.
// SPILLWAY_E2E_SLOW=1 runs the sessions kept out of `go test ./...` for
// time: file changes through spillway with the clients' own edit tools
// off, and an ask approved in spillway console.
package e2e
