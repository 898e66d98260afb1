package shell

import "os"

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
	// less runs no shell command (!, |, v, LESSOPEN) with LESSSECURE
	// set: a command rule that allows less allows a pager, not a shell.
	"LESSSECURE=1",
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
