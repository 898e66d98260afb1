//go:build race

package search

// raceEnabled: the race detector makes a scan of many megabytes take
// seconds, so tests that compare whole searches run fewer of them under it.
const raceEnabled = true
