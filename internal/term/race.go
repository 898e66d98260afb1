//go:build race

package term

// raceSlowdown is how much slower the race detector makes the emulator:
// the ceiling of its work is the production binary's, times this.
const raceSlowdown = 10
