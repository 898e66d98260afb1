//go:build race

package mcpserver_test

// Under the race detector the server binary is built with it too, so that
// the integration tests check the server's own concurrency.
func init() { buildFlags = append(buildFlags, "-race") }
