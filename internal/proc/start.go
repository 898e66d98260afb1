package proc

import (
	"os/exec"
	"runtime"
	"sync"
)

// Start starts cmd, whose SysProcAttr is Attr or TTYAttr, as the job's
// shell: its pid becomes the group's id.
func (g *Group) Start(cmd *exec.Cmd) error {
	spareThreads()
	// A Cmd starts once, failed or not: the retry below starts a copy
	// made before the first try, so that its error is the command's own
	// (E2BIG, ENOENT…), not "exec: already started".
	fresh := *cmd
	done := g.intoCgroup(cmd)
	err := StartLocked(cmd)
	done()
	if err != nil && g.cg != nil {
		// The fork into the cgroup may be what failed (a group removed,
		// a kernel that refuses): the command starts outside it.
		g.cg = nil
		*cmd = fresh
		err = StartLocked(cmd)
	}
	if err != nil {
		return err
	}
	g.pid = cmd.Process.Pid
	return nil
}

// StartWith starts the group's shell through start, which returns its pid:
// a sandbox that forks the command itself instead of this process.
func (g *Group) StartWith(start func() (int, error)) error {
	spareThreads()
	g.cg = nil // the other process forks it, outside the cgroup
	pid, err := start()
	if err != nil {
		return err
	}
	g.pid = pid
	return nil
}

// Pid is the id of the group's shell, and so of the group.
func (g *Group) Pid() int { return g.pid }

// The parent-death signal fires when the *thread* that forked the child
// exits, not the process. Go may end a thread (when a goroutine exits
// while locked to it), so every command is started from one goroutine
// that stays locked to its thread for the life of the process.
var spawner struct {
	once sync.Once
	reqs chan spawnRequest
}

type spawnRequest struct {
	cmd  *exec.Cmd
	done chan error
}

// StartLocked starts cmd from the one thread that forks every child of
// this process, so that a parent-death signal set on cmd fires only when
// the process ends. The sandbox starts its session processes through it.
func StartLocked(cmd *exec.Cmd) error {
	spawner.once.Do(func() {
		spawner.reqs = make(chan spawnRequest)
		go spawnLoop(spawner.reqs)
	})
	req := spawnRequest{cmd: cmd, done: make(chan error, 1)}
	spawner.reqs <- req
	return <-req.done
}

func spawnLoop(reqs <-chan spawnRequest) {
	runtime.LockOSThread() // never unlocked: this thread must not exit
	for req := range reqs {
		req.done <- req.cmd.Start()
	}
}
