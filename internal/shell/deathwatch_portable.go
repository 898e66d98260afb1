//go:build unix && (!linux || spillway_portable)

package shell

// watchParent is true where there is no parent-death signal (and on Linux
// with -tags spillway_portable, so that CI runs the watcher).
const watchParent = true
