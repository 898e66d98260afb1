//go:build linux || darwin

package proc

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Through its exported API, a Group started as a job's shell finds a
// child that left the group (setsid) and still holds the job's pipe once
// the shell has exited, and Signal reaches it.
func TestGroupSignalsASetsidChildThatHoldsThePipe(t *testing.T) {
	r, w, ino := jobPipe(t)
	exited, drained := make(chan struct{}), make(chan struct{})
	var pipeMu sync.Mutex
	pipeOpen := true
	g := NewGroup(exited, drained, func(fn func(inodes []uint64, terminals []string)) {
		pipeMu.Lock()
		defer pipeMu.Unlock()
		if pipeOpen {
			fn([]uint64{ino}, nil)
		} else {
			fn(nil, nil)
		}
	})
	cmd, _, child := startOnPipe(t, g, r, w, "setsid sleep 30 & echo $!")
	defer syscall.Kill(child, syscall.SIGKILL)
	for i := 0; ; i++ { // setsid comes after the fork: wait for it
		if pgid, err := syscall.Getpgid(child); err == nil && pgid == child {
			break
		}
		if i == 1000 {
			t.Fatalf("child %d never left the group", child)
		}
		time.Sleep(10 * time.Millisecond)
	}
	cmd.Wait()
	g.ShellExited()
	close(exited)
	if !g.HoldersLeft() {
		t.Fatal("the setsid child holds the pipe, yet no holder is left")
	}

	g.Signal(syscall.SIGKILL)
	eof := make(chan struct{})
	go func() {
		var b [64]byte
		for {
			if _, err := r.Read(b[:]); err != nil {
				close(eof)
				return
			}
		}
	}()
	select {
	case <-eof:
	case <-time.After(10 * time.Second):
		t.Fatal("the setsid child outlived Signal(SIGKILL): the pipe is still open")
	}
	pipeMu.Lock()
	pipeOpen = false
	pipeMu.Unlock()
	close(drained)
	// The pipe closes as the child exits, a moment before it is a zombie.
	for i := 0; g.HoldersLeft(); i++ {
		if i == 1000 {
			t.Fatalf("after the child's death: live %v, holders left %v", g.Live(), g.HoldersLeft())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if g.Live() {
		t.Error("the group is live once nothing holds the pipe")
	}
}

// A child that left the group (setsid) and closes the job's pipe on
// SIGTERM, then runs on, is still among the Survivors once nothing holds
// the pipe, and SignalSurvivors ends it.
func TestGroupSurvivorsOutliveTheirPipes(t *testing.T) {
	r, w, ino := jobPipe(t)
	exited, drained := make(chan struct{}), make(chan struct{})
	g := NewGroup(exited, drained, func(fn func(inodes []uint64, terminals []string)) {
		fn([]uint64{ino}, nil)
	})
	// The child prints its pid once its trap is set. It waits in short
	// sleeps: a child forked a moment before SIGTERM may take it with the
	// shell's handler, before its exec, and lose it.
	cmd, br, child := startOnPipe(t, g, r, w, `setsid sh -c 'trap "exec >&-; sleep 30" TERM; echo $$; while :; do sleep 0.2; done' &`)
	defer syscall.Kill(-child, syscall.SIGKILL)
	cmd.Wait()
	g.ShellExited()
	close(exited)

	g.Signal(syscall.SIGTERM)
	if _, err := io.Copy(io.Discard, br); err != nil {
		t.Fatal(err)
	}
	close(drained)
	// The pipe is at end of file; the child runs its trap.
	if got := g.Survivors(); !slices.Contains(got, child) {
		t.Fatalf("survivors %v after the pipe closed, want %d among them", got, child)
	}
	g.SignalSurvivors(syscall.SIGKILL)
	for i := 0; len(g.Survivors()) > 0; i++ {
		if i == 1000 {
			t.Fatalf("survivors %v after SIGKILL", g.Survivors())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// jobPipe is a pipe as a job's output is one, and the inode by which a
// Group finds the processes that hold it. The read end is closed when
// the test ends.
func jobPipe(t *testing.T) (r, w *os.File, ino uint64) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	fi, err := r.Stat()
	if err != nil {
		t.Fatal(err)
	}
	return r, w, Inode(fi)
}

// startOnPipe starts script with sh in g, the job's pipe w as its stdout,
// closes the test's end of w, and reads from r the pid the script prints
// first. The group is watched until the test ends.
func startOnPipe(t *testing.T, g *Group, r, w *os.File, script string) (*exec.Cmd, *bufio.Reader, int) {
	t.Helper()
	cmd := exec.Command("sh", "-c", script)
	cmd.Env = g.MarkEnv(os.Environ())
	cmd.Stdout = w
	cmd.SysProcAttr = Attr()
	if err := g.Start(cmd); err != nil {
		t.Fatal(err)
	}
	w.Close()
	g.Watch()
	t.Cleanup(g.Forget)
	br := bufio.NewReader(r)
	line, err := br.ReadString('\n')
	child, _ := strconv.Atoi(strings.TrimSpace(line))
	if err != nil || child <= 0 {
		t.Fatalf("child pid %q: %v", line, err)
	}
	return cmd, br, child
}
