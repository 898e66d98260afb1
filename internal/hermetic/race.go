//go:build race

package hermetic

// raceOptions are the race detector's options (GORACE) that the processes
// a race-built test starts get, unless GORACE is set already. By default
// the detector sleeps a second before a process exits, so that goroutines
// still running can report a race; the suites start hundreds of race-built
// processes (servers, and the sandbox's helpers and zygotes, which get the
// server's GORACE), and those seconds were most of their time. A race is
// reported when it happens, not at exit.
const raceOptions = "atexit_sleep_ms=0"
