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

	"github.com/spillway-dev/spillway/files"
	"github.com/spillway-dev/spillway/policy"
	"github.com/spillway-dev/spillway/search"
	"github.com/spillway-dev/spillway/shell"
	"github.com/spillway-dev/spillway/spill"
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
	opts      Options
	policy    policy.Policy
	spill     *spill.Store
	ownsSpill bool
	shell     *shell.Runner
	files     *files.Tools
	search    *search.Searcher
}

// New returns a Toolset.
func New(opts Options) (*Toolset, error) {
	if opts.Cwd == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, fmt.Errorf("spillway: no working directory: %w", err)
		}
		opts.Cwd = wd
	}
	cwd, err := filepath.Abs(opts.Cwd)
	if err != nil {
		return nil, err
	}
	if fi, err := os.Stat(cwd); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("spillway: cwd %s is not a directory", cwd)
	}
	opts.Cwd = cwd
	t := &Toolset{opts: opts, policy: policy.Default()}
	if opts.Policy != nil {
		t.policy = *opts.Policy
	}
	t.spill, t.ownsSpill = opts.SpillStore, false
	if t.spill == nil {
		t.spill, t.ownsSpill = spill.NewSession(opts.Spill), true
	}
	t.shell = shell.NewRunner(shell.Config{Cwd: cwd, Env: opts.Env, Policy: t.policy, Spill: t.spill})
	t.files = files.New(files.Config{Cwd: cwd, Read: t.policy.Read, Ls: t.policy.Ls, Spill: t.spill})
	t.search = search.New(search.Config{Cwd: cwd, Grep: t.policy.Grep, Find: t.policy.Find, Spill: t.spill})
	return t, nil
}

// SpillDir returns the session's spill directory ("" until first used).
func (t *Toolset) SpillDir() string { return t.spill.Dir() }

// Bash runs a command, or checks or kills a background one.
func (t *Toolset) Bash(ctx context.Context, in BashInput) BashResult {
	return t.shell.Run(ctx, in)
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
