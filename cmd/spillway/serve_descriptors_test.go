//go:build unix

package main

import (
	"bufio"
	"os/exec"
	"strings"
	"syscall"
	"testing"
)

// serve says at its start when its descriptor limit cannot hold
// --max-sessions sessions each running a job, with the limit to set.
func TestServeSaysWhenDescriptorsAreShort(t *testing.T) {
	cli := newBashCLI(t)
	for _, c := range []struct {
		nofile, sessions string
		warns            bool
	}{{"2000", "4096", true}, {"2000", "64", false}} {
		cmd := exec.Command("bash", "-c", `ulimit -n "$1" && exec "$2" serve --no-token --listen 127.0.0.1:0 --metrics-listen 127.0.0.1:0 --max-sessions "$3"`,
			"-", c.nofile, cli.bin, c.sessions)
		cmd.Env = cli.env
		stderr, err := cmd.StderrPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// The line comes right after "serving MCP at", or the metrics line
		// does.
		var seen []string
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			seen = append(seen, sc.Text())
			if strings.Contains(sc.Text(), "serving MCP at") {
				sc.Scan()
				seen = append(seen, sc.Text())
				break
			}
		}
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
		last := seen[len(seen)-1]
		warned := strings.Contains(last, "descriptor limit (ulimit -n 2000) holds about 484 sessions with a running job each, not --max-sessions 4096: raise it to 16448 or more")
		if warned != c.warns {
			t.Errorf("ulimit -n %s, --max-sessions %s: warned %v, want %v:\n%s", c.nofile, c.sessions, warned, c.warns, strings.Join(seen, "\n"))
		}
	}
}
