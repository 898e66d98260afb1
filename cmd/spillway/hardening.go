package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spillway-dev/spillway"
	"github.com/spillway-dev/spillway/internal/console"
	"github.com/spillway-dev/spillway/internal/rules"
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
		dirs := tokenDirs(g.tokenFile)
		makeMissing(dirs)
		opts.SandboxHidden = append(dirs, operatorFiles(g.tokenFile, g.auditLog)...)
		// The console's sockets and login pages: a sandboxed command
		// never reaches them, whichever environment the console had
		// (Dirs holds this process's own, Dir).
		console.MakeDirs()
		opts.SandboxHidden = append(opts.SandboxHidden, console.Dirs()...)
	}
	return opts
}

// makeMissing makes each directory of dirs that is missing, 0700, where
// its parent exists. A server that starts later would make it, and a
// sandbox covers only what exists when it starts: a command started
// before would read it.
func makeMissing(dirs []string) {
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Dir(d)); err == nil {
			os.Mkdir(d, 0o700)
		}
	}
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
// SandboxLayers says them) when serve's token or the console's
// directory would lie where its commands may read them. Such a sandbox
// hides a directory by granting no read there, and Landlock only adds
// access: the root and /dev/shm are granted whole, so a command would
// read what is inside, the token or the console's login page, and could
// then answer its own questions; and a token given with --token is on
// serve's command line, which every process of the host reads in
// /proc/PID/cmdline. With namespaces a tmpfs covers the directories
// wherever they are, and /proc shows the session's processes only.
func (g *globalFlags) checkSecretsOutsideRoot(root, layers string) error {
	if layers == "" || strings.Contains(layers, "namespaces") {
		return nil
	}
	if g.tokenInArgs {
		return fmt.Errorf("serve's --token is on its command line, and this sandbox (%s) has no namespaces to hide /proc/PID/cmdline from the commands, which could then open sessions of their own: "+
			"give the token in $%s instead", layers, tokenEnv)
	}
	for _, granted := range []string{root, "/dev/shm"} {
		if granted == "" {
			continue
		}
		where := "--root " + granted
		if granted != root {
			where = granted + ", which every command may write without namespaces"
		}
		if g.tokenDir != "" && inside(g.tokenDir, granted) {
			return fmt.Errorf("serve's token file would be written in %s, inside %s, and this sandbox (%s) has no namespaces to hide it from the commands, which could then open sessions of their own: "+
				"give --token-file a path outside it, set $XDG_RUNTIME_DIR to a private directory outside it, or print the token only (--token-file -)", g.tokenDir, where, layers)
		}
		for _, dir := range console.Dirs() {
			if inside(dir, granted) {
				return fmt.Errorf("the console's directory %s is inside %s, and this sandbox (%s) has no namespaces to hide it from the commands, which could read the console's login page there and approve their own commands: "+
					"set $XDG_RUNTIME_DIR (or, without it, $TMPDIR) to a private directory outside it, or give a narrower --root", dir, where, layers)
			}
		}
	}
	return nil
}

// personRulesIn lists the person's own rules and trust that lie in root,
// where a sandboxed command may write: spillway's config directory,
// Claude Code's and Codex's, and the state file's. The write tools ask
// before changing them, but a program the checker cannot see into (a
// script run by an allowed interpreter) can rewrite them, and the next
// session reads them.
func personRulesIn(root string) []string {
	if root == "" {
		return nil
	}
	home, _ := os.UserHomeDir()
	var dirs []string
	if d, err := os.UserConfigDir(); err == nil {
		dirs = append(dirs, filepath.Join(d, "spillway"))
	}
	if home != "" {
		dirs = append(dirs, filepath.Join(home, ".claude"), filepath.Join(home, ".codex"))
	}
	if f := rules.DefaultStateFile(home); f != "" {
		dirs = append(dirs, filepath.Dir(f))
	}
	var in []string
	for _, d := range dirs {
		if _, err := os.Stat(d); err == nil && inside(d, root) {
			in = append(in, d)
		}
	}
	return in
}

// inside reports whether dir is root or lies beneath it, symbolic links
// resolved as far as dir exists.
func inside(dir, root string) bool {
	r, err := filepath.Abs(root)
	if err == nil {
		r, err = filepath.EvalSymlinks(r)
	}
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
