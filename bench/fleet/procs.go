//go:build unix

package main

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spillway-dev/spillway/internal/proc"
)

func freePort() string {
	l, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		fatalf("no free port: %v", err)
	}
	defer l.Close()
	return l.Addr().String()
}

// A node is one spillway serve.
type node struct {
	id      string
	addr    string
	metrics string // --metrics-listen address
	tmp     string
	cmd     *exec.Cmd
	exited  chan error
}

// startNode starts `spillway serve` as node id, confined to ws.
func startNode(id, ws, base string, extra ...string) *node {
	n := &node{id: id, addr: freePort(), metrics: freePort(), tmp: filepath.Join(base, "tmp-"+id), exited: make(chan error, 1)}
	os.MkdirAll(n.tmp, 0o700)
	args := append([]string{"serve", "--listen", n.addr, "--node-id", id, "--root", ws, "--metrics-listen", n.metrics,
		"--idle-timeout", "0", "--log-level", "warn"}, extra...)
	n.cmd = exec.Command(*bin, args...)
	n.cmd.Dir = ws
	n.cmd.Env = append(os.Environ(), "TMPDIR="+n.tmp, "SPILLWAY_TOKEN="+token)
	n.cmd.Stderr = prefixWriter(id)
	if err := n.cmd.Start(); err != nil {
		fatalf("starting node %s: %v", id, err)
	}
	go func() { n.exited <- n.cmd.Wait() }()
	waitHTTP("http://"+n.addr+"/readyz", 200)
	return n
}

func (n *node) url() string { return "http://" + n.addr + "/mcp" }

// rssKB is the node's resident memory.
func (n *node) rssKB() int64 {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", n.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.Fields(v)[0], 10, 64)
			return kb
		}
	}
	return 0
}

// wait waits for the node to exit and returns how it did.
func (n *node) wait(limit time.Duration) (error, bool) {
	select {
	case err := <-n.exited:
		return err, true
	case <-time.After(limit):
		return nil, false
	}
}

// spillDirs lists the spill directories the node left.
func (n *node) spillDirs() []string {
	dirs, _ := filepath.Glob(filepath.Join(n.tmp, "spillway-*"))
	return dirs
}

// cgroupsLeft lists the cgroups of the node's sessions still there: the
// node's group, beside its own, where cgroups are in use.
func (n *node) cgroupsLeft() []string {
	inUse, base := proc.CgroupStatus()
	if !inUse {
		return nil
	}
	dirs, _ := filepath.Glob(filepath.Join(base, fmt.Sprintf("spillway-%d", n.cmd.Process.Pid)))
	return dirs
}

// waitHTTP polls url until it answers code.
func waitHTTP(url string, code int) {
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if resp, err := http.Get(url); err == nil {
			resp.Body.Close()
			if resp.StatusCode == code {
				return
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	fatalf("%s did not answer %d within 30 s", url, code)
}

// A proxy is an haproxy in front of the nodes.
type proxy struct {
	addr string
	cmd  *exec.Cmd
	cfg  string
}

// haproxyConfig routes a session's requests to its node by the node id
// that begins its id (-mode prefix), or by a stick table learned from the
// Mcp-Session-Id of the answers (-mode stick). Readiness is checked every
// 500 ms (two failures make a node unready, so that one slow answer on a
// busy machine does not): a node that drains (or is at its cap) gets no
// new session, yet
// its sessions still reach it (option persist); a request for a node that
// does not accept connections is sent elsewhere (redispatch), which
// answers 404 for a session it does not know. A new session refused with
// 503 by a node that has just begun to drain is tried on another
// (retry-on 503).
func haproxyConfig(addr string, nodes []*node, mode string) string {
	var b strings.Builder
	fmt.Fprintf(&b, `global
    maxconn 8000
    log stderr format short local0 warning
defaults
    mode http
    log global
    timeout connect 1s
    timeout client 5m
    timeout server 5m
    timeout http-keep-alive 1m
    option http-keep-alive
frontend mcp
    bind %s
    default_backend spillway
backend spillway
    balance roundrobin
    option persist
    option redispatch 1
    retries 2
    retry-on conn-failure empty-response 503
    option httpchk GET /readyz
    http-check expect status 200
    timeout check 2s
    default-server inter 500ms fastinter 250ms downinter 500ms fall 2 rise 1
`, addr)
	switch mode {
	case "prefix":
		for _, n := range nodes {
			fmt.Fprintf(&b, "    use-server %s if { req.hdr(mcp-session-id) -m beg %s. }\n", n.id, n.id)
		}
	case "stick":
		b.WriteString(`    stick-table type string len 128 size 1m expire 24h
    stick match req.hdr(mcp-session-id)
    stick store-response res.hdr(mcp-session-id)
`)
	}
	for _, n := range nodes {
		fmt.Fprintf(&b, "    server %s %s check\n", n.id, n.addr)
	}
	return b.String()
}

func startProxy(base string, nodes []*node, mode string) *proxy {
	p := &proxy{addr: freePort(), cfg: filepath.Join(base, "haproxy.cfg")}
	os.WriteFile(p.cfg, []byte(haproxyConfig(p.addr, nodes, mode)), 0o600)
	p.cmd = exec.Command("haproxy", "-f", p.cfg, "-db")
	p.cmd.Stdout = prefixWriter("haproxy")
	p.cmd.Stderr = prefixWriter("haproxy")
	if err := p.cmd.Start(); err != nil {
		fatalf("haproxy: %v (apt-get install haproxy)", err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if c, err := net.Dial("tcp", p.addr); err == nil {
			c.Close()
			time.Sleep(time.Second) // the first health checks
			return p
		}
		time.Sleep(50 * time.Millisecond)
	}
	fatalf("haproxy did not listen on %s", p.addr)
	return nil
}

func (p *proxy) stop() {
	p.cmd.Process.Signal(syscall.SIGTERM)
	p.cmd.Wait()
}

// leftProcesses lists the processes whose command line holds m.
func leftProcesses(m string) []int {
	var out []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && strings.Contains(string(b), m) {
			out = append(out, pid)
		}
	}
	return out
}

// prefixWriter writes a child's log lines to stderr under its name.
func prefixWriter(name string) *os.File {
	r, w, err := os.Pipe()
	if err != nil {
		fatalf("%v", err)
	}
	go func() {
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			fmt.Fprintf(os.Stderr, "  [%s] %s\n", name, sc.Text())
		}
	}()
	return w
}

func fatalf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "fleet: "+format+"\n", args...)
	os.Exit(2)
}
