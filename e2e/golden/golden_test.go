package golden

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/spillway-dev/spillway/internal/hermetic"
)

var update = flag.Bool("update", false, "record testdata/golden again instead of comparing with it (also GOLDEN_UPDATE=1)")

func updating() bool { return *update || os.Getenv("GOLDEN_UPDATE") == "1" }

// env is what every case shares: the binary, the fixture, and the
// directories a case may use.
type env struct {
	bin     string // the spillway binary built from this module
	root    string // the work root: fixture, spill and sync directories below it
	fixture string // the files the tools look at; never written to by a case
	tmp     string // TMPDIR of every spillway process, so spills land below root
	home    string // HOME, so no user config file is read
}

var (
	shared    env
	sharedErr error
	setupOnce sync.Once
)

// setup builds the binary and the fixture once for all tests.
func setup(t *testing.T) env {
	t.Helper()
	if testing.Short() {
		t.Skip("the golden corpus builds spillway and runs it about 800 times")
	}
	if runtime.GOOS != "linux" {
		// Error texts, /proc and the shell's utilities differ elsewhere.
		t.Skip("the golden corpus is recorded on Linux")
	}
	setupOnce.Do(func() { shared, sharedErr = newEnv() })
	if sharedErr != nil {
		t.Fatal(sharedErr)
	}
	return shared
}

func TestMain(m *testing.M) {
	flag.Parse()
	// The sessions and CLI runs mostly wait on processes, not on the CPU:
	// run more at once than -parallel's default of GOMAXPROCS, unless it
	// was given.
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given {
		flag.Set("test.parallel", "8")
	}
	done := hermetic.Setup()
	code := m.Run()
	if shared.root != "" {
		os.RemoveAll(shared.root)
	}
	done()
	os.Exit(code)
}

func newEnv() (env, error) {
	root, err := makeRoot()
	if err != nil {
		return env{}, err
	}
	e := env{
		root:    root,
		bin:     filepath.Join(root, "bin", "spillway"),
		fixture: filepath.Join(root, "fx"),
		tmp:     filepath.Join(root, "tmp"),
		home:    filepath.Join(root, "home"),
	}
	for _, d := range []string{e.tmp, e.home, filepath.Dir(e.bin)} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return env{}, err
		}
	}
	// -buildvcs=false: the version a binary reports (the MCP serverInfo)
	// must not change with each commit of the change being checked.
	build := exec.Command("go", "build", "-buildvcs=false", "-o", e.bin, "./cmd/spillway")
	build.Dir = "../.."
	if out, err := build.CombinedOutput(); err != nil {
		return env{}, fmt.Errorf("building spillway: %v\n%s", err, out)
	}
	if err := writeFixture(e.fixture); err != nil {
		return env{}, err
	}
	return e, nil
}

// environ is the environment of every spillway process: fixed, so that
// nothing of the machine's (a config file, a locale, a client variable)
// leaks into what is recorded.
func (e env) environ(extra ...string) []string {
	return append([]string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + e.home,
		"TMPDIR=" + e.tmp,
		"LANG=C",
		"LC_ALL=C",
		"TZ=UTC",
		"XDG_CONFIG_HOME=" + filepath.Join(e.home, ".config"),
		"XDG_RUNTIME_DIR=" + filepath.Join(e.home, "run"),
	}, extra...)
}

// check compares got with the case's file, or writes it with -update.
func check(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "golden", filepath.FromSlash(name)+".txt")
	if updating() {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Errorf("case %s: no golden file (%v); record it with: go test ./e2e/golden -update", name, err)
		return
	}
	if string(want) != got {
		t.Errorf("case %s differs from %s (- recorded, + now):\n%s", name, path, diff(string(want), got))
	}
}

// diff is a unified-style line diff of a and b, with 3 lines of context.
func diff(a, b string) string {
	x, y := lines(a), lines(b)
	// Trim the common head and tail so that the quadratic table stays
	// small for the long outputs of cut results.
	pre := 0
	for pre < len(x) && pre < len(y) && x[pre] == y[pre] {
		pre++
	}
	suf := 0
	for suf < len(x)-pre && suf < len(y)-pre && x[len(x)-1-suf] == y[len(y)-1-suf] {
		suf++
	}
	xs, ys := x[pre:len(x)-suf], y[pre:len(y)-suf]
	var ops []string
	if len(xs)*len(ys) > 4_000_000 {
		for _, l := range xs {
			ops = append(ops, "-"+l)
		}
		for _, l := range ys {
			ops = append(ops, "+"+l)
		}
	} else {
		ops = lcsDiff(xs, ys)
	}
	var out strings.Builder
	from := max(0, pre-3)
	fmt.Fprintf(&out, "@@ line %d @@\n", from+1)
	for _, l := range x[from:pre] {
		out.WriteString(" " + l)
	}
	for _, op := range ops {
		out.WriteString(op)
	}
	for _, l := range x[len(x)-suf : min(len(x), len(x)-suf+3)] {
		out.WriteString(" " + l)
	}
	s := out.String()
	if !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	const most = 8000
	if len(s) > most {
		s = s[:most] + "\n[diff cut]\n"
	}
	return s
}

// lines splits s after each newline, without the empty piece after the
// last one.
func lines(s string) []string {
	l := strings.SplitAfter(s, "\n")
	if l[len(l)-1] == "" {
		l = l[:len(l)-1]
	}
	return l
}

func lcsDiff(x, y []string) []string {
	n, m := len(x), len(y)
	l := make([][]int, n+1)
	for i := range l {
		l[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if x[i] == y[j] {
				l[i][j] = l[i+1][j+1] + 1
			} else {
				l[i][j] = max(l[i+1][j], l[i][j+1])
			}
		}
	}
	var ops []string
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && x[i] == y[j]:
			ops = append(ops, " "+x[i])
			i++
			j++
		case i < n && (j == m || l[i+1][j] >= l[i][j+1]):
			ops = append(ops, "-"+x[i])
			i++
		default:
			ops = append(ops, "+"+y[j])
			j++
		}
	}
	return ops
}
