package main

import (
	"fmt"
	"path/filepath"
	"strings"

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

// checkSecretsOutsideRoot refuses a sandbox without namespaces (layers as
// SandboxLayers says them) when the root holds serve's token file or the
// console's directory. Such a sandbox hides a directory by granting no
// read there, and Landlock only adds access: the root is granted whole,
// so a command would read what is inside, the token or the console's
// login page, and could then answer its own questions. With namespaces a
// tmpfs covers them wherever they are.
func (g *globalFlags) checkSecretsOutsideRoot(root, layers string) error {
	if root == "" || layers == "" || strings.Contains(layers, "namespaces") {
		return nil
	}
	if g.tokenDir != "" && inside(g.tokenDir, root) {
		return fmt.Errorf("serve's token file would be written in %s, inside --root %s, and this sandbox (%s) has no namespaces to hide it from the commands, which could then open sessions of their own: "+
			"give --token-file a path outside the root, set $XDG_RUNTIME_DIR to a private directory outside it, or print the token only (--token-file -)", g.tokenDir, root, layers)
	}
	if dir, err := console.Dir(); err == nil && inside(dir, root) {
		return fmt.Errorf("the console's directory %s is inside --root %s, and this sandbox (%s) has no namespaces to hide it from the commands, which could read the console's login page there and approve their own commands: "+
			"set $XDG_RUNTIME_DIR (or, without it, $TMPDIR) to a private directory outside the root, or give a narrower --root", dir, root, layers)
	}
	return nil
}

// inside reports whether dir is root or lies beneath it, symbolic links
// resolved as far as dir exists.
func inside(dir, root string) bool {
	r, err := filepath.EvalSymlinks(root)
	if err != nil {
		return false
	}
	rel, err := filepath.Rel(r, realPrefix(dir))
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// realPrefix resolves the links of the longest part of path that exists
// and keeps the rest as it is: a directory not yet made still lies where
// its parent really is.
func realPrefix(path string) string {
	path, _ = filepath.Abs(path)
	var rest []string
	for p := path; ; p = filepath.Dir(p) {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			return filepath.Join(append([]string{real}, rest...)...)
		}
		if filepath.Dir(p) == p {
			return path
		}
		rest = append([]string{filepath.Base(p)}, rest...)
	}
}
