package mcpserver_test

// The browser of the browser tests: Debian's chromium driven by
// playwright-core through testdata/browser/driver.mjs (which .ci/run
// installs with npm ci). Elsewhere the tests run when node, chromium
// and playwright-core are there, and skip saying which is missing.

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// chromiumPath is the browser the tests drive.
const chromiumPath = "/usr/bin/chromium"

// A browserDriver is driver.mjs: one JSON request a line in, one JSON
// answer a line out, one request at a time. One serves every test of
// the package.
type browserDriver struct {
	mu  sync.Mutex
	in  io.Writer
	out *bufio.Scanner
}

var driverOnce struct {
	once sync.Once
	d    *browserDriver
	skip string
}

// startBrowserDriver starts the browser on first use, or skips the test
// saying what is missing.
func startBrowserDriver(t *testing.T) *browserDriver {
	t.Helper()
	driverOnce.once.Do(func() {
		dir, _ := filepath.Abs(filepath.Join("testdata", "browser"))
		node, err := exec.LookPath("node")
		switch {
		case err != nil:
			driverOnce.skip = "node is not installed"
			return
		case !exists(chromiumPath):
			driverOnce.skip = chromiumPath + " is not installed (apt-get install chromium)"
			return
		case !exists(filepath.Join(dir, "node_modules", "playwright-core")):
			driverOnce.skip = "playwright-core is not installed: npm ci --prefix mcpserver/testdata/browser"
			return
		}
		cmd := exec.Command(node, filepath.Join(dir, "driver.mjs"), chromiumPath)
		cmd.Dir = dir
		cmd.Stderr = os.Stderr
		in, _ := cmd.StdinPipe()
		out, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			driverOnce.skip = "cannot start the browser: " + err.Error()
			return
		}
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 4<<20), 4<<20)
		if !sc.Scan() || !strings.Contains(sc.Text(), `"ready":true`) {
			cmd.Process.Kill()
			driverOnce.skip = "the browser did not start: " + sc.Text()
			return
		}
		// It ends when the test binary does: its stdin closes.
		driverOnce.d = &browserDriver{in: in, out: sc}
	})
	if driverOnce.d == nil {
		t.Skip(driverOnce.skip)
	}
	return driverOnce.d
}

// roundTrip sends req and decodes the browser's answer into resp.
func (d *browserDriver) roundTrip(t *testing.T, req, resp any) {
	t.Helper()
	b, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	fmt.Fprintf(d.in, "%s\n", b)
	if !d.out.Scan() {
		t.Fatal("the browser went away")
	}
	if err := json.Unmarshal(d.out.Bytes(), resp); err != nil {
		t.Fatalf("the browser printed %q: %v", d.out.Text(), err)
	}
}
