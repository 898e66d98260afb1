//go:build !race

package hermetic

// raceOptions: without the race detector there are none to give.
const raceOptions = ""
