//go:build linux && !spillway_portable

package sandbox

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// nsRules are d's rules with the namespaces layer, or the test skips.
func nsRules(t *testing.T, d dirs, noNetwork bool) *Rules {
	t.Helper()
	requireLandlock(t, FilesABI)
	rules := d.rules(noNetwork)
	if rules.Layers&Namespaces == 0 {
		t.Skip("no namespaces here")
	}
	return rules
}

// hostPIDs returns the pids, as this process sees them, of the processes
// whose command line is exactly argv.
func hostPIDs(argv ...string) []int {
	want := []byte(strings.Join(argv, "\x00") + "\x00")
	entries, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if b, err := os.ReadFile("/proc/" + e.Name() + "/cmdline"); err == nil && bytes.Equal(b, want) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// startSleep starts a daemon, a setsid sleep of secs seconds, in the
// session sandbox of rules, and waits until it runs: the command that
// starts it returns before the sleep has replaced setsid, and until then
// there is no sleep to find, kill or outlive anything. It returns the
// sleep's pid as this process sees it, and as the session does.
func startSleep(t *testing.T, rules *Rules, root, secs string) (host int, inSession string) {
	t.Helper()
	r := bash(t, rules, root, "setsid sleep "+secs+" </dev/null >/dev/null 2>&1 & echo $!")
	inSession = strings.TrimSpace(r.stdout)
	if r.exit != 0 || inSession == "" {
		t.Fatalf("starting the sleep: exit %d, %q %q", r.exit, r.stdout, r.stderr)
	}
	deadline := time.Now().Add(time.Minute)
	for {
		pids := hostPIDs("sleep", secs)
		if len(pids) == 1 {
			return pids[0], inSession
		}
		if len(pids) > 1 || time.Now().After(deadline) {
			t.Fatalf("the sleep of %s s: pids %v", secs, pids)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A session's commands share its namespaces, but not another session's:
// a command of one cannot see or signal a process of the other, by its
// pid in either namespace or by kill -1.
func TestSessionCannotSignalAnotherSession(t *testing.T) {
	da, db := makeDirs(t), makeDirs(t)
	a, b := nsRules(t, da, false), nsRules(t, db, false)
	secs := fmt.Sprint(6000 + os.Getpid()%1000)
	host, inA := startSleep(t, a, da.root, secs)
	defer syscall.Kill(host, syscall.SIGKILL)

	// "done" first: A's pid names some process of B's own namespace too
	// (it may be this shell), and kill -9 -1 ends this shell as well.
	script := fmt.Sprintf("ps -e -o comm= | grep -c '^sleep$'; echo done; kill -9 %s %d 2>/dev/null; kill -9 -1", inA, host)
	r := bash(t, b, db.root, script)
	if !strings.Contains(r.stdout, "done") {
		t.Fatalf("session B: exit %d, %q %q", r.exit, r.stdout, r.stderr)
	}
	if seen := strings.Fields(r.stdout)[0]; seen != "0" {
		t.Errorf("session B sees %s sleep processes; want none of session A's", seen)
	}
	if err := syscall.Kill(host, 0); err != nil {
		t.Errorf("session A's sleep after session B's kills: %v", err)
	}
	// Session A's own commands see it, and may end it.
	r = bash(t, a, da.root, "kill "+inA+" && echo killed")
	if strings.TrimSpace(r.stdout) != "killed" {
		t.Errorf("session A killing its own sleep: exit %d, %q %q", r.exit, r.stdout, r.stderr)
	}
}

// The zygote is the first process of the session's PID namespace and
// handles every signal: no command of the session can end it, and the
// session's next command still runs in it.
func TestSessionCommandCannotEndTheZygote(t *testing.T) {
	d := makeDirs(t)
	rules := nsRules(t, d, true)
	first := bash(t, rules, d.root, "cat /proc/1/stat | cut -d' ' -f22")
	if first.exit != 0 {
		t.Fatalf("exit %d, %q", first.exit, first.stderr)
	}
	for _, sig := range []string{"KILL", "STOP", "TERM", "INT", "HUP", "QUIT", "SEGV", "ABRT", "BUS", "USR1", "PIPE", "SYS"} {
		r := bash(t, rules, d.root, "kill -"+sig+" 1; echo sent")
		if !strings.Contains(r.stdout, "sent") {
			t.Fatalf("SIG%s: exit %d, %q %q", sig, r.exit, r.stdout, r.stderr)
		}
	}
	again := bash(t, rules, d.root, "cat /proc/1/stat | cut -d' ' -f22")
	if again.exit != 0 || again.stdout != first.stdout {
		t.Errorf("the zygote started at %q before the signals, %q after (exit %d, %q): it was replaced", first.stdout, again.stdout, again.exit, again.stderr)
	}
}

// Many commands at once in one session each get their own process
// group and their own exit status.
func TestSessionConcurrentCommands(t *testing.T) {
	d := makeDirs(t)
	rules := nsRules(t, d, false)
	var wg sync.WaitGroup
	for i := range 12 {
		wg.Go(func() {
			r := bash(t, rules, d.root, fmt.Sprintf(`test "$(ps -o pgid= $$)" -eq $$ && echo %d; exit %d`, i, i))
			if r.exit != i || strings.TrimSpace(r.stdout) != strconv.Itoa(i) {
				t.Errorf("command %d: exit %d, %q %q", i, r.exit, r.stdout, r.stderr)
			}
		})
	}
	wg.Wait()
}

// A session sandbox ends once a directory it was made for is removed
// (the session's temp directory, at its end), and everything in it ends
// with it; the next command with the same rules gets a new one.
func TestSessionEndsWithItsDirectory(t *testing.T) {
	d := makeDirs(t)
	rules := nsRules(t, d, false)
	secs := fmt.Sprint(7000 + os.Getpid()%1000)
	startSleep(t, rules, d.root, secs)
	s, err := sessionFor(*rules)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(d.tmp); err != nil {
		t.Fatal(err)
	}
	wantEnded(t, s, secs, "its temp directory")
	if err := os.Mkdir(d.tmp, 0o755); err != nil {
		t.Fatal(err)
	}
	if r := bash(t, rules, d.root, `echo new > "$T/new" && cat "$T/new"`, "T="+filepath.Join(d.tmp)); strings.TrimSpace(r.stdout) != "new" {
		t.Errorf("the next command: exit %d, %q %q", r.exit, r.stdout, r.stderr)
	}
}

// A command of a session holds its own descriptors and no other: not the
// zygote's socket, nor the status pipe of an earlier command.
func TestSessionCommandGetsOnlyItsDescriptors(t *testing.T) {
	d := makeDirs(t)
	rules := nsRules(t, d, false)
	bash(t, rules, d.root, "true")
	r := bash(t, rules, d.root, `cd /proc/self/fd && echo *`)
	// 3 is the directory echo's glob reads.
	if got := strings.TrimSpace(r.stdout); got != "0 1 2 3" {
		t.Errorf("descriptors of a command: %q (stderr %q), want 0 1 2 3", got, r.stderr)
	}
}

// A command of a session gets the environment it was given and nothing
// of the zygote's own (which sets the Go scheduler's GOMAXPROCS for
// itself).
func TestSessionCommandGetsOnlyItsEnvironment(t *testing.T) {
	d := makeDirs(t)
	rules := nsRules(t, d, false)
	cmd := exec.Command("/bin/bash", "-c", `echo "${GOMAXPROCS-unset} $MINE"`)
	cmd.Dir = d.root
	cmd.Env = []string{"PATH=/usr/bin:/bin", "MINE=mine"}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	r := start(t, cmd, rules)
	if got := strings.TrimSpace(r.stdout); r.exit != 0 || got != "unset mine" {
		t.Errorf("a command's GOMAXPROCS and MINE: %q (exit %d, stderr %q), want \"unset mine\"", got, r.exit, r.stderr)
	}
}

// An idle session sandbox is not woken: its zygote waits for the next
// command in the kernel, and nothing of the Go runtime (its monitor
// looking at a thread that waits in a system call) runs meanwhile.
func TestIdleZygoteIsNotWoken(t *testing.T) {
	d := makeDirs(t)
	rules := nsRules(t, d, false)
	bash(t, rules, d.root, "true")
	zygote := zygoteOf(t, d.root)
	// The monitor looks at a blocked thread twice, 20 µs apart, before it
	// sleeps; what the command's end set going is over well within this.
	time.Sleep(200 * time.Millisecond)
	_, before := schedStats(zygote)
	time.Sleep(2 * time.Second)
	_, after := schedStats(zygote)
	// Once every 60 s at most the monitor wakes on its own; a thread
	// polled in a system call was woken every 10 ms, 200 times here.
	woken := after - before
	t.Logf("the idle zygote's threads were put on a CPU %d times in 2 s", woken)
	if woken > 10 {
		t.Errorf("an idle zygote's threads were put on a CPU %d times in 2 s, want at most 10", woken)
	}
	if r := bash(t, rules, d.root, "echo still"); r.stdout != "still\n" {
		t.Errorf("the next command after the idle wait: %q %q", r.stdout, r.stderr)
	}
}

// Starting a command that a session sandbox is to start with cmd.Start
// fails: it would run unconfined.
func TestSessionCommandDoesNotStartItself(t *testing.T) {
	d := makeDirs(t)
	rules := nsRules(t, d, false)
	cmd := exec.Command("bash", "-c", "touch "+d.outside+"/ran")
	launch, err := Wrap(cmd, *rules)
	if err != nil {
		t.Fatal(err)
	}
	defer launch.Close()
	if launch.Start == nil {
		t.Fatal("no Start")
	}
	if err := cmd.Run(); err == nil || exists(d.outside+"/ran") {
		t.Errorf("cmd.Run of a wrapped command: %v, ran: %v", err, exists(d.outside+"/ran"))
	}
}

// A session sandbox with nothing running ends after idleEnd, so that an
// idle session holds no process; one with a process left running (a
// daemon its command started) does not; the next command starts a new
// one and runs.
func TestSessionEndsWhenIdle(t *testing.T) {
	d := makeDirs(t)
	rules := nsRules(t, d, false)
	defer func(old time.Duration) { idleEnd = old }(idleEnd)
	idleEnd = 50 * time.Millisecond

	secs := fmt.Sprint(8000 + os.Getpid()%1000)
	startSleep(t, rules, d.root, secs)
	s, err := sessionFor(*rules)
	if err != nil {
		t.Fatal(err)
	}
	// Several idle looks pass while the daemon runs: the sandbox stays.
	busyUntil := time.Now().Add(10 * idleEnd)
	for time.Now().Before(busyUntil) {
		select {
		case <-s.dead:
			t.Fatal("the session sandbox ended while a process of it ran")
		case <-time.After(idleEnd):
		}
	}
	for _, pid := range hostPIDs("sleep", secs) {
		syscall.Kill(pid, syscall.SIGKILL)
	}
	select {
	case <-s.dead:
	case <-time.After(time.Minute):
		t.Fatal("the idle session sandbox did not end")
	}
	if !s.ended.Load() {
		t.Error("the session sandbox ended, but not because it was idle")
	}
	if r := bash(t, rules, d.root, "echo again"); r.exit != 0 || strings.TrimSpace(r.stdout) != "again" {
		t.Errorf("the next command: exit %d, %q %q", r.exit, r.stdout, r.stderr)
	}
	if s2, err := sessionFor(*rules); err != nil || s2 == s {
		t.Errorf("the next command ran in the ended sandbox (or none: %v)", err)
	}
}

// When the hub dies (killed, say), every session sandbox it made dies
// with it, everything in them too, and the next command starts a new hub
// and runs.
func TestSessionSandboxesEndWithTheHub(t *testing.T) {
	d := makeDirs(t)
	rules := nsRules(t, d, true)
	secs := fmt.Sprint(9000 + os.Getpid()%1000)
	startSleep(t, rules, d.root, secs)
	s, err := sessionFor(*rules)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(s.hub.pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	wantEnded(t, s, secs, "its hub")
	if r := bash(t, rules, d.root, "echo again"); r.exit != 0 || strings.TrimSpace(r.stdout) != "again" {
		t.Errorf("the next command: exit %d, %q %q", r.exit, r.stdout, r.stderr)
	}
	if s2, err := sessionFor(*rules); err != nil || s2.hub == s.hub {
		t.Errorf("the next command ran without a new hub (%v)", err)
	}
}

// Once its last session sandbox has ended, the hub ends too, after
// hubIdleEnd: a server with no sandbox holds no process for them. The
// next command starts a new hub and runs.
func TestHubEndsWhenIdle(t *testing.T) {
	d := makeDirs(t)
	rules := nsRules(t, d, false)
	defer func(old, oldHub time.Duration) { idleEnd, hubIdleEnd = old, oldHub }(idleEnd, hubIdleEnd)
	idleEnd, hubIdleEnd = 50*time.Millisecond, 50*time.Millisecond

	if r := bash(t, rules, d.root, "true"); r.exit != 0 {
		t.Fatalf("exit %d, %q", r.exit, r.stderr)
	}
	theHub.Lock()
	h := theHub.h
	theHub.Unlock()
	if h == nil {
		t.Fatal("no hub after a command")
	}
	deadline := time.Now().Add(time.Minute)
	for exists("/proc/" + strconv.Itoa(h.pid)) {
		if time.Now().After(deadline) {
			t.Fatal("the idle hub did not end")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if r := bash(t, rules, d.root, "echo again"); r.exit != 0 || strings.TrimSpace(r.stdout) != "again" {
		t.Errorf("the next command: exit %d, %q %q", r.exit, r.stdout, r.stderr)
	}
}

// wantEnded waits for the session sandbox s to end once cause is gone, and
// for the setsid sleep of secs seconds that ran in it to be gone with it.
func wantEnded(t *testing.T, s *session, secs, cause string) {
	t.Helper()
	select {
	case <-s.dead:
	case <-time.After(time.Minute):
		t.Fatalf("the session sandbox outlived %s", cause)
	}
	// The kernel kills what is left of the session's PID namespace once
	// its first process, the zygote, has ended; a killed process takes a
	// moment to go.
	deadline := time.Now().Add(time.Minute)
	for len(hostPIDs("sleep", secs)) > 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if left := hostPIDs("sleep", secs); len(left) != 0 {
		syscall.Kill(left[0], syscall.SIGKILL)
		t.Errorf("the session's sleep outlived %s by a minute: %v", cause, left)
	}
}

// Once a command's start has been answered, the zygote holds none of the
// command's descriptors. A process that holds a job's pipe is signalled
// with the job, and killed if it outlives the grace: had the zygote still
// held the pipe when the job was killed, the kill would have ended it and
// with it every command of the session.
func TestZygoteLetsGoOfACommandsFilesBeforeItAnswers(t *testing.T) {
	d := makeDirs(t)
	rules := nsRules(t, d, false)
	bash(t, rules, d.root, "true")
	zygote := zygoteOf(t, d.root)
	for i := range 20 {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		fi, err := w.Stat()
		if err != nil {
			t.Fatal(err)
		}
		pipe := fmt.Sprintf("pipe:[%d]", fi.Sys().(*syscall.Stat_t).Ino)
		cmd := exec.Command("/bin/sleep", "30")
		cmd.Dir = d.root
		cmd.Stdout = w
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		launch, err := Wrap(cmd, *rules)
		if err != nil {
			t.Fatal(err)
		}
		pid, err := launch.Start()
		launch.Started()
		if err != nil {
			t.Fatal(err)
		}
		// At once: the command's pid is all a caller needs to kill it.
		fds, _ := filepath.Glob(fmt.Sprintf("/proc/%d/fd/*", zygote))
		for _, fd := range fds {
			if l, _ := os.Readlink(fd); l == pipe {
				t.Errorf("start %d: the zygote still holds the command's stdout (%s) once its pid is known", i, fd)
			}
		}
		syscall.Kill(pid, syscall.SIGKILL)
		w.Close()
		r.Close()
		launch.Close()
	}
}
