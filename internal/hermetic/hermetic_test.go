package hermetic

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spillway-dev/spillway/internal/race"
)

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) != "" {
		// The child of TestSetupReplacesTheEnvironment: it reports the
		// environment Setup left, then whether its directories go.
		done := Setup()
		for _, kv := range os.Environ() {
			os.Stdout.WriteString(kv + "\n")
		}
		done()
		if _, err := os.Stat(os.Getenv("HOME")); err == nil {
			os.Stdout.WriteString("LEFT=" + os.Getenv("HOME") + "\n")
		}
		os.Exit(0)
	}
	Main(m)
}

const childEnv = "HERMETIC_TEST_CHILD"

// TestSetupReplacesTheEnvironment starts this test binary with the
// environment of a person who uses spillway: a broken config in its HOME,
// $SPILLWAY_CONFIG naming it, the marks a command run through spillway
// inherits, and a switch of the suite.
func TestSetupReplacesTheEnvironment(t *testing.T) {
	home := t.TempDir()
	cfg := filepath.Join(home, ".config", "spillway", "config.toml")
	os.MkdirAll(filepath.Dir(cfg), 0o700)
	os.WriteFile(cfg, []byte("[bash]\nmaxlines = 3\ntimeout = \"soon\"\n"), 0o600)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	// Without GORACE, which this binary's own Setup may have set.
	parent := slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, "GORACE=") })
	cmd.Env = append(parent, childEnv+"=1",
		"HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
		"XDG_CACHE_HOME="+home, "XDG_RUNTIME_DIR="+home, "TMPDIR="+home,
		"SPILLWAY_CONFIG="+cfg, "SPILLWAY_JOB=1-1", "SPILLWAY_SESSION_MARK=x",
		"SPILLWAY_TOKEN=t", "SPILLWAY_TEST_SANDBOX=1", "SPILLWAY_E2E_CLAUDE=/x/claude")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	env := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		k, v, _ := strings.Cut(sc.Text(), "=")
		env[k] = v
	}
	given := map[string]string{"HOME": home, "XDG_CONFIG_HOME": filepath.Join(home, ".config"),
		"XDG_CACHE_HOME": home, "XDG_RUNTIME_DIR": home, "TMPDIR": home}
	for name, was := range given {
		if v := env[name]; v == "" || v == was {
			t.Errorf("%s = %q: not a directory of the test binary's own", name, v)
		}
	}
	for _, name := range []string{"SPILLWAY_CONFIG", "SPILLWAY_JOB", "SPILLWAY_SESSION_MARK", "SPILLWAY_TOKEN"} {
		if v, ok := env[name]; ok {
			t.Errorf("%s = %q survived", name, v)
		}
	}
	if env["SPILLWAY_TEST_SANDBOX"] != "1" || env["SPILLWAY_E2E_CLAUDE"] != "/x/claude" {
		t.Errorf("the suite's switches were dropped: SPILLWAY_TEST_SANDBOX=%q SPILLWAY_E2E_CLAUDE=%q",
			env["SPILLWAY_TEST_SANDBOX"], env["SPILLWAY_E2E_CLAUDE"])
	}
	// A race-built binary's children skip the detector's second of sleep
	// at exit; others get no GORACE.
	if v, ok := env["GORACE"]; ok != race.Enabled || ok && v != raceOptions {
		t.Errorf("GORACE = %q (set: %v), want it set (to %q) only under the race detector", v, ok, raceOptions)
	}
	// Other users reach TMPDIR, as they reach /tmp: tests run helpers as
	// nobody from it.
	if st, err := os.Stat(os.Getenv("TMPDIR")); err != nil || st.Mode().Perm() != 0o777 || st.Mode()&os.ModeSticky == 0 {
		t.Errorf("this binary's TMPDIR: %v %v, want drwxrwxrwt", st.Mode(), err)
	}
	if st, err := os.Stat(filepath.Dir(os.Getenv("TMPDIR"))); err != nil || st.Mode().Perm()&0o005 != 0o005 {
		t.Errorf("TMPDIR's parent: %v %v, want others to pass through", st.Mode(), err)
	}
	// The toolchains stay where the person's HOME has them.
	if want := filepath.Join(home, "go"); env["GOPATH"] != want && os.Getenv("GOPATH") == "" {
		t.Errorf("GOPATH = %q, want %q", env["GOPATH"], want)
	}
	if left, ok := env["LEFT"]; ok {
		t.Errorf("the directories Setup made are still there: %s", left)
	}
}

// TestEveryTestPackageIsHermetic: every package of the module with tests
// calls Main or Setup from its TestMain, so that a new package cannot
// quietly read the person's HOME.
func TestEveryTestPackageIsHermetic(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatal("the module's root is not two levels up:", err)
	}
	dirs := map[string]bool{}
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && p != root && (d.Name() == "testdata" || d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		if d.IsDir() && p != root {
			if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
				return filepath.SkipDir // another module
			}
		}
		if strings.HasSuffix(p, "_test.go") {
			dir := filepath.Dir(p)
			src, _ := os.ReadFile(p)
			calls := bytes.Contains(src, []byte("hermetic.Main(m)")) || bytes.Contains(src, []byte("hermetic.Setup()")) ||
				dir == filepath.Join(root, "internal", "hermetic")
			dirs[dir] = dirs[dir] || calls
		}
		return nil
	})
	if len(dirs) < 10 {
		t.Fatalf("found %d test packages; the walk is broken", len(dirs))
	}
	for dir, ok := range dirs {
		if !ok {
			rel, _ := filepath.Rel(root, dir)
			t.Errorf("%s: no TestMain calls hermetic.Main(m) or hermetic.Setup()", rel)
		}
	}
}
