//go:build race && !spillway_portable

package sandbox

import "os"

// raceEnv: a binary built with the race detector hands its race options
// (GORACE) to the helpers it starts from itself, so that they report
// where it reports and wait at exit as long as it does. With the
// detector's default each helper slept a second before it exited, and the
// probes of one start of a race-built server waited ten seconds for
// nothing. Release binaries are not built with the race detector.
func raceEnv() []string {
	if v, ok := os.LookupEnv("GORACE"); ok {
		return []string{"GORACE=" + v}
	}
	return nil
}
