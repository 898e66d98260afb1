// Package spillway gives an LLM coding agent the five tools it lives on —
// bash, read, grep, find and ls — with results that always fit a budget.
// Whatever does not fit is spilled, whole, to a file the agent can page
// through.
//
//	ts, err := spillway.New(spillway.Options{Cwd: "."})
//	if err != nil { … }
//	defer ts.Close()
//	res := ts.Bash(ctx, spillway.BashInput{Command: "go test ./..."})
//	fmt.Println(res.Text)
package spillway

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spillway-dev/spillway/internal/files"
	"github.com/spillway-dev/spillway/internal/policy"
	"github.com/spillway-dev/spillway/internal/search"
	"github.com/spillway-dev/spillway/internal/shell"
	"github.com/spillway-dev/spillway/internal/spill"
)

// Options configure a Toolset. The zero value is usable.
type Options struct {
	// Cwd is the session's working directory: bash starts there and
	// relative paths resolve against it. Default: the process's.
	Cwd string
	// Env holds extra environment variables for every bash command.
	Env map[string]string
	// Policy holds the limits; the zero value means policy.Default().
	Policy *policy.Policy
	// Spill configures the session's spill store.
	Spill spill.Config
	// SpillStore, when set, is used instead of a new session store (the
	// CLI passes its shared store). The Toolset does not own it.
	SpillStore *spill.Store

	// Root, when set, confines read, grep, find and ls to this directory:
	// a path that resolves outside it (through "..", an absolute path or
	// a symlink) is refused, except the session's spill files. It is the
	// default Cwd, where bash starts. (Issue 7.)
	Root string
	// Sandbox runs every bash command under Landlock: it may read and
	// run anything but write only under Root, the spill directory and the
	// temp directory. It needs Root and a kernel with Landlock (New fails
	// otherwise: commands never run unconfined), and the program must call
	// sandbox.MaybeRunHelper first thing in main.
	Sandbox bool
	// NoNetwork, with Sandbox, also denies commands TCP bind and connect.
	NoNetwork bool
}

// Re-exported types of the tools.
type (
	BashInput   = shell.Input
	BashResult  = shell.Result
	BashDetails = shell.Details
	// BashProgress is what BashInput.Progress receives about once a second.
	BashProgress = shell.Progress
)

// A Toolset is one session: its cwd and env, its background jobs and its
// spill directory. Its methods are safe for concurrent use.
type Toolset struct {
	policy    policy.Policy
	spill     *spill.Store
	ownsSpill bool
	shell     *shell.Runner
	files     *files.Tools
	search    *search.Searcher
}

// New returns a Toolset.
func New(opts Options) (*Toolset, error) {
	root, err := confineRoot(&opts) // issue 7: --root, --sandbox
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
	t := &Toolset{policy: policy.Default()}
	if opts.Policy != nil {
		t.policy = *opts.Policy
	}
	t.spill, t.ownsSpill = opts.SpillStore, false
	if t.spill == nil {
		t.spill, t.ownsSpill = spill.NewSession(opts.Spill), true
	}
	root = root.With(t.spill.Dir) // the spill files stay readable
	wrap, err := sandboxWrap(opts, root, t.spill)
	if err != nil {
		return nil, err
	}
	t.shell = shell.NewRunner(shell.Config{Cwd: cwd, Env: opts.Env, Policy: t.policy, Spill: t.spill, Wrap: wrap})
	t.files = files.New(files.Config{Cwd: cwd, Read: t.policy.Read, Ls: t.policy.Ls, Spill: t.spill, Root: root})
	t.search = search.New(search.Config{Cwd: cwd, Grep: t.policy.Grep, Find: t.policy.Find, Spill: t.spill, Root: root})
	return t, nil
}

// SpillDir returns the session's spill directory ("" until first used).
func (t *Toolset) SpillDir() string { return t.spill.Dir() }

// Bash runs a command with `bash -c` (fresh shell, stdin /dev/null, own
// process group), or checks (CheckPID) or stops (KillPID) a background
// one. A command still running after its timeout (default 120 s) is
// backgrounded, not killed: the result holds the output so far and the
// pid. Children that outlive the shell become a background job too, and
// the call returns within a second of the shell's exit. Cancelling ctx
// stops the command's whole process group (SIGTERM, SIGKILL after 2 s).
func (t *Toolset) Bash(ctx context.Context, in BashInput) BashResult {
	return t.renderBash(t.shell.Run(ctx, in))
}

// Close ends the session: every job is killed and the spill directory
// removed.
func (t *Toolset) Close() error {
	err := t.shell.Close()
	if t.ownsSpill {
		if e := t.spill.Close(); err == nil {
			err = e
		}
	}
	return err
}
