// Package golden records what spillway shows a model — every tool, every
// profile, text and JSON, through the CLI and over MCP — and checks that it
// stays the same. It drives only the built binary (go build ./cmd/spillway),
// never the Go API, so the corpus holds across a rewrite of the library.
//
// The corpus is testdata/golden/, one file per case:
//
//   - cli/PROFILE/{text,json}/CASE: `spillway --profile P --format F …` in
//     a fixed fixture directory: the command line, exit status, stdout and
//     stderr. cli/help, cli/usage, cli/json-flag, cli/root, cli/client and
//     cli/schema hold the rest of the CLI.
//   - mcp/SESSION/NN-CALL: one `spillway mcp` process per session, driven
//     by hand-written JSON-RPC over stdio (initialize, tools/list,
//     tools/call in order); each file is a request and the response, with
//     the text the model reads printed verbatim below it.
//
// To compare (a difference fails the test with a diff naming the case):
//
//	go test ./e2e/golden
//
// To record it again after a change that is meant to alter what a model
// reads (remove testdata/golden first to drop cases that no longer exist):
//
//	go test ./e2e/golden -update    # or GOLDEN_UPDATE=1
//
// What differs from run to run (the work root, spill file names, pids,
// durations, times) is replaced before recording; normalize_test.go lists
// each replacement and why. Background jobs print only when the test
// signals them through a file, so no result depends on the machine's load.
// The corpus skips under -short and off Linux.
package golden
