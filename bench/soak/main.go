//go:build unix

// Command soak drives one `spillway serve` with many concurrent MCP clients
// over Streamable HTTP and reports whether it stays healthy: throughput and
// latency, and the server's RSS, open fds, threads, goroutines and child
// processes at the start, the middle and the end of the run.
//
// Targets (the exit status is 1 when one is missed): no error that was not
// asked for, nothing left running once the sessions and the server end,
// RSS, live heap and open fds flat from the middle to the end (growing no
// more than 10 %), and after a SIGKILL the background jobs die with the
// server and the next start removes its spill directories.
//
// Run it through bench/soak.sh, which builds the binary.
package main

import (
	"bufio"
	"bytes"
	"context"
	cryptorand "crypto/rand"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spillway-dev/spillway/internal/proc"
	"github.com/spillway-dev/spillway/mcpserver"
)

var (
	bin       = flag.String("bin", "", "the spillway binary (required)")
	calls     = flag.Int("calls", 10_000, "tool calls in all")
	clients   = flag.Int("clients", 8, "concurrent MCP clients")
	reconnect = flag.Int("reconnect", 125, "each client starts a new MCP session after this many calls (0: never)")
	extra     = flag.String("server-args", "", "extra arguments for spillway serve, space-separated (e.g. \"--sandbox --no-network\"); {ws} is the workspace")
	keep      = flag.Bool("keep", false, "keep the workspace and the server's temp directory")
)

func main() {
	flag.Parse()
	if *bin == "" {
		fmt.Fprintln(os.Stderr, "soak: -bin is required (bench/soak.sh builds it)")
		os.Exit(2)
	}
	ok, err := run()
	if err != nil {
		fmt.Fprintln(os.Stderr, "soak:", err)
		os.Exit(2)
	}
	if !ok {
		os.Exit(1)
	}
}

func run() (bool, error) {
	base, err := os.MkdirTemp("", "spillway-soak-")
	if err != nil {
		return false, err
	}
	if !*keep {
		defer os.RemoveAll(base)
	}
	ws := filepath.Join(base, "ws")
	tmp := filepath.Join(base, "tmp")
	if err := makeWorkspace(ws); err != nil {
		return false, err
	}
	if err := os.Mkdir(tmp, 0o700); err != nil {
		return false, err
	}

	srv, err := startServer(ws, tmp)
	if err != nil {
		return false, err
	}
	defer srv.cmd.Process.Kill()
	fmt.Printf("spillway serve (pid %d) at %s, args %q\n", srv.cmd.Process.Pid, srv.url, srv.args)
	fmt.Printf("%d clients, %d calls, a new session every %d calls per client\n\n", *clients, *calls, *reconnect)

	d := &driver{srv: srv, ws: ws, lat: map[string][]time.Duration{}}
	var samples []sample
	var started time.Time
	phase := func(name string) {
		samples = append(samples, srv.sample(name))
	}

	// Connect every client first: "start" is a server with its sessions
	// open and no call made yet.
	cl := make([]*client, *clients)
	for i := range cl {
		c, err := d.connect(i)
		if err != nil {
			return false, fmt.Errorf("client %d: %w", i, err)
		}
		cl[i] = c
	}
	phase("start")
	per := *calls / *clients
	started = time.Now()
	for half := 0; half < 2; half++ {
		n := per / 2
		if half == 1 {
			n = per - per/2
		}
		var wg sync.WaitGroup
		for _, c := range cl {
			wg.Go(func() { c.work(n) })
		}
		wg.Wait()
		if half == 0 {
			// The sample is not timed.
			paused := time.Now()
			renewAll(cl)
			phase("middle")
			started = started.Add(time.Since(paused))
		}
	}
	elapsed := time.Since(started)
	renewAll(cl)
	phase("end")
	for _, c := range cl {
		c.close()
	}
	// Ending a session kills its jobs and removes its spill directory.
	settle(func() bool { s := srv.sample(""); return s.children == 0 })
	phase("closed")

	// SIGTERM: the server ends every session and exits.
	exitErr := srv.stop(30 * time.Second)
	leftPIDs := d.aliveJobs()
	leftDirs, _ := filepath.Glob(filepath.Join(tmp, fmt.Sprintf("spillway-%d-*", srv.cmd.Process.Pid)))
	crash := crashTest(ws, tmp)

	// Report.
	total := d.done.Load()
	fmt.Printf("calls: %d in %.1fs = %.1f calls/s\n", total, elapsed.Seconds(), float64(total)/elapsed.Seconds())
	all := d.allLatencies()
	fmt.Printf("latency, all calls: p50 %s  p99 %s  max %s\n\n", pct(all, 50), pct(all, 99), pct(all, 100))
	fmt.Printf("%-14s %7s %10s %10s %10s\n", "kind", "calls", "p50", "p99", "max")
	kinds := slices.Sorted(func(yield func(string) bool) {
		for k := range d.lat {
			if !yield(k) {
				return
			}
		}
	})
	for _, k := range kinds {
		l := d.lat[k]
		fmt.Printf("%-14s %7d %10s %10s %10s\n", k, len(l), pct(l, 50), pct(l, 99), pct(l, 100))
	}
	fmt.Printf("\n%-8s %10s %10s %8s %8s %11s %9s %9s\n", "phase", "RSS", "live heap", "fds", "threads", "goroutines", "children", "spill")
	for _, s := range samples {
		fmt.Printf("%-8s %9.1fM %9.1fM %8d %8d %11d %9d %9s\n", s.name, float64(s.rssKB)/1024, float64(s.liveHeap)/(1<<20), s.fds, s.threads, s.goroutines, s.children, s.spillDirs)
	}

	fmt.Println()
	pass := true
	check := func(ok bool, format string, args ...any) {
		mark := "ok  "
		if !ok {
			mark, pass = "MISS", false
		}
		fmt.Printf("%s %s\n", mark, fmt.Sprintf(format, args...))
	}
	unexpected := d.unexpected.Load()
	check(unexpected == 0, "unexpected errors: %d (asked-for errors seen: %d)", unexpected, d.asked.Load())
	for _, e := range d.firstErrors() {
		fmt.Println("     ", e)
	}
	check(total == int64(*calls/(*clients)*(*clients)), "calls completed: %d", total)
	mid, end, closed := samples[1], samples[2], samples[3]
	// Flat means no growth: a drop is the collector returning memory.
	check(grewAtMost(mid.rssKB, end.rssKB, 0.10), "RSS middle→end: %.1fM → %.1fM (%+.1f%%; growth allowed: 10%%)", float64(mid.rssKB)/1024, float64(end.rssKB)/1024, change(mid.rssKB, end.rssKB))
	check(grewAtMost(mid.liveHeap, end.liveHeap, 0.10), "live heap middle→end: %.1fM → %.1fM (%+.1f%%; growth allowed: 10%%)", float64(mid.liveHeap)/(1<<20), float64(end.liveHeap)/(1<<20), change(mid.liveHeap, end.liveHeap))
	check(grewAtMost(int64(mid.fds), int64(end.fds), 0.10), "open fds middle→end: %d → %d (%+.1f%%; growth allowed: 10%%)", mid.fds, end.fds, change(int64(mid.fds), int64(end.fds)))
	check(closed.children == 0, "child processes once every session closed: %d", closed.children)
	check(exitErr == nil, "server exit on SIGTERM: %v", errOrOK(exitErr))
	check(len(leftPIDs) == 0, "background jobs alive after the server exited: %v", leftPIDs)
	check(len(leftDirs) == 0, "spill directories left after the server exited: %v", leftDirs)
	check(crash.err == nil, "after SIGKILL: %s", crash)
	return pass, nil
}

func errOrOK(err error) string {
	if err == nil {
		return "clean"
	}
	return err.Error()
}

func change(a, b int64) float64 {
	if a == 0 {
		return 0
	}
	return float64(b-a) / float64(a) * 100
}

func grewAtMost(a, b int64, frac float64) bool {
	return a > 0 && float64(b) <= float64(a)*(1+frac)
}

// settle waits (up to 10 s) until cond holds.
func settle(cond func() bool) {
	for i := 0; i < 100 && !cond(); i++ {
		time.Sleep(100 * time.Millisecond)
	}
}

func pct(l []time.Duration, p int) string {
	if len(l) == 0 {
		return "-"
	}
	s := slices.Clone(l)
	slices.Sort(s)
	i := (len(s) - 1) * p / 100
	return s[i].Round(100 * time.Microsecond).String()
}

// makeWorkspace writes the tree that read, grep, find and ls work on: 400
// source files in 20 directories, an ignored directory, and a 50,000-line
// file to page through.
func makeWorkspace(ws string) error {
	for d := 0; d < 20; d++ {
		dir := filepath.Join(ws, "src", fmt.Sprintf("pkg%02d", d))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		for f := 0; f < 20; f++ {
			var b strings.Builder
			fmt.Fprintf(&b, "package pkg%02d\n\n", d)
			for l := 0; l < 200; l++ {
				if (d*20+f*200+l)%97 == 0 {
					fmt.Fprintf(&b, "// needle-%d in file %d\n", l, f)
				} else {
					fmt.Fprintf(&b, "func f%d_%d() int { return %d }\n", f, l, l*f)
				}
			}
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("file%02d.go", f)), []byte(b.String()), 0o644); err != nil {
				return err
			}
		}
	}
	if err := os.MkdirAll(filepath.Join(ws, "node_modules", "dep"), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(ws, "node_modules", "dep", "index.js"), []byte(strings.Repeat("needle-ignored\n", 1000)), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(ws, ".gitignore"), []byte("node_modules/\n"), 0o644); err != nil {
		return err
	}
	var b strings.Builder
	for i := 1; i <= 50_000; i++ {
		fmt.Fprintf(&b, "line %d of the big file\n", i)
	}
	return os.WriteFile(filepath.Join(ws, "big.txt"), []byte(b.String()), 0o644)
}

// A server is the spillway serve process under test.
type server struct {
	cmd    *exec.Cmd
	url    string
	token  string // every request carries it
	debug  string
	args   []string
	tmp    string
	exited chan error
}

func freePort() (string, error) {
	l, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return l.Addr().String(), nil
}

func startServer(ws, tmp string) (*server, error) {
	listen, err := freePort()
	if err != nil {
		return nil, err
	}
	debug, err := freePort()
	if err != nil {
		return nil, err
	}
	args := []string{"serve", "--listen", listen, "--log-level", "warn"}
	for _, a := range strings.Fields(*extra) {
		args = append(args, strings.ReplaceAll(a, "{ws}", ws))
	}
	cmd := exec.Command(*bin, args...)
	cmd.Dir = ws
	token := cryptorand.Text()
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp, "SPILLWAY_DEBUG_LISTEN="+debug, "SPILLWAY_TOKEN="+token)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &server{cmd: cmd, token: token, debug: debug, args: args, tmp: tmp, exited: make(chan error, 1)}
	ready := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			line := sc.Text()
			if u, ok := strings.CutPrefix(line, "spillway: serving MCP at "); ok {
				ready <- u
				continue
			}
			fmt.Fprintln(os.Stderr, "server:", line)
		}
	}()
	go func() { s.exited <- cmd.Wait() }()
	select {
	case s.url = <-ready:
		return s, nil
	case err := <-s.exited:
		return nil, fmt.Errorf("the server exited at start: %v", err)
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		return nil, errors.New("the server did not start within 30 s")
	}
}

// stop sends SIGTERM and waits for the server to exit.
func (s *server) stop(limit time.Duration) error {
	s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-s.exited:
		return err
	case <-time.After(limit):
		s.cmd.Process.Kill()
		return fmt.Errorf("no exit within %s of SIGTERM", limit)
	}
}

// A sample is the server's state at one moment.
type sample struct {
	name       string
	rssKB      int64
	fds        int
	threads    int
	goroutines int
	liveHeap   int64 // bytes, after a GC
	children   int
	spillDirs  string
}

func (s *server) sample(name string) sample {
	pid := s.cmd.Process.Pid
	out := sample{name: name, goroutines: -1}
	if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid)); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
				out.rssKB, _ = strconv.ParseInt(strings.Fields(v)[0], 10, 64)
			}
		}
	}
	if e, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid)); err == nil {
		out.fds = len(e)
	}
	if e, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid)); err == nil {
		out.threads = len(e)
	}
	out.children = len(descendants(pid))
	// RSS and fds are read first: the collection below may change them.
	if resp, err := http.Get("http://" + s.debug + "/debug/spillway?gc=1"); err == nil {
		var v struct {
			Goroutines int
			HeapAlloc  int64 `json:"heap_alloc"`
		}
		json.NewDecoder(resp.Body).Decode(&v)
		resp.Body.Close()
		out.goroutines = v.Goroutines
		out.liveHeap = v.HeapAlloc
	}
	dirs, _ := filepath.Glob(filepath.Join(s.tmp, fmt.Sprintf("spillway-%d-*", pid)))
	out.spillDirs = strconv.Itoa(len(dirs)) + " dirs"
	return out
}

// descendants returns the pids of every process below pid but the
// server's watcher (which kills its jobs if it dies, and lives as long as
// it does).
func descendants(pid int) []int {
	entries, _ := os.ReadDir("/proc")
	parent := map[int]int{}
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid …; comm may hold spaces and parentheses.
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		f := strings.Fields(s[i+1:])
		if cmdline, _ := os.ReadFile("/proc/" + e.Name() + "/cmdline"); bytes.Contains(cmdline, []byte("\x00"+proc.WatchArg+"\x00")) {
			continue
		}
		if len(f) > 1 {
			parent[p], _ = strconv.Atoi(f[1])
		}
	}
	var out []int
	for p := range parent {
		for q := parent[p]; q > 1; q = parent[q] {
			if q == pid {
				out = append(out, p)
				break
			}
		}
	}
	return out
}

// A driver runs the clients' calls and keeps the books.
type driver struct {
	srv        *server
	ws         string
	done       atomic.Int64
	unexpected atomic.Int64
	asked      atomic.Int64

	mu     sync.Mutex
	lat    map[string][]time.Duration
	errs   []string
	jobPID []int
}

func (d *driver) record(kind string, took time.Duration, problem string) {
	d.done.Add(1)
	d.mu.Lock()
	defer d.mu.Unlock()
	d.lat[kind] = append(d.lat[kind], took)
	if problem != "" {
		d.unexpected.Add(1)
		if len(d.errs) < 10 {
			d.errs = append(d.errs, kind+": "+problem)
		}
	}
}

func (d *driver) firstErrors() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return slices.Clone(d.errs)
}

func (d *driver) allLatencies() []time.Duration {
	var all []time.Duration
	for _, l := range d.lat {
		all = append(all, l...)
	}
	return all
}

func (d *driver) aliveJobs() []int {
	d.mu.Lock()
	defer d.mu.Unlock()
	var alive []int
	for _, pid := range d.jobPID {
		if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid)); err == nil && strings.Contains(string(b), "sleep") {
			alive = append(alive, pid)
		}
	}
	return alive
}

// A client is one MCP client: one session at a time.
type client struct {
	id    int
	d     *driver
	sess  *mcp.ClientSession
	calls int
	// session is the value of calls when the current session started.
	session int
	rnd     *rand.Rand
}

func (d *driver) connect(id int) (*client, error) {
	c := &client{id: id, d: d, rnd: rand.New(rand.NewPCG(uint64(id), 7))}
	return c, c.open()
}

func (c *client) open() error {
	cl := mcp.NewClient(&mcp.Implementation{Name: "soak", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	sess, err := cl.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: c.d.srv.url, MaxRetries: -1,
		HTTPClient: &http.Client{Transport: bearer{c.d.srv.token}}}, nil)
	if err != nil {
		return err
	}
	c.sess = sess
	return nil
}

func (c *client) close() {
	if c.sess != nil {
		c.sess.Close()
		c.sess = nil
	}
}

// result is what a check sees of a call.
type result struct {
	text    string
	isError bool
	details map[string]any
}

func (c *client) call(tool string, args map[string]any) (result, time.Duration, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	t0 := time.Now()
	res, err := c.sess.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	took := time.Since(t0)
	if err != nil {
		return result{}, took, err
	}
	var r result
	r.isError = res.IsError
	for _, ct := range res.Content {
		if tc, ok := ct.(*mcp.TextContent); ok {
			r.text += tc.Text
		}
	}
	if d := res.Meta[mcpserver.DetailsMetaKey]; d != nil {
		b, _ := json.Marshal(d)
		json.Unmarshal(b, &r.details)
	}
	return r, took, nil
}

// do makes one call of a kind and checks it; it returns the result.
func (c *client) do(kind, tool string, args map[string]any, check func(result) string) result {
	c.calls++
	r, took, err := c.call(tool, args)
	problem := ""
	if err != nil {
		problem = err.Error()
	} else {
		problem = check(r)
	}
	c.d.record(kind, took, problem)
	return r
}

func noError(want string) func(result) string {
	return func(r result) string {
		if r.isError {
			return "is_error: " + clip(r.text)
		}
		if !strings.Contains(r.text, want) {
			return fmt.Sprintf("text lacks %q: %s", want, clip(r.text))
		}
		return ""
	}
}

func clip(s string) string {
	s = strings.ReplaceAll(s, "\n", "⏎")
	if len(s) > 300 {
		return s[:300] + "…"
	}
	return s
}

func num(m map[string]any, key string) int {
	f, _ := m[key].(float64)
	return int(f)
}

// renewAll starts a new session for every client before a sample. What
// a session holds grows with its calls (its history, up to its cap), and
// where each client stood in its cycle of sessions at a sample moved the
// live heap by half a megabyte between samples; with every session new,
// what grows from one sample to the next is what ended sessions left.
func renewAll(cl []*client) {
	for _, c := range cl {
		c.newSession()
	}
}

// renew starts a new session once the current one has made *reconnect
// calls.
func (c *client) renew() {
	if *reconnect <= 0 || c.calls < c.session+*reconnect {
		return
	}
	c.newSession()
}

// newSession ends the client's session (its jobs killed, its spill
// directory removed) and starts another.
func (c *client) newSession() {
	c.session = c.calls
	c.close()
	if err := c.open(); err != nil {
		c.d.record("reconnect", 0, err.Error())
	}
}

// work makes n calls of a fixed mix. A new session starts only between
// steps, never inside one (a flood and the read of its spill file, a
// timeout and its check and kill).
func (c *client) work(n int) {
	for i := 0; i < n; {
		c.renew()
		k := c.rnd.IntN(100)
		switch {
		case k < 20: // a small command
			tag := fmt.Sprintf("small-%d-%d", c.id, i)
			c.do("bash-small", "bash", map[string]any{"command": "echo " + tag}, noError(tag))
			i++
		case k < 28: // a small command in a named session, which keeps its cd
			tag := fmt.Sprintf("session-%d-%d", c.id, i)
			c.do("bash-session", "bash", map[string]any{"command": "test -d pkg00 || cd src; echo " + tag + "; pwd", "session": fmt.Sprintf("s%d", k%3)},
				func(r result) string {
					if p := noError(tag)(r); p != "" {
						return p
					}
					if !strings.Contains(r.text, "/src\n") {
						return "the session did not keep its cd: " + clip(r.text)
					}
					return ""
				})
			i++
		case k < 38: // a flood, then a page of its spill file
			r := c.do("bash-flood", "bash", map[string]any{"command": "seq 1 200000"}, noError("Full output: "))
			i++
			path := ""
			if so, ok := r.details["stdout"].(map[string]any); ok {
				path, _ = so["full_output_path"].(string)
			}
			if path != "" && i < n {
				c.do("read-spill", "read", map[string]any{"path": path, "offset": 150000, "limit": 3}, noError("150000"))
				i++
			}
			if id := num(r.details, "history_id"); id != 0 && i < n {
				c.do("history-tail", "history", map[string]any{"id": id, "strategy": "tail", "max_lines": 3}, noError("199999\n200000"))
				i++
			}
		case k < 43: // an error that was asked for
			c.do("bash-exit3", "bash", map[string]any{"command": "echo oops >&2; exit 3"}, func(r result) string {
				if !r.isError || !strings.Contains(r.text, "exit code: 3") {
					return "want is_error and exit code 3: " + clip(r.text)
				}
				c.d.asked.Add(1)
				return ""
			})
			i++
		case k < 48 && n-i >= 3: // a timeout that backgrounds, a check, a kill
			r := c.do("bash-timeout", "bash", map[string]any{"command": "echo started; exec sleep 60", "timeout": 200}, func(r result) string {
				if r.isError || r.details["backgrounded"] != true || num(r.details, "pid") == 0 {
					return "want backgrounded with a pid: " + clip(r.text)
				}
				return ""
			})
			pid := num(r.details, "pid")
			if pid != 0 {
				c.d.mu.Lock()
				c.d.jobPID = append(c.d.jobPID, pid)
				c.d.mu.Unlock()
			}
			c.do("check_pid", "bash", map[string]any{"check_pid": pid}, func(r result) string {
				if r.isError || r.details["running"] != true {
					return "want running: " + clip(r.text)
				}
				return ""
			})
			c.do("kill_pid", "bash", map[string]any{"kill_pid": pid}, func(r result) string {
				if r.details["running"] == true {
					return "still running after kill_pid: " + clip(r.text)
				}
				return ""
			})
			i += 3
		case k < 68: // a page of a big file
			off := 1 + c.rnd.IntN(49_900)
			c.do("read", "read", map[string]any{"path": "big.txt", "offset": off, "limit": 50}, noError(fmt.Sprintf("line %d of", off)))
			i++
		case k < 84:
			c.do("grep", "grep", map[string]any{"pattern": `needle-\d+`, "limit": 50}, func(r result) string {
				if p := noError("needle-")(r); p != "" {
					return p
				}
				if strings.Contains(r.text, "needle-ignored") {
					return "grep searched an ignored directory"
				}
				return ""
			})
			i++
		case k < 92:
			c.do("find", "find", map[string]any{"pattern": "**/file1*.go", "path": "src"}, noError("file1"))
			i++
		default:
			c.do("ls", "ls", map[string]any{"path": "src"}, noError("pkg00/"))
			i++
		}
	}
}

// crashOutcome is what crashTest saw.
type crashOutcome struct {
	err       error
	jobDiedIn time.Duration
	sweptDir  string
}

func (c crashOutcome) String() string {
	if c.err != nil {
		return c.err.Error()
	}
	return fmt.Sprintf("its background job died within %s, and the next server's start removed its spill directory %s",
		c.jobDiedIn.Round(time.Millisecond), filepath.Base(c.sweptDir))
}

// crashTest kills a server with SIGKILL while a session has a spill
// directory and a background job: the job must die with it (parent-death
// signal), and the next server's start must sweep the directory.
func crashTest(ws, tmp string) (out crashOutcome) {
	srv, err := startServer(ws, tmp)
	if err != nil {
		return crashOutcome{err: err}
	}
	defer srv.cmd.Process.Kill()
	d := &driver{srv: srv, ws: ws, lat: map[string][]time.Duration{}}
	c, err := d.connect(0)
	if err != nil {
		return crashOutcome{err: err}
	}
	defer c.close()
	if _, _, err := c.call("bash", map[string]any{"command": "seq 1 200000"}); err != nil {
		return crashOutcome{err: err}
	}
	r, _, err := c.call("bash", map[string]any{"command": "exec sleep 300", "run_in_background": true})
	if err != nil {
		return crashOutcome{err: err}
	}
	pid := num(r.details, "pid")
	dirs, _ := filepath.Glob(filepath.Join(tmp, fmt.Sprintf("spillway-%d-*", srv.cmd.Process.Pid)))
	if pid == 0 || len(dirs) != 1 {
		return crashOutcome{err: fmt.Errorf("no job (pid %d) or no spill directory (%v) before the kill", pid, dirs)}
	}
	srv.cmd.Process.Signal(syscall.SIGKILL)
	<-srv.exited
	t0 := time.Now()
	settle(func() bool { return !alive(pid) })
	if alive(pid) {
		syscall.Kill(pid, syscall.SIGKILL)
		return crashOutcome{err: fmt.Errorf("its background job %d outlived it", pid)}
	}
	out.jobDiedIn = time.Since(t0)
	next, err := startServer(ws, tmp)
	if err != nil {
		return crashOutcome{err: err}
	}
	next.stop(30 * time.Second)
	if _, err := os.Stat(dirs[0]); err == nil {
		return crashOutcome{err: fmt.Errorf("the next start left its spill directory %s", dirs[0])}
	}
	out.sweptDir = dirs[0]
	return out
}

func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i > 0 && i+2 < len(s) && s[i+2] != 'Z'
}

// bearer adds the server's token to every request.
type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}
