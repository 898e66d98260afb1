package main

import (
	"os"
	"runtime/debug"
)

// oneShotGC sets the garbage collector for a process that answers one
// tool call and exits. Go starts collecting at a 4 MB heap; a grep over a
// large tree got there three to five times, and every collection marks
// what the package inits left (the MCP server's, the schema library's)
// as well as the search's few live megabytes. Letting the heap grow four
// times its live size rather than twice leaves such a call one collection
// or none. Its memory stays bounded all the same: the output pipeline
// holds a bounded window and spills the rest. GOGC, when set, decides.
func oneShotGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
}
