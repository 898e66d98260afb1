//go:build !race

package term

const raceSlowdown = 1
