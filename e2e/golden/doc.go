// Package golden records what spillway shows a model — every tool, every
// profile, text and JSON, through the CLI and over MCP — and checks that it
// stays the same. It drives only the built binary, never the Go API, so the
// corpus holds across a rewrite of the library.
//
// The corpus is testdata/golden/, one file per case. To record it again
// after a change that is meant to alter what a model reads:
//
//	go test ./e2e/golden -update
//
// (or GOLDEN_UPDATE=1). Without it, each case is compared with its file and
// a difference fails the test with a diff naming the case. What differs
// from run to run (temporary paths, pids, durations) is replaced before
// recording; normalize_test.go lists each replacement and why.
package golden
