//go:build race

package output

// raceEnabled: the race detector makes the 1 GiB streams take minutes, so
// they shrink to 64 MiB under it (memory is still checked).
const raceEnabled = true
