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
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// chromiumPath is the browser the tests drive.
const chromiumPath = "/usr/bin/chromium"

// A browserDriver is driver.mjs: one JSON request a line in, one JSON
// answer a line out, matched by id. Requests are served concurrently,
// so that parallel tests do not wait on each other's waits. One serves
// every test of the package.
type browserDriver struct {
	mu      sync.Mutex
	in      io.Writer
	next    int
	waiting map[int]chan []byte
	gone    chan struct{} // closed when the browser's output ends
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
		d := &browserDriver{in: in, waiting: map[int]chan []byte{}, gone: make(chan struct{})}
		go d.read(sc)
		driverOnce.d = d
	})
	if driverOnce.d == nil {
		t.Skip(driverOnce.skip)
	}
	return driverOnce.d
}

// read hands each answer to the request of its id.
func (d *browserDriver) read(sc *bufio.Scanner) {
	defer close(d.gone)
	for sc.Scan() {
		var tag struct{ ID int }
		if json.Unmarshal(sc.Bytes(), &tag) != nil {
			continue
		}
		d.mu.Lock()
		ch := d.waiting[tag.ID]
		delete(d.waiting, tag.ID)
		d.mu.Unlock()
		if ch != nil {
			ch <- slices.Clone(sc.Bytes())
		}
	}
}

// roundTrip sends req (an object, to which the request's id is added)
// and decodes the browser's answer into resp.
func (d *browserDriver) roundTrip(t *testing.T, req map[string]any, resp any) {
	t.Helper()
	ch := make(chan []byte, 1)
	d.mu.Lock()
	d.next++
	id := d.next
	d.waiting[id] = ch
	m := maps.Clone(req)
	m["id"] = id
	b, err := json.Marshal(m)
	if err == nil {
		_, err = fmt.Fprintf(d.in, "%s\n", b)
	}
	d.mu.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	var got []byte
	select {
	case got = <-ch:
	case <-d.gone:
		t.Fatal("the browser went away")
	}
	if err := json.Unmarshal(got, resp); err != nil {
		t.Fatalf("the browser printed %q: %v", got, err)
	}
}
