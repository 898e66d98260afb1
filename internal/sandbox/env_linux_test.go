//go:build !spillway_portable

package sandbox

import (
	"strings"
	"testing"

	"github.com/spillway-dev/spillway/internal/race"
)

// The helpers start from an environment of their own: nothing of the
// server's reaches them, and an empty one is not nil (which would be the
// parent's whole environment). A race-built binary adds its GORACE only.
func TestHelperEnvironmentIsTheirOwn(t *testing.T) {
	t.Setenv("LD_PRELOAD", "/tmp/evil.so")
	t.Setenv("GODEBUG", "x=1")
	t.Setenv("GORACE", "atexit_sleep_ms=0")
	for name, env := range map[string][]string{"helper": helperEnv(), "resident": residentEnv()} {
		if env == nil {
			t.Errorf("%s environment is nil: the helper would inherit the server's", name)
		}
		for _, kv := range env {
			switch {
			case kv == "GOMAXPROCS=1" && name == "resident":
			case kv == "GORACE=atexit_sleep_ms=0" && race.Enabled:
			default:
				t.Errorf("%s environment has %q", name, kv)
			}
			if strings.HasPrefix(kv, "LD_") || strings.HasPrefix(kv, "GODEBUG") {
				t.Errorf("%s environment has the server's %q", name, kv)
			}
		}
	}
}
