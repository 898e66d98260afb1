package main

import (
	"path/filepath"

	"github.com/spillway-dev/spillway"
	"github.com/spillway-dev/spillway/internal/console"
)

// hardened returns opts with the hardening flags applied: --root,
// --sandbox and --no-network (docs/reliability.md).
func (g *globalFlags) hardened(opts spillway.Options) spillway.Options {
	opts.Format, _ = g.resultFormat() // checked by loadPolicy
	opts.Root = g.root
	opts.Sandbox = g.sandbox
	opts.NoNetwork = g.noNetwork
	opts.SandboxMin = g.sandboxMin
	if g.sandbox {
		// A token there lets a command with the network drive a server;
		// the audit log holds every session's commands.
		opts.SandboxHidden = append(tokenDirs(g.tokenFile), operatorFiles(g.tokenFile, g.auditLog)...)
		// The console's sockets: a sandboxed command never reaches them.
		if dir, err := console.Dir(); err == nil {
			opts.SandboxHidden = append(opts.SandboxHidden, dir)
		}
	}
	return opts
}

// checkHardening makes, and ends at once, a toolset with opts, so that a
// server refuses to start when --root is not a directory or the sandbox
// cannot work on this kernel, instead of failing each session later.
// It returns the sandbox's layers ("" without one) for the start-up log,
// and what the sandbox holds of the deny rules at exec
// (Toolset.ExecDenyLines).
func checkHardening(opts spillway.Options) (layers string, execLines []string, err error) {
	if opts.Root == "" && !opts.Sandbox && !opts.NoNetwork {
		return "", nil, nil
	}
	ts, err := spillway.New(opts)
	if err != nil {
		return "", nil, err
	}
	return ts.SandboxLayers(), ts.ExecDenyLines(), ts.Close()
}

// operatorFiles are the files serve writes for its operator, to be hidden
// from sandboxed commands one by one: a token file kept where its
// directory cannot be hidden (in the root), and the audit log, wherever it
// is. The metrics are served over TCP, never through a file.
func operatorFiles(files ...string) []string {
	var out []string
	for _, f := range files {
		if f == "" {
			continue
		}
		if abs, err := filepath.Abs(f); err == nil {
			out = append(out, abs)
		}
	}
	return out
}
