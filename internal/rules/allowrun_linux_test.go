//go:build linux && !spillway_portable

package rules

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/spillway-dev/spillway/internal/sandbox"
)

// FuzzAllowedRuns is the differential test of "allow only what is fully
// known": every input the checker allows, under the round-2 rule sets
// (default ask with the exact allow list; default allow with the deny and
// ask rules), is run by bash -c in a throwaway sandbox, with the programs
// it executes traced by strace. Then
//
//   - every program that ran (execve or execveat that succeeded) is a
//     reported part: its path's or its argv[0]'s base name is a word of a
//     part's command (a shell whose code the checker reads in turn, and
//     a wrapper it sees through, included: env X=1 bash -c ls has the
//     parts "env X=1 bash -c ls" and "ls");
//   - no variable of list (a) or (b) changed: bash's variables (declare
//     -p before the input and at its exit) and the environment of every
//     program it ran (the traced execve's envp against the one the shell
//     was given). The variables bash itself moves on its own (LINENO,
//     RANDOM, PIPESTATUS, PWD after an allowed cd, …) are left out,
//     SHELLOPTS and BASHOPTS may change only by the options the checker
//     models, and BASH_CMDS may only remember where PATH lookup found a
//     program.
//
// The sandbox: a fresh directory (a work tree that looks like a git
// repository, HOME, TMPDIR), an environment of a few fixed variables,
// PATH of recording shims only (each appends its name to a log and exits)
// but for a few real wrappers (bash, sh, env, xargs, find, timeout, nice,
// nohup, stdbuf), stdin /dev/null, and spillway's Landlock sandbox over
// it all: nothing outside that directory can be written, no TCP connect
// made, no process outside signalled. A run is stopped after 5 seconds.
//
// Inputs come from a grammar of bash pieces (allowrun_gen_linux_test.go)
// driven by the fuzzer's bytes, after a raw statement that the fuzzer
// mutates byte by byte; the seeds are every attempt of the bypass tables
// and the corpus in testdata/fuzz/FuzzAllowedRuns. go test runs the seeds
// only, and runs in the sandbox only the ones that are allowed.
func FuzzAllowedRuns(f *testing.F) {
	h := newAllowRunHarness(f)
	for _, s := range h.spellings {
		f.Add(s, []byte(nil))
	}
	for _, in := range everyday {
		f.Add(in, []byte(nil))
	}
	f.Fuzz(func(t *testing.T, raw string, choices []byte) {
		in := raw
		if len(choices) > 0 {
			gen := generate(choices[1:], h.spellings)
			switch {
			case in == "":
				in = gen
			case choices[0]%2 == 0:
				in += "\n" + gen
			default:
				in = gen + "; " + in
			}
		}
		h.check(t, in)
	})
}

// allowRunHarness is what every run of a fuzzing process shares: its
// rule sets, its sandbox directory, and the layers this kernel offers.
type allowRunHarness struct {
	askDefault, allowDefault *Set
	spellings                []string
	strace                   string
	layers                   sandbox.Layer
	root                     string
	cx                       Context

	mu   sync.Mutex
	runs int
}

// shimmed are the programs the shims stand for: the allow list's, the
// deny list's and what the grammar and the bypass tables name.
var shimmed = []string{
	"ls", "cat", "echo", "printf", "grep", "cp", "chmod", "mkdir", "git", "less", "vim", "python3", "python", "rm", "curl",
	"wget", "shred", "touch", "wc", "head", "tail", "sed", "awk", "gawk", "make", "perl", "sudo", "doas", "su", "setpriv",
	"true", "false", "test", "[", "sleep", "id", "date", "tee", "sort", "ln", "mv", "node", "npm", "ssh", "tar", "unzip",
	"patch", "busybox", "pkexec", "runuser", "chroot", "unshare", "nsenter", "printenv", "kill", "which", "man", "ed",
	"socat", "strace", "gdb", "ruby", "go", "cc", "gcc", "vi", "nano", "emacs", "tmux", "script", "expect", "dd", "install",
	"rsync", "scp", "nc", "zsh", "dash", "fish", "ksh", "hyperfine", "watch", "parallel", "flock", "setsid", "chronic",
}

// realWrappers run on PATH as themselves: the programs that run others,
// whose effect the checker models.
var realWrappers = []string{"bash", "sh", "env", "xargs", "find", "timeout", "nice", "nohup", "stdbuf"}

func newAllowRunHarness(f testing.TB) *allowRunHarness {
	f.Helper()
	st, err := exec.LookPath("strace")
	if err != nil {
		f.Skip("strace is not installed: the differential test traces what an allowed input runs with strace -f (apt-get install strace)")
	}
	if avail, _, err := sandbox.Status(); !avail {
		f.Skipf("no Landlock here, and the differential test runs what the fuzzer makes only in a sandbox: %v", err)
	}
	layers, err := sandbox.Check(sandbox.Rules{NoNetwork: true}, sandbox.Landlock)
	if err != nil {
		f.Skipf("the sandbox cannot start here: %v", err)
	}
	// The helper's own path (no session zygote): the traced shell is
	// the helper's exec.
	layers &^= sandbox.Namespaces
	h := &allowRunHarness{strace: st, layers: layers}
	h.askDefault, h.allowDefault = round2Sets(f)
	for _, file := range []string{"testdata/bypass2.jsonl", "testdata/bypass5.jsonl"} {
		h.spellings = append(h.spellings, readSpellings(f, file)...)
	}
	h.root, err = os.MkdirTemp("", "allowrun")
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { os.RemoveAll(h.root) })
	// The shims stand for the system's programs: their directory is
	// not one the session writes (though the test can).
	h.cx = Context{Dir: filepath.Join(h.root, "work"), PATH: filepath.Join(h.root, "shims"), Writable: func(string) bool { return false }}
	if err := h.reset(); err != nil {
		f.Fatal(err)
	}
	return h
}

func readSpellings(t testing.TB, file string) []string {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for i, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var c round2Case
		if err := json.Unmarshal([]byte(line), &c); err != nil {
			t.Fatalf("%s line %d: %v", file, i+1, err)
		}
		out = append(out, c.Command)
	}
	return out
}

// reset makes the sandbox directory anew: what the last input did to it
// (a shim replaced, a file removed) does not reach the next.
func (h *allowRunHarness) reset() error {
	if err := os.RemoveAll(h.root); err != nil {
		// A directory the input made unwritable.
		exec.Command("chmod", "-R", "u+rwx", h.root).Run()
		if err := os.RemoveAll(h.root); err != nil {
			return err
		}
	}
	for _, d := range []string{"shims", "work/d", "work/.git/hooks", "home", "tmp", "trace"} {
		if err := os.MkdirAll(filepath.Join(h.root, d), 0o755); err != nil {
			return err
		}
	}
	files := map[string]string{
		"work/f": "x\ny\n", "work/victim": "keep\n", "work/x.py": "import os\n", "work/.git/HEAD": "ref: refs/heads/main\n",
		"work/.git/config": "[core]\n\tbare = false\n", "home/.bashrc": "", "work/e.sh": "touch P\n",
	}
	log := filepath.Join(h.root, "shim.log")
	for _, p := range shimmed {
		files["shims/"+p] = "#!/bin/sh\nprintf '%s\\n' " + shQuote(p) + " >> " + shQuote(log) + "\nexit 0\n"
	}
	for name, content := range files {
		mode := os.FileMode(0o644)
		if strings.HasPrefix(name, "shims/") {
			mode = 0o755
		}
		if err := os.WriteFile(filepath.Join(h.root, name), []byte(content), mode); err != nil {
			return err
		}
	}
	for _, p := range realWrappers {
		real, err := exec.LookPath(p)
		if err != nil {
			continue
		}
		if real, err = filepath.EvalSymlinks(real); err != nil {
			continue
		}
		if err := os.Symlink(real, filepath.Join(h.root, "shims", p)); err != nil {
			return err
		}
	}
	prologue := "unset BASH_ENV\ndeclare -p >| " + shQuote(filepath.Join(h.root, "before")) + "\n" +
		"trap 'umask 022; declare -p >| " + shQuote(filepath.Join(h.root, "after")) + "' EXIT\n"
	return os.WriteFile(filepath.Join(h.root, "prologue"), []byte(prologue), 0o644)
}

func shQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// env is the environment the shell starts with; BASH_ENV reads the
// prologue, which unsets it.
func (h *allowRunHarness) env() []string {
	return []string{
		"PATH=" + h.cx.PATH, "HOME=" + filepath.Join(h.root, "home"), "TMPDIR=" + filepath.Join(h.root, "tmp"),
		"LANG=C", "TERM=dumb", "LESSSECURE=1", "BASH_ENV=" + filepath.Join(h.root, "prologue"),
	}
}

func (h *allowRunHarness) check(t *testing.T, in string) {
	if strings.IndexByte(in, 0) >= 0 {
		// No exec argument holds a NUL: such an input cannot reach
		// bash -c, and the bash tool fails to start it.
		return
	}
	var allowed []Verdict
	for _, s := range []*Set{h.askDefault, h.allowDefault} {
		if v := s.CheckIn(in, h.cx); v.Decision == Allow {
			allowed = append(allowed, v)
		}
	}
	if len(allowed) == 0 {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.runs++
	if err := h.reset(); err != nil {
		t.Fatal(err)
	}
	r, err := h.run(in)
	if err != nil {
		t.Fatal(err)
	}
	var problems []string
	for _, v := range allowed {
		problems = append(problems, unreported(r, v, in)...)
	}
	problems = append(problems, r.varChanges(h.env())...)
	if len(problems) > 0 {
		slices.Sort(problems)
		problems = slices.Compact(problems)
		t.Fatalf("%q is allowed;%s\nbut when it ran:\n  %s", in, partsText(allowed[0]), strings.Join(problems, "\n  "))
	}
}

// A traced exec is one execve or execveat that succeeded.
type tracedExec struct {
	path string
	argv []string
	env  []string
}

type allowRun struct {
	execs         []tracedExec
	shims         []string
	before, after string
	afterMissing  bool
	timedOut      bool
}

// run runs in under strace in the sandbox and reads what it left.
func (h *allowRunHarness) run(in string) (*allowRun, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	trace := filepath.Join(h.root, "trace", "t")
	cmd := exec.Command(h.strace, "-ff", "-qq", "-e", "signal=none", "-v", "-s", "65536", "-e", "trace=execve,execveat",
		"-o", trace, "--", "/bin/bash", "-c", in)
	cmd.Dir = h.cx.Dir
	cmd.Env = h.env()
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	l, err := sandbox.Wrap(cmd, sandbox.Rules{Writable: []string{h.root}, NoNetwork: true, Layers: h.layers})
	if err != nil {
		return nil, err
	}
	defer l.Close()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		l.Started()
		return nil, err
	}
	l.Started()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	r := &allowRun{}
	select {
	case <-done:
	case <-ctx.Done():
		r.timedOut = true
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-done
	}
	names, _ := filepath.Glob(trace + ".*")
	if len(names) == 0 {
		return nil, fmt.Errorf("strace wrote no trace (stderr %q)", stderr.String())
	}
	rootSkipped := false
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			return nil, err
		}
		for _, line := range strings.Split(string(b), "\n") {
			e, ok := parseExec(line)
			if !ok {
				continue
			}
			if !rootSkipped && e.path == "/bin/bash" && slices.Equal(e.argv, []string{"/bin/bash", "-c", in}) {
				rootSkipped = true
				continue
			}
			r.execs = append(r.execs, e)
		}
	}
	if !rootSkipped {
		return nil, fmt.Errorf("the trace does not hold the shell's own exec: strace did not trace it (stderr %q)", stderr.String())
	}
	if b, err := os.ReadFile(filepath.Join(h.root, "shim.log")); err == nil {
		r.shims = strings.Fields(string(b))
	}
	b, err := os.ReadFile(filepath.Join(h.root, "before"))
	if err != nil {
		return nil, fmt.Errorf("the prologue did not run: %v (stderr %q)", err, stderr.String())
	}
	r.before = string(b)
	if b, err := os.ReadFile(filepath.Join(h.root, "after")); err == nil {
		r.after = string(b)
	} else {
		r.afterMissing = true
	}
	return r, nil
}

// parseExec reads one line of strace -v: execve("path", [argv], [envp])
// = 0, or execveat(fd, "path", [argv], [envp], flags) = 0.
func parseExec(line string) (tracedExec, bool) {
	var name string
	switch {
	case strings.HasPrefix(line, "execve("):
		name = "execve"
	case strings.HasPrefix(line, "execveat("):
		name = "execveat"
	default:
		return tracedExec{}, false
	}
	i := strings.LastIndex(line, ") = ")
	if i < 0 || strings.TrimSpace(line[i+4:]) != "0" {
		return tracedExec{}, false
	}
	p := &straceArgs{s: line[len(name)+1 : i]}
	vals := p.values()
	var e tracedExec
	strs, arrays := []string{}, [][]string{}
	for _, v := range vals {
		switch v := v.(type) {
		case string:
			strs = append(strs, v)
		case []string:
			arrays = append(arrays, v)
		}
	}
	if len(arrays) < 2 {
		return tracedExec{}, false
	}
	if len(strs) > 0 {
		e.path = strs[0]
	}
	e.argv, e.env = arrays[0], arrays[1]
	return e, true
}

// straceArgs reads strace's argument list: C strings (maybe followed by
// "..." when cut), arrays of them, and bare words.
type straceArgs struct {
	s string
	i int
}

func (p *straceArgs) values() []any {
	var out []any
	for p.i < len(p.s) {
		switch c := p.s[p.i]; {
		case c == ',' || c == ' ':
			p.i++
		case c == '"':
			out = append(out, p.str())
		case c == '[':
			p.i++
			var arr []string
			for p.i < len(p.s) && p.s[p.i] != ']' {
				switch p.s[p.i] {
				case '"':
					arr = append(arr, p.str())
				default:
					p.i++
				}
			}
			p.i++
			out = append(out, arr)
		default:
			j := p.i
			for p.i < len(p.s) && p.s[p.i] != ',' {
				p.i++
			}
			out = append(out, strings.TrimSpace(p.s[j:p.i]))
		}
	}
	return out
}

func (p *straceArgs) str() string {
	var b strings.Builder
	p.i++ // the opening quote
	for p.i < len(p.s) {
		c := p.s[p.i]
		p.i++
		switch c {
		case '"':
			if strings.HasPrefix(p.s[p.i:], "...") {
				p.i += 3
			}
			return b.String()
		case '\\':
			if p.i >= len(p.s) {
				return b.String()
			}
			e := p.s[p.i]
			p.i++
			switch e {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case 'v':
				b.WriteByte('\v')
			case 'f':
				b.WriteByte('\f')
			case 'x':
				if p.i+2 <= len(p.s) {
					if n, err := strconv.ParseUint(p.s[p.i:p.i+2], 16, 8); err == nil {
						b.WriteByte(byte(n))
						p.i += 2
					}
				}
			case '0', '1', '2', '3', '4', '5', '6', '7':
				j := p.i - 1
				for p.i < len(p.s) && p.i-j < 3 && p.s[p.i] >= '0' && p.s[p.i] <= '7' {
					p.i++
				}
				n, _ := strconv.ParseUint(p.s[j:p.i], 8, 8)
				b.WriteByte(byte(n))
			default:
				b.WriteByte(e)
			}
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// unreported lists the programs of r that no part of v names.
func unreported(r *allowRun, v Verdict, in string) []string {
	named := map[string]bool{}
	for _, p := range v.Parts() {
		for _, f := range strings.Fields(p.Command) {
			f = strings.Trim(f, `'"();&|<>`)
			named[f[strings.LastIndexByte(f, '/')+1:]] = true
		}
	}
	var out []string
	seen := map[string]bool{}
	for _, e := range r.execs {
		base := filepath.Base(e.path)
		arg0 := ""
		if len(e.argv) > 0 {
			arg0 = filepath.Base(e.argv[0])
		}
		seen[base] = true
		if named[base] || named[arg0] {
			continue
		}
		out = append(out, fmt.Sprintf("it ran %s (argv %q), which no part names", e.path, e.argv))
	}
	// Every shim that ran was traced: else the trace is not the whole
	// story.
	for _, s := range r.shims {
		if !seen[s] {
			out = append(out, fmt.Sprintf("the shim %s ran but strace did not see it: the trace is incomplete", s))
		}
	}
	return out
}

// bashMoves are the variables of list (a) that bash changes on its own,
// whatever the input assigns.
var bashMoves = map[string]bool{
	"_": true, "BASH_COMMAND": true, "BASH_LINENO": true, "BASH_SOURCE": true, "BASH_ARGC": true, "BASH_ARGV": true,
	"FUNCNAME": true, "LINENO": true, "RANDOM": true, "SRANDOM": true, "SECONDS": true, "EPOCHREALTIME": true,
	"EPOCHSECONDS": true, "BASHPID": true, "BASH_MONOSECONDS": true, "PIPESTATUS": true, "BASH_SUBSHELL": true,
	"HISTCMD": true, "BASH_REMATCH": true, "BASH_TRAPSIG": true, "COLUMNS": true, "LINES": true,
	// cd, pushd and popd move these, and the checker decides the cd.
	"PWD": true, "OLDPWD": true, "DIRSTACK": true,
	// Exported to the programs bash runs: its level, and what it ran.
	"SHLVL": true,
}

// modelledOpts are the options of set -o and shopt whose change the
// checker allows (builtins.go).
var modelledOpts = map[string]bool{
	"errexit": true, "nounset": true, "xtrace": true, "verbose": true, "noglob": true, "noclobber": true, "pipefail": true,
	"hashall": true, "braceexpand": true, "nullglob": true, "dotglob": true, "globstar": true, "failglob": true,
	"nocaseglob": true, "nocasematch": true, "extglob": true, "lastpipe": true, "inherit_errexit": true,
	"globasciiranges": true, "checkwinsize": true,
}

// varChanges lists the variables of lists (a) and (b) the run changed.
func (r *allowRun) varChanges(env []string) []string {
	var out []string
	if !r.afterMissing {
		before, after := declared(r.before), declared(r.after)
		names := map[string]bool{}
		for n := range before {
			names[n] = true
		}
		for n := range after {
			names[n] = true
		}
		for n := range names {
			b, a := before[n], after[n]
			if b == a || listedVar(n) == "" || bashMoves[n] {
				continue
			}
			switch n {
			case "SHELLOPTS", "BASHOPTS":
				if o := optsChanged(value(b), value(a)); o != "" {
					out = append(out, fmt.Sprintf("it changed %s by %s, an option the checker does not model", n, o))
				}
				continue
			case "BASH_CMDS":
				if strange := hashedElsewhere(a); strange != "" {
					out = append(out, "BASH_CMDS holds "+strange+", which is not where PATH finds it")
				}
				continue
			}
			out = append(out, fmt.Sprintf("it changed %s: before %q, after %q", n, b, a))
		}
	}
	base := map[string]string{}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		base[k] = v
	}
	for _, e := range r.execs {
		for _, kv := range e.env {
			k, v, _ := strings.Cut(kv, "=")
			if k == "BASH_ENV" || bashMoves[k] || listedVar(k) == "" {
				continue
			}
			if k == "LD_PRELOAD" && filepath.Base(e.path) != "stdbuf" && strings.HasSuffix(v, "/libstdbuf.so") {
				// stdbuf's own way to set the buffering of the
				// program it runs.
				continue
			}
			if old, ok := base[k]; !ok || old != v {
				out = append(out, fmt.Sprintf("%s ran with %s=%q in its environment (the shell was given %q)", e.path, k, v, old))
			}
		}
	}
	return out
}

// declared reads declare -p's output: name to its whole declaration.
func declared(s string) map[string]string {
	m := map[string]string{}
	var name string
	var cur strings.Builder
	flush := func() {
		if name != "" {
			m[name] = strings.TrimRight(cur.String(), "\n")
		}
		cur.Reset()
	}
	sc := bufio.NewScanner(strings.NewReader(s))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "declare -") {
			flush()
			rest := line[len("declare -"):]
			if _, after, ok := strings.Cut(rest, " "); ok {
				rest = after
			}
			name, _, _ = strings.Cut(rest, "=")
		}
		cur.WriteString(line)
		cur.WriteByte('\n')
	}
	flush()
	return m
}

// value is the value of a declaration, without its quotes.
func value(decl string) string {
	_, v, _ := strings.Cut(decl, "=")
	return strings.Trim(v, `"`)
}

// optsChanged is the first option set or unset between two colon lists
// that the checker does not model, or "".
func optsChanged(before, after string) string {
	b, a := strings.Split(before, ":"), strings.Split(after, ":")
	for _, o := range append(slices.Clone(b), a...) {
		if slices.Contains(b, o) != slices.Contains(a, o) && !modelledOpts[o] {
			return o
		}
	}
	return ""
}

// hashedElsewhere is an entry of a BASH_CMDS declaration that maps a
// name to anything but the shim of that name, or "".
func hashedElsewhere(decl string) string {
	_, v, ok := strings.Cut(decl, "=(")
	if !ok {
		return ""
	}
	for _, f := range strings.Split(strings.TrimSuffix(strings.TrimSpace(v), ")"), " [") {
		f = strings.TrimPrefix(strings.TrimSpace(f), "[")
		k, path, ok := strings.Cut(f, "]=")
		if !ok {
			continue
		}
		path = strings.Trim(path, `"`)
		if filepath.Base(path) != k || filepath.Base(filepath.Dir(path)) != "shims" {
			return k + "=" + path
		}
	}
	return ""
}

// TestAllowedRunsHarness holds the differential test's own parts to what
// they must see: a program an input runs unnamed, a variable of either
// list changed, and neither for an everyday command.
func TestAllowedRunsHarness(t *testing.T) {
	h := newAllowRunHarness(t)
	r, err := h.run("x=1; ls; export LESSSECURE=0; PATH=/x; /bin/true; cat f")
	if err != nil {
		t.Fatal(err)
	}
	v := h.askDefault.CheckIn("ls; cat f", h.cx)
	probs := unreported(r, v, "ls; cat f")
	if len(probs) != 1 || !strings.Contains(probs[0], "/bin/true") {
		t.Errorf("unreported = %q, want /bin/true alone", probs)
	}
	changes := strings.Join(r.varChanges(h.env()), "\n")
	for _, want := range []string{"it changed PATH", "it changed LESSSECURE", "LESSSECURE=\"0\" in its environment"} {
		if !strings.Contains(changes, want) {
			t.Errorf("the changes do not say %q:\n%s", want, changes)
		}
	}
	if strings.Contains(changes, " x:") {
		t.Errorf("x is on neither list, but is named:\n%s", changes)
	}
	if err := h.reset(); err != nil {
		t.Fatal(err)
	}
	in := "for i in 1 2; do echo $i; done; cd d && ls -la; set -e; shopt -s nullglob; git status"
	r, err = h.run(in)
	if err != nil {
		t.Fatal(err)
	}
	if p := append(unreported(r, h.askDefault.CheckIn(in, h.cx), in), r.varChanges(h.env())...); len(p) > 0 {
		t.Errorf("an everyday input has problems: %q", p)
	}
	if len(r.execs) != 2 {
		t.Errorf("traced %d execs, want ls and git: %+v", len(r.execs), r.execs)
	}
}
