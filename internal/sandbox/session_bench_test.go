//go:build linux && !spillway_portable

package sandbox

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// The price of a sandboxed command: the first one of a session, which
// starts the session's sandbox, and the next ones, which the sandbox's
// zygote forks, beside a plain fork and exec of the same command. Each
// reports, besides the wall time, the CPU time (user and system) of
// every process the command needed, the sandbox's own included: they
// are counted once reaped, so each benchmark ends the sandboxes it
// started before it reads them.
//
//	go test -run '^$' -bench Session -benchtime 20x ./internal/sandbox/

func BenchmarkSessionFirstCommand(b *testing.B) {
	rules := benchRules(b)
	cpu := childCPU()
	b.ResetTimer()
	for range b.N {
		r := rules
		r.Writable = []string{b.TempDir()}
		runTrue(b, r)
		b.StopTimer()
		endSession(b, r)
		b.StartTimer()
	}
	b.StopTimer()
	b.ReportMetric(float64(childCPU()-cpu)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
}

func BenchmarkSessionCommand(b *testing.B) {
	rules := benchRules(b)
	rules.Writable = []string{b.TempDir()}
	runTrue(b, rules)
	endSession(b, rules)
	runTrue(b, rules)
	cpu := childCPU()
	b.ResetTimer()
	for range b.N {
		runTrue(b, rules)
	}
	b.StopTimer()
	endSession(b, rules)
	b.ReportMetric(float64(childCPU()-cpu)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
}

func BenchmarkPlainCommand(b *testing.B) {
	cpu := childCPU()
	for range b.N {
		if err := exec.Command("bash", "-c", "true").Run(); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(childCPU()-cpu)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
}

// benchRules are the rules of a server's session with every layer this
// machine offers, --no-network included, or the benchmark skips.
func benchRules(b *testing.B) Rules {
	if ok, abi, _ := Status(); !ok || abi < FilesABI {
		b.Skip("no Landlock here")
	}
	layers, err := Check(Rules{NoNetwork: true}, Landlock)
	if err != nil || layers&Namespaces == 0 {
		b.Skip("no namespaces here")
	}
	hidden := b.TempDir()
	shown := filepath.Join(hidden, "spillway-1-abc")
	if err := os.Mkdir(shown, 0o755); err != nil {
		b.Fatal(err)
	}
	return Rules{NoNetwork: true, Layers: layers, MaxProcesses: 4096, Hidden: []string{hidden}, Shown: []string{shown}}
}

// runTrue runs `bash -c true` under rules and waits for its status.
func runTrue(b *testing.B, rules Rules) {
	cmd := exec.Command("bash", "-c", "true")
	cmd.Dir = "/"
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	l, err := Wrap(cmd, rules)
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	if l.Start == nil {
		b.Skip("commands do not run in a session sandbox here")
	}
	_, err = l.Start()
	l.Started()
	if err != nil {
		b.Fatal(err)
	}
	var st [5]byte
	if _, err := io.ReadFull(l.Status, st[:]); err != nil || st[0] != StatusStarted {
		b.Fatalf("status %q: %v", st, err)
	}
}

// endSession ends the session sandbox of rules as an idle one ends, and
// waits until it is reaped.
func endSession(b *testing.B, rules Rules) {
	s, err := sessionFor(rules)
	if err != nil {
		b.Fatal(err)
	}
	s.endIfIdle()
	select {
	case <-s.dead:
	case <-time.After(time.Minute):
		b.Fatal("the session sandbox did not end")
	}
}

// childCPU is the CPU time of every child reaped so far, and of theirs,
// and of the running hub, which reaps the zygotes, and of its children.
func childCPU() time.Duration {
	var ru unix.Rusage
	unix.Getrusage(unix.RUSAGE_CHILDREN, &ru)
	cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	theHub.Lock()
	h := theHub.h
	theHub.Unlock()
	if h == nil {
		return cpu
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(h.pid) + "/stat")
	if err != nil {
		return cpu
	}
	// utime, stime, cutime and cstime, in clock ticks (100 a second),
	// after the command name.
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	for _, v := range f[11:15] {
		n, _ := strconv.Atoi(v)
		cpu += time.Duration(n) * 10 * time.Millisecond
	}
	return cpu
}

// BenchmarkSessionCommandPaced runs `bash -c true` in one session sandbox
// with a pause between commands, as a session's calls come, and reports
// the CPU time of the session's zygote alone per command: between
// commands it is idle, and each command wakes it again.
func BenchmarkSessionCommandPaced(b *testing.B) {
	rules := benchRules(b)
	rules.Writable = []string{b.TempDir()}
	runTrue(b, rules)
	zygote := zygoteOf(b, rules.Writable[0])
	cpu := taskCPU(zygote)
	b.ResetTimer()
	for range b.N {
		runTrue(b, rules)
		time.Sleep(20 * time.Millisecond)
	}
	b.StopTimer()
	b.ReportMetric(float64(taskCPU(zygote)-cpu)/float64(time.Millisecond)/float64(b.N), "zygote-cpu-ms/op")
	endSession(b, rules)
}

// zygoteOf returns the pid of the running zygote whose first writable
// directory is dir (the hub's child, as this process sees it).
func zygoteOf(tb testing.TB, dir string) int {
	tb.Helper()
	theHub.Lock()
	h := theHub.h
	theHub.Unlock()
	if h == nil {
		tb.Fatal("no hub")
	}
	tasks, _ := filepath.Glob("/proc/" + strconv.Itoa(h.pid) + "/task/*/children")
	for _, t := range tasks {
		b, _ := os.ReadFile(t)
		for _, f := range strings.Fields(string(b)) {
			args, _ := os.ReadFile("/proc/" + f + "/cmdline")
			if bytes.Contains(args, []byte("\x00-w\x00"+dir+"\x00")) {
				pid, _ := strconv.Atoi(f)
				return pid
			}
		}
	}
	tb.Fatalf("no zygote of %s among the hub's children", dir)
	return 0
}

// taskCPU is the time on a CPU of every thread of process pid, from the
// scheduler's statistics (nanoseconds, where /proc/PID/stat counts ticks).
func taskCPU(pid int) time.Duration {
	cpu, _ := schedStats(pid)
	return cpu
}

// schedStats sums, over every thread of process pid, the time on a CPU
// and the number of times it was put on one (/proc/PID/task/*/schedstat).
func schedStats(pid int) (cpu time.Duration, runs int64) {
	stats, _ := filepath.Glob("/proc/" + strconv.Itoa(pid) + "/task/*/schedstat")
	for _, s := range stats {
		b, err := os.ReadFile(s)
		if err != nil {
			continue
		}
		if f := strings.Fields(string(b)); len(f) == 3 {
			n, _ := strconv.ParseInt(f[0], 10, 64)
			r, _ := strconv.ParseInt(f[2], 10, 64)
			cpu += time.Duration(n)
			runs += r
		}
	}
	return cpu, runs
}
