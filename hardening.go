package spillway

import (
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"

	"github.com/spillway-dev/spillway/internal/confine"
	"github.com/spillway-dev/spillway/internal/proc"
	"github.com/spillway-dev/spillway/internal/sandbox"
	"github.com/spillway-dev/spillway/internal/shell"
	"github.com/spillway-dev/spillway/internal/spill"
)

// confineRoot opens opts.Root (nil without one) and makes it the default
// Cwd. Sandbox and NoNetwork need it.
func confineRoot(opts *Options) (*confine.Root, error) {
	if opts.Root == "" {
		if opts.Sandbox || opts.NoNetwork {
			return nil, errors.New("spillway: the sandbox needs a root, the directory tree that commands may write in (--root DIR)")
		}
		return nil, nil
	}
	root, err := confine.New(opts.Root)
	if err != nil {
		return nil, fmt.Errorf("spillway: %w", err)
	}
	if opts.Cwd == "" {
		opts.Cwd = root.Dir()
	}
	return root, nil
}

// sandboxWrap returns the shell's Wrap for opts.Sandbox (nil without it),
// once it has checked that commands really run restricted, and names the
// layers in force. Commands may write under the root and in a private temp
// directory of this session (their TMPDIR), and nowhere else: not in the
// shared temp directory, where they could swap a spill directory for a
// symlink, and not in any spill directory. tmp is that directory: the
// toolset's base environment names it as TMPDIR, so that a session does not
// count it among the variables its commands changed.
func (t *Toolset) sandboxWrap(opts Options, root *confine.Root) (wrap func(*exec.Cmd) (*shell.Wrapped, error), layerNames, tmp string, err error) {
	if !opts.Sandbox {
		if opts.NoNetwork {
			return nil, "", "", errors.New("spillway: NoNetwork needs Sandbox (--no-network needs --sandbox)")
		}
		t.execDeny = t.planExecDeny(opts.Env["PATH"], nil)
		return nil, "", "", nil
	}
	min, err := sandbox.ParseLayers(opts.SandboxMin)
	if err != nil {
		return nil, "", "", fmt.Errorf("spillway: %w", err)
	}
	layers, err := sandbox.Check(sandbox.Rules{NoNetwork: opts.NoNetwork}, min)
	if err != nil {
		return nil, "", "", fmt.Errorf("spillway: %w", err)
	}
	t.scratch = t.spill
	if opts.KeepSpill {
		t.scratch = spill.NewSession(t.policy.Spill.storeConfig())
	}
	tmp, err = t.scratch.TempDir()
	if err != nil {
		return nil, "", "", fmt.Errorf("spillway: cannot make the sandbox's private temp directory: %w", err)
	}
	writable := []string{root.Dir(), tmp}
	t.sandboxed = true
	t.sandboxWritable = append([]string{"/dev/shm"}, writable...)
	t.execDeny = t.planExecDeny(opts.Env["PATH"], t.sandboxWritable)
	rules := sandbox.Rules{
		Writable:  writable,
		DenyExec:  t.execDeny.files,
		NoNetwork: opts.NoNetwork,
		Layers:    layers,
	}
	return func(cmd *exec.Cmd) (*shell.Wrapped, error) {
		// Last, so that it holds over a call's own TMPDIR: the command may
		// write nowhere else.
		cmd.Env = append(cmd.Env, "TMPDIR="+tmp)
		rules := rules
		rules.Hidden, rules.Shown = t.hiddenDirs(opts.SandboxHidden)
		rules.MaxProcesses = proc.TaskLimit(t.policy.Bash.MaxProcesses)
		l, err := sandbox.Wrap(cmd, rules)
		if err != nil {
			return nil, err
		}
		return &shell.Wrapped{Status: l.Status, Started: l.Started, Start: l.Start}, nil
	}, layers.String(), tmp, nil
}

// MaybeRunSandboxHelper runs the sandbox helper and exits when the process
// was started as one; otherwise it returns at once. A program that sets
// Options.Sandbox calls it first thing in main: sandboxed commands run
// through a re-exec of the program itself.
func MaybeRunSandboxHelper() {
	sandbox.MaybeRunHelper()
	proc.MaybeRunWatcher()
}

// hiddenDirs are the directories a sandboxed command of this session does
// not see, and those beneath them it still sees: the parent of the spill
// directories (every session's, and the CLI's, are made there) is
// hidden, but for this session's own spill and scratch directories; and
// the directories of extra. Other sessions' outputs are no business of a
// command, and reading them would cross the isolation of sessions.
func (t *Toolset) hiddenDirs(extra []string) (hidden, shown []string) {
	hidden = append(hidden, extra...)
	for _, s := range []*spill.Store{t.spill, t.scratch} {
		if s == nil {
			continue
		}
		if d := s.Dir(); d != "" {
			hidden = append(hidden, filepath.Dir(d))
			shown = append(shown, d)
		}
	}
	return hidden, shown
}
