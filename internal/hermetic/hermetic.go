// Package hermetic gives a test binary an environment of its own before any
// test runs: a fresh HOME, XDG_CONFIG_HOME, XDG_CACHE_HOME,
// XDG_RUNTIME_DIR and TMPDIR, and no SPILLWAY_* variable but the switches
// the suites read on purpose. A config file the person left in
// ~/.config/spillway (even a broken one), a $SPILLWAY_CONFIG, or the
// SPILLWAY_JOB mark a command run through spillway inherits then cannot
// change a result. Under the race detector it also sets GORACE, when it is
// not set, for the processes the tests start (see raceOptions).
//
// Each test package calls it from its TestMain:
//
//	func TestMain(m *testing.M) { hermetic.Main(m) }
//
// or, when its TestMain does more, Setup before m.Run and the function
// Setup returns after it.
package hermetic

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spillway-dev/spillway/internal/race"
)

// raceOptions are the race detector's options (GORACE) that the processes
// a race-built test starts get, unless GORACE is set already. By default
// the detector sleeps a second before a process exits, so that goroutines
// still running can report a race; the suites start hundreds of race-built
// processes (servers, and the sandbox's helpers and zygotes, which get the
// server's GORACE), and those seconds were most of their time. A race is
// reported when it happens, not at exit.
const raceOptions = "atexit_sleep_ms=0"

// Switches are the SPILLWAY_* variables kept: each is a deliberate choice
// of what the suite runs (the sandboxed lifecycle suite, the pi peer's
// source, the clients and npm packages of e2e/, a big diff, a benchmark's
// input), set by .ci/run or by hand, never something spillway reads.
var Switches = []string{
	"SPILLWAY_TEST_SANDBOX",
	"SPILLWAY_PEER_PI",
	"SPILLWAY_E2E_CLAUDE",
	"SPILLWAY_E2E_CODEX",
	"SPILLWAY_E2E_GEMINI",
	"SPILLWAY_E2E_OPENCODE",
	"SPILLWAY_E2E_NPM",
	"SPILLWAY_E2E_DUMP",
	"SPILLWAY_E2E_FACTS",
	"SPILLWAY_E2E_RULES",
	"SPILLWAY_E2E_SLOW",
	"SPILLWAY_BIG_DIFF",
	"SPILLWAY_BENCH_READ_FILE",
	"SPILLWAY_BENCH_READ_OFFSET",
}

// Main runs the package's tests in a hermetic environment and exits with
// their status.
func Main(m *testing.M) {
	done := Setup()
	code := m.Run()
	done()
	os.Exit(code)
}

// Setup makes the environment hermetic and returns the function that
// removes the directories it made. It exits the process when it cannot
// make them: no test could be trusted without them.
func Setup() (done func()) {
	dir, err := setup()
	if err != nil {
		fmt.Fprintln(os.Stderr, "hermetic test environment:", err)
		os.Exit(1)
	}
	return func() { removeAll(dir) }
}

func setup() (string, error) {
	// The toolchains' caches are where they were: a fresh HOME would
	// otherwise send go builds (the servers the tests build, go test run
	// by a test) to an empty build and module cache, and drop the user's
	// go env settings. They hold no configuration of spillway.
	if err := keepToolchains(); err != nil {
		return "", err
	}
	// Short: unix sockets the tests make under it must fit in 108 bytes.
	dir, err := os.MkdirTemp("", "sw")
	if err != nil {
		return "", err
	}
	// The modes are those of a real system's: tests run helpers as other
	// users (nobody, a user made for the test) from binaries and files
	// under TMPDIR, so it is a shared /tmp (1777) under a directory
	// others may pass through; the home and runtime directory are
	// private.
	dirs := []struct {
		name, sub string
		mode      os.FileMode
	}{
		{"", "", 0o755},
		{"HOME", "home", 0o700},
		{"XDG_CONFIG_HOME", "home/.config", 0o700},
		{"XDG_CACHE_HOME", "home/.cache", 0o700},
		{"XDG_RUNTIME_DIR", "run", 0o700},
		{"TMPDIR", "tmp", 0o777 | os.ModeSticky},
	}
	for _, d := range dirs {
		p := filepath.Join(dir, d.sub)
		err := os.MkdirAll(p, 0o700)
		if err == nil {
			err = os.Chmod(p, d.mode)
		}
		if err == nil && d.name != "" {
			err = os.Setenv(d.name, p)
		}
		if err != nil {
			removeAll(dir)
			return "", err
		}
	}
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "SPILLWAY_") && !isSwitch(name) {
			os.Unsetenv(name)
		}
	}
	if _, set := os.LookupEnv("GORACE"); race.Enabled && !set {
		if err := os.Setenv("GORACE", raceOptions); err != nil {
			removeAll(dir)
			return "", err
		}
	}
	return dir, nil
}

// keepToolchains sets GOCACHE, GOMODCACHE, GOPATH, GOENV, CARGO_HOME and
// RUSTUP_HOME, when unset, to what they are by default under the HOME and
// XDG directories the process started with.
func keepToolchains() error {
	home, err := os.UserHomeDir()
	if err != nil {
		return err
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return err
	}
	config, err := os.UserConfigDir()
	if err != nil {
		return err
	}
	gopath := os.Getenv("GOPATH")
	if gopath == "" {
		gopath = filepath.Join(home, "go")
	}
	defaults := map[string]string{
		"GOPATH":      gopath,
		"GOCACHE":     filepath.Join(cache, "go-build"),
		"GOMODCACHE":  filepath.Join(filepath.SplitList(gopath)[0], "pkg", "mod"),
		"GOENV":       filepath.Join(config, "go", "env"),
		"CARGO_HOME":  filepath.Join(home, ".cargo"),
		"RUSTUP_HOME": filepath.Join(home, ".rustup"),
	}
	for name, value := range defaults {
		if os.Getenv(name) != "" {
			continue
		}
		if err := os.Setenv(name, value); err != nil {
			return err
		}
	}
	return nil
}

func isSwitch(name string) bool {
	for _, s := range Switches {
		if name == s {
			return true
		}
	}
	return false
}

// removeAll removes dir even where a test left a directory without write
// or search permission inside it.
func removeAll(dir string) {
	for range 8 {
		if os.RemoveAll(dir) == nil {
			return
		}
		// Each pass opens one more level of directories the last could
		// not read.
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if d != nil && d.IsDir() {
				os.Chmod(p, 0o700)
			}
			return nil
		})
	}
}
