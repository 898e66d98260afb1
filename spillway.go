// Package spillway gives an LLM coding agent the tools it lives on (bash,
// read, grep, find, ls) and those for its background commands and past
// calls (write_stdin, jobs, history), with results that always fit a
// budget; docs/tools.md lists every tool and parameter. Whatever does not
// fit is spilled, whole, to a file the agent can page through.
//
//	ts, err := spillway.New(spillway.Options{Cwd: "."})
//	if err != nil { … }
//	defer ts.Close()
//	res, err := ts.Bash(ctx, spillway.BashInput{Command: "go test ./..."})
//	if err != nil { … } // the call could not be made
//	fmt.Println(res.Text)  // what the model reads; res.Details has the exit code
//
// Every tool method returns (Result, error). The error means the call could
// not be made: bad input, a missing file, an unknown job, a closed toolset.
// What a command did — its exit code, signal, timeout — is in the result.
// docs/tools.md states each tool's parameters, defaults and details.
package spillway

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"sync/atomic"

	"github.com/spillway-dev/spillway/internal/files"
	"github.com/spillway-dev/spillway/internal/render"
	"github.com/spillway-dev/spillway/internal/rules"
	"github.com/spillway-dev/spillway/internal/search"
	"github.com/spillway-dev/spillway/internal/secret"
	"github.com/spillway-dev/spillway/internal/shell"
	"github.com/spillway-dev/spillway/internal/spill"
	"github.com/spillway-dev/spillway/tool"
)

// Options configure a Toolset. The zero value is usable.
type Options struct {
	// Cwd is the session's working directory: bash starts there and
	// relative paths resolve against it. Default: Root if set, else the
	// process's.
	Cwd string
	// Env holds extra environment variables for every bash command.
	Env map[string]string
	// Policy holds the limits, the shell, the default timeout and where
	// spill files go; nil means DefaultPolicy(). New refuses a policy that
	// a tool could not use (see Policy.Validate).
	Policy *Policy
	// Format is how results' text is written: FormatText (the default)
	// or FormatJSON. New refuses another value.
	Format Format
	// KeepSpill spills into $TMPDIR/spillway-<uid>/cli/ (under
	// Policy.Spill.Dir when set; in $XDG_RUNTIME_DIR/spillway/cli/ or
	// the user's cache directory when others may write in that
	// directory), a directory kept after Close and pruned
	// by the spill budget and after 24 hours, so that the files a notice
	// names outlive the toolset. The one-shot CLI commands use it. By
	// default each toolset spills into a directory of its own that Close
	// removes.
	KeepSpill bool

	// Root, when set, confines read, grep, find and ls to this directory:
	// a path that resolves outside it (through "..", an absolute path or
	// a symlink) is refused, except the session's spill files. It is the
	// default Cwd, where bash starts.
	Root string
	// Sandbox runs every bash command under Landlock: it may read and
	// run anything but write only under Root and in a private temp
	// directory of the session (its TMPDIR); never in a spill directory. It needs Root and a kernel with Landlock (New fails
	// otherwise: commands never run unconfined), and the program must call
	// MaybeRunSandboxHelper first thing in main.
	Sandbox bool
	// NoNetwork, with Sandbox, also denies commands the network: they
	// get a private loopback only (namespaces), or no socket but a Unix
	// one (Landlock and seccomp).
	NoNetwork bool
	// SandboxMin lists the sandbox layers New must find, or fail:
	// "landlock" (always required), "scopes", "namespaces", "seccomp",
	// separated by commas. The sandbox uses every layer the kernel
	// offers; this only makes the lack of one an error.
	SandboxMin string
	// SandboxHidden, with Sandbox, are directories whose contents
	// commands do not see (a server's token directory), beneath which
	// only Root shows. Other sessions' spill directories are always
	// hidden, and the session's own shown. Hiding needs the namespaces
	// layer; without it these stay readable (writes are denied anyway).
	// The file tools (read, grep, find, ls, edit, write, apply_patch)
	// never open them, with or without Sandbox.
	SandboxHidden []string

	// Asker asks the person at the keyboard whether a command that a
	// rule holds for approval (Policy.Rules) may run: it is shown the
	// command, where it runs and the parts that need approval, and
	// returns "allow once", "allow for this session" or "deny" (MCP's
	// form-mode elicitation, a terminal prompt, a chat button), or an
	// error when it cannot ask. When a part's reason says a project's
	// allow entry is suspended (the project is not trusted), it may
	// offer the person to trust the project: once they chose it and
	// the asker called Toolset.TrustProject, it returns "trust this
	// project's rules", and the command is decided again by the rules
	// now in force. nil asks no one. A command it does not
	// allow does not run; the result says which rule held it and how to
	// allow it. A call can bring its own (CallInfo.Asker).
	Asker func(ctx context.Context, command, cwd string, parts []RulePart) (answer string, err error)
}

// A Toolset is one session: its cwd and env, its background jobs and its
// spill directory. Its methods are safe for concurrent use.
type Toolset struct {
	policy Policy
	format Format
	spill  *spill.Store
	// scratch holds the private temp directory of sandboxed commands: the
	// spill store, or a session store of its own when the spill store is
	// the CLI's shared one.
	scratch *spill.Store
	shell   *shell.Runner
	secrets *SecretPages
	files   *files.Tools
	search  *search.Searcher
	closed  atomic.Bool
	cwd     string
	// secretDirs are the directories no file tool opens (secret_dirs.go).
	secretDirs []string

	// rules decide every bash command before it runs; nil when none are
	// configured. They are replaced whole when the person trusts the
	// project (TrustProject): rulesNow reads them. rulesWritable are
	// the directories loadRules was given. asker asks the person about
	// a command they hold, and approved holds the parts the person
	// allowed for the session.
	rules         atomic.Pointer[ruleSet]
	rulesWritable []string
	asker         asker
	approved      approvals

	sandboxLayers string
	sandboxed     bool
	// sandboxWritable are the directories a sandboxed command may
	// write: a program rules allow by its bare name is ask when PATH
	// lookup finds it in one of them.
	sandboxWritable []string
	// execDeny is what the sandbox holds of the deny rules at exec.
	execDeny execDeny

	// fileTools are edit, write and apply_patch's engine and limits.
	fileTools *fileTools
}

// SandboxLayers names the layers that confine the session's commands
// ("landlock+scopes+namespaces"), or "" without Sandbox.
func (t *Toolset) SandboxLayers() string { return t.sandboxLayers }

// New returns a Toolset. It checks everything it is given: a policy a
// tool could not use, a cwd that is not a directory or lies outside Root,
// a sandbox the kernel cannot provide are errors that say what to fix.
func New(opts Options) (*Toolset, error) {
	t, err := newToolset(opts)
	if err != nil {
		return nil, clipError(err, append([]string{opts.Cwd, opts.Root}, envInputs(opts.Env)...)...)
	}
	return t, nil
}

func newToolset(opts Options) (*Toolset, error) {
	t := &Toolset{policy: DefaultPolicy(), secretDirs: secretDirs(opts.SandboxHidden)}
	if opts.Policy != nil {
		t.policy = *opts.Policy
		if err := t.policy.Validate(); err != nil {
			return nil, fmt.Errorf("spillway: the policy cannot be used: %w (start from DefaultPolicy() or Profile(name) and change what you need)", err)
		}
	}
	t.policy = t.policy.WithinBudget()
	f, err := render.ParseFormat(string(opts.Format))
	if err != nil {
		return nil, fmt.Errorf("spillway: Options.Format: %w", err)
	}
	t.format = Format(f)
	for k, v := range opts.Env {
		if err := shell.CheckEnv(k, v); err != nil {
			return nil, fmt.Errorf("spillway: Options.Env: %w", err)
		}
	}
	root, err := confineRoot(&opts)
	if err != nil {
		return nil, err
	}
	if opts.Cwd == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, fmt.Errorf("spillway: no working directory: %w", err)
		}
		opts.Cwd = wd
	}
	cwd, err := filepath.Abs(opts.Cwd)
	if err == nil && root != nil && !root.Contains(cwd) {
		err = fmt.Errorf("spillway: cwd %s is outside the root %s", cwd, root.Dir())
	}
	if err != nil {
		return nil, err
	}
	if fi, err := os.Stat(cwd); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("spillway: cwd %s is not a directory", cwd)
	}
	if t.policy.Rules.Configured() || managedPresent(t.policy.Rules) {
		writable := []string{cwd, os.TempDir()}
		if root != nil {
			writable = append(writable, root.Dir())
		}
		rs, err := loadRules(t.policy.Rules, cwd, writable)
		if err != nil {
			return nil, fmt.Errorf("spillway: %w", err)
		}
		t.rules.Store(rs)
		t.rulesWritable = writable
	}
	t.asker = opts.Asker
	if opts.KeepSpill {
		t.spill = spill.NewCLI(t.policy.Spill.storeConfig())
	} else {
		t.spill = spill.NewSession(t.policy.Spill.storeConfig())
	}
	writeRoot := root                 // the file tools write under the root, not in the spill files
	root = root.With(t.spill.DirInfo) // the spill files stay readable
	wrap, layers, tmp, err := t.sandboxWrap(opts, root)
	if err != nil {
		t.closeStores()
		return nil, err
	}
	t.sandboxLayers = layers
	t.cwd = cwd
	t.secrets = &SecretPages{p: secret.New(0, nil)}
	sh := t.policy.shellConfig()
	sh.Cwd, sh.Env, sh.Spill, sh.Wrap, sh.Secrets = cwd, opts.Env, t.spill, wrap, t.secrets.p
	if t.rulesNow() != nil {
		sh.KeepVar = rules.Carried
	}
	// What the commands may write: no program there is the system's.
	sh.SecretTrust.Writable = []string{root.Dir(), cwd, t.policy.Spill.Dir, t.spill.Dir(), tmp, os.TempDir()}
	sh.SecretTrust.Sandboxed = opts.Sandbox
	if tmp != "" {
		sh.Env = maps.Clone(opts.Env)
		if sh.Env == nil {
			sh.Env = map[string]string{}
		}
		sh.Env["TMPDIR"] = tmp
	}
	t.shell = shell.NewRunner(sh)
	fc := t.policy.filesConfig()
	fc.Cwd, fc.Spill, fc.Root = cwd, t.spill, root
	// Read deny rules hide files from ls, find and grep; Read ask rules
	// keep contents out of grep too.
	hide := t.withSecretDirs(t.readHider())
	if hide != nil {
		fc.Hide = func(p string) string { return hide(p, false) }
	}
	t.files = files.New(fc)
	sc := t.policy.searchConfig()
	sc.Cwd, sc.Spill, sc.Root = cwd, t.spill, root
	sc.Hide = hide
	t.search = search.New(sc)
	t.newFileTools(writeRoot, tmp)
	return t, nil
}

// Policy returns the policy the toolset applies.
func (t *Toolset) Policy() Policy { return t.policy }

// Format returns how the toolset writes results' text.
func (t *Toolset) Format() Format { return t.format }

// SpillDir returns the session's spill directory ("" until first used).
func (t *Toolset) SpillDir() string { return t.spill.Dir() }

// SpillBytes returns the bytes the session's spill files hold, which
// count against Policy.Spill.BudgetBytes.
func (t *Toolset) SpillBytes() int64 { return t.spill.Used() }

// Cwd returns the directory the session's calls start in when they give
// no cwd (named bash sessions keep their own; see Sessions).
func (t *Toolset) Cwd() string { return t.cwd }

// ErrClosed is the error of a call on a closed toolset (errors.Is finds
// it in the error a method returns).
var ErrClosed = tool.ErrClosed

// open reports ErrClosed once the toolset is closed.
func (t *Toolset) open() error {
	if t.closed.Load() {
		return ErrClosed
	}
	return nil
}

// Close ends the session: every job is killed and the spill directory
// removed (kept with KeepSpill). Calls after Close fail with ErrClosed.
func (t *Toolset) Close() error {
	t.closed.Store(true)
	err := t.shell.Close()
	t.secrets.p.Close()
	if e := t.closeStores(); err == nil {
		err = e
	}
	return err
}

// closeStores removes the spill directory (unless kept) and the scratch
// directory.
func (t *Toolset) closeStores() error {
	err := t.spill.Close()
	if t.scratch != nil && t.scratch != t.spill {
		if e := t.scratch.Close(); err == nil {
			err = e
		}
	}
	return err
}
