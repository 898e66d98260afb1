package shell

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
)

// Named sessions: a bash call that names a session runs in the working
// directory and with the exported environment that the previous call of
// that session left behind.
//
// What persists, and why only that:
//
//   - the working directory (a `cd` holds for the next call), and
//   - the exported environment: variables exported, changed or unset.
//
// Shell variables that are not exported, functions, aliases, shell
// options (`set -e`) and traps do not persist: each call is still a fresh
// `bash -c`, so a command cannot leave the next one in a half-configured
// shell, and a session is fully described by a directory and an
// environment, which the next call receives the ordinary way (Dir and
// Env of the process). A shell kept alive between calls would persist
// everything, but would also share one process, one output stream and
// one failure between calls, and make timeouts, background jobs and
// cancellation per session instead of per call.
//
// How the state is captured: the command runs after an EXIT trap that
// writes $PWD, every exported variable and an end mark, NUL-separated, to file
// descriptor 3, an unlinked private file (not through stdout: the output
// stays exactly the command's). The trap keeps the command's exit status,
// and runs on `exit N` as on a normal end. No state is taken when the
// trap does not run — the command replaced the shell (`exec prog`), set
// its own EXIT trap, closed fd 3, was killed by a signal, or is still
// running when the call returns (timeout, background): the session then
// keeps what it had. A command run with args (no shell) runs in the
// session's directory and environment but cannot change them.
//
// Calls of one session may run at once; each starts from the state it
// finds, and each one that ends within its call writes back what it
// changed (the later one wins on the same variable).

// maxSessions bounds the named sessions of a Runner; the least recently
// used one is forgotten to make room for a new one.
const maxSessions = 32

// Variables a session never takes from a command: bash sets PWD, SHLVL
// and _ itself at every start (SHLVL would otherwise grow by one per
// call), and the trap sets IFS to split the names it lists. Names with
// the trap's prefix are its own (exported under `set -a`).
var sessionIgnored = map[string]bool{"PWD": true, "SHLVL": true, "_": true, "IFS": true,
	// spillway's own marks of a job's and a runner's processes: every call
	// gets them afresh.
	"SPILLWAY_JOB": true, "SPILLWAY_SESSION_MARK": true}

const trapPrefix = "__spillway_"

// unlisted variables are kept in a session but not shown to the model:
// bash's record of the previous directory, which cd - needs but the agent
// did not set.
var unlisted = map[string]bool{"OLDPWD": true}

func ignoredVar(k string) bool {
	return sessionIgnored[k] || strings.HasPrefix(k, trapPrefix) || !validName(k)
}

// validName reports whether k is what bash accepts as a variable name
// ([A-Za-z_][A-Za-z0-9_]*): other entries of the environment pass through
// bash untouched and are never in its list of exported variables, so
// their absence says nothing. (A loop, not a regexp: compiling one at
// start costs every CLI call.)
func validName(k string) bool {
	if k == "" || '0' <= k[0] && k[0] <= '9' {
		return false
	}
	for i := 0; i < len(k); i++ {
		if c := k[i]; !(isAlnum(c) || c == '_') {
			return false
		}
	}
	return true
}

// validSessionName reports whether name is 1 to 64 of [A-Za-z0-9._-].
func validSessionName(name string) bool {
	if name == "" || len(name) > 64 {
		return false
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; !(isAlnum(c) || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// stateTrap runs before the command, on the same line so that error
// messages keep the command's line numbers.
const stateTrap = `trap '__spillway_rc=$?; set +eua; IFS=$'"'"'\n'"'"'; { printf "%s\0" "$PWD"; for __spillway_v in $(compgen -e); do printf "%s=%s\0" "$__spillway_v" "${!__spillway_v}"; done; printf ".\0"; } >&3 2>/dev/null; exit $__spillway_rc' EXIT; `

// A session is the state one name carries from call to call.
type session struct {
	name string

	mu       sync.Mutex
	cwd      string            // "" until a command changes directory
	set      map[string]string // variables exported or changed
	unset    map[string]bool   // variables removed
	calls    int
	lastUsed time.Time
}

// sessionTable holds a Runner's named sessions.
type sessionTable struct {
	mu sync.Mutex
	m  map[string]*session
}

// session returns the named session, made on first use. forgot names a
// session dropped to make room, if one was.
func (t *sessionTable) session(name string) (s *session, forgot string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.m == nil {
		t.m = map[string]*session{}
	}
	if s := t.m[name]; s != nil {
		return s, ""
	}
	if len(t.m) >= maxSessions {
		var oldest *session
		for _, c := range t.m {
			c.mu.Lock()
			if oldest == nil || c.lastUsed.Before(oldest.lastUsed) {
				oldest = c
			}
			c.mu.Unlock()
		}
		delete(t.m, oldest.name)
		forgot = oldest.name
	}
	s = &session{name: name, set: map[string]string{}, unset: map[string]bool{}, lastUsed: time.Now()}
	t.m[name] = s
	return s, forgot
}

// EachSession calls fn with each named session, by name, with what it
// carries from call to call: its directory (the runner's until a command
// changes it), the variables its commands exported or changed (nil when
// none) and those they removed (sorted), the calls it took and when it
// was last used. fn runs after the sessions' locks are released.
func (r *Runner) EachSession(fn func(name, cwd string, set map[string]string, unset []string, calls int, lastUsed time.Time)) {
	r.sessions.mu.Lock()
	all := make([]*session, 0, len(r.sessions.m))
	for _, s := range r.sessions.m {
		all = append(all, s)
	}
	r.sessions.mu.Unlock()
	slices.SortFunc(all, func(a, b *session) int { return strings.Compare(a.name, b.name) })
	for _, s := range all {
		s.mu.Lock()
		cwd, calls, last := s.cwd, s.calls, s.lastUsed
		if cwd == "" {
			cwd = r.cfg.Cwd
		}
		var set map[string]string
		for k, v := range s.set {
			if !unlisted[k] {
				if set == nil {
					set = map[string]string{}
				}
				set[k] = v
			}
		}
		var unset []string
		for k := range s.unset {
			unset = append(unset, k)
		}
		s.mu.Unlock()
		sort.Strings(unset)
		fn(s.name, cwd, set, unset, calls, last)
	}
}

func maps(m map[string]string) map[string]string {
	c := make(map[string]string, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

// A sessionCall is one call's use of its session: what it started from,
// and the file its shell's EXIT trap writes the new state to.
type sessionCall struct {
	s     *session
	dir   string   // the directory the command started in
	env   []string // the environment it started with
	state *os.File // fd 3 of the shell; nil for a command run with args
	// keep says whether a changed variable may be carried (nil: all);
	// dropped lists the changes it refused.
	keep    func(string) bool
	dropped []string
}

// droppedNote says which changes a session did not carry, or "".
func (c *sessionCall) droppedNote() string {
	if c == nil || len(c.dropped) == 0 {
		return ""
	}
	slices.Sort(c.dropped)
	return fmt.Sprintf("[The session did not keep the change to %s: it chooses what programs run, and the next call would run under a value no rule saw. Pass it with the env parameter instead, where it is checked.]", strings.Join(c.dropped, ", "))
}

// begin marks a call of the session and returns its cwd ("" for the
// Runner's) and a copy of its environment changes.
func (s *session) begin() (cwd string, set map[string]string, unset map[string]bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls++
	s.lastUsed = time.Now()
	un := make(map[string]bool, len(s.unset))
	for k := range s.unset {
		un[k] = true
	}
	return s.cwd, maps(s.set), un
}

// newStateFile returns the unlinked private file a session call's shell
// writes its state to.
func newStateFile() (*os.File, error) {
	f, err := os.CreateTemp("", "spillway-state-*")
	if err != nil {
		return nil, fmt.Errorf("cannot make the session's state file: %w", err)
	}
	os.Remove(f.Name())
	return f, nil
}

// abandon gives up the state of a call that returns while its shell
// still runs: the session keeps what it had.
func (c *sessionCall) abandon() {
	if c != nil && c.state != nil {
		c.state.Close()
		c.state = nil
	}
}

// finish reads the state the shell left and applies what the command
// changed to the session. It is called once the shell has exited.
func (c *sessionCall) finish() {
	if c == nil || c.state == nil {
		return
	}
	defer c.abandon()
	data, err := io.ReadAll(io.NewSectionReader(c.state, 0, 16<<20))
	if err != nil || len(data) == 0 {
		return // the trap did not run: keep the session as it was
	}
	// PWD, then NAME=VALUE for each exported variable, then ".", each
	// NUL-terminated: without the final "." the write was cut short, and
	// half a state is never applied (its missing variables would read as
	// unset).
	fields := bytes.Split(data, []byte{0})
	if len(fields) < 3 || len(fields[len(fields)-1]) != 0 || string(fields[len(fields)-2]) != "." {
		return
	}
	pwd := string(fields[0])
	after := map[string]string{}
	for _, f := range fields[1 : len(fields)-2] {
		k, v, ok := strings.Cut(string(f), "=")
		if ok {
			after[k] = v
		}
	}
	before := envMap(c.env)

	s := c.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if pwd != "" && !sameDir(pwd, c.dir) {
		s.cwd = pwd
	}
	for k, v := range after {
		if ignoredVar(k) {
			continue
		}
		if old, ok := before[k]; !ok || old != v {
			if c.keep != nil && !c.keep(k) {
				c.dropped = append(c.dropped, k)
				continue
			}
			s.set[k] = v
			delete(s.unset, k)
		}
	}
	for k := range before {
		if ignoredVar(k) {
			continue
		}
		if _, ok := after[k]; !ok {
			if c.keep != nil && !c.keep(k) {
				c.dropped = append(c.dropped, k)
				continue
			}
			s.unset[k] = true
			delete(s.set, k)
		}
	}
}

// envMap turns an environment list into a map; a later entry wins, as
// os/exec does.
func envMap(env []string) map[string]string {
	m := make(map[string]string, len(env))
	for _, e := range env {
		if k, v, ok := strings.Cut(e, "="); ok {
			m[k] = v
		}
	}
	return m
}

// sameDir reports whether two paths name the same directory.
func sameDir(a, b string) bool {
	if a == b {
		return true
	}
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}

// sessionEnviron builds the environment of a session call: the session's
// changes over the Runner's, the call's over both.
func sessionEnviron(runner map[string]string, set map[string]string, unset map[string]bool, call map[string]string) []string {
	env := os.Environ()
	env = appendEnv(env, runner)
	env = append(env, fixedEnv...)
	env = appendEnv(env, set)
	if len(unset) > 0 {
		env = slices.DeleteFunc(env, func(e string) bool {
			k, _, _ := strings.Cut(e, "=")
			return unset[k]
		})
	}
	return appendEnv(env, call)
}

// validSession checks a session name given to a call.
func validSession(name string) error {
	if !validSessionName(name) {
		return fmt.Errorf("session %q: a name is 1 to 64 letters, digits, '.', '_' or '-'", name)
	}
	return nil
}
