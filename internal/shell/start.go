package shell

import (
	"os"
	"os/exec"
	"runtime"
	"sync"
)

// fixedEnv is what every command's environment gets: no colours, no
// pager, no prompt, no editor, and Python writing each line as it is
// printed. A command's output is a pipe, and Python block-buffers a pipe,
// so a dev server's "listening on …" line would otherwise stay in its
// buffer until exit and never reach a timed-out call or check_pid. The
// other runtimes agents run either flush per line on a pipe already (Node,
// Go, Rust, Java's System.out, .NET) or have no switch in the environment
// (Ruby, Perl, C stdio): docs/runtimes.md says what to do for those.
var fixedEnv = []string{
	"TERM=dumb",
	"NO_COLOR=1",
	"PAGER=cat",
	"GIT_PAGER=cat",
	"GIT_TERMINAL_PROMPT=0",
	"GIT_EDITOR=true",
	"PYTHONUNBUFFERED=1",
}

// environ builds a command's environment: this process's, the session's,
// the fixed additions, then the call's. A later entry wins (os/exec keeps
// the last value of a repeated name).
func environ(session, call map[string]string) []string {
	env := os.Environ()
	env = appendEnv(env, session)
	env = append(env, fixedEnv...)
	return appendEnv(env, call)
}

func appendEnv(env []string, vars map[string]string) []string {
	for k, v := range vars {
		env = append(env, k+"="+v)
	}
	return env
}

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

// startCmd starts cmd on the spawner's thread.
func startCmd(cmd *exec.Cmd) error {
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
