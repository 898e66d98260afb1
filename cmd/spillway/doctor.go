package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/spillway-dev/spillway"
	"github.com/spillway-dev/spillway/internal/config"
	"github.com/spillway-dev/spillway/internal/sandbox"
	"github.com/spillway-dev/spillway/internal/spill"
	"github.com/spillway-dev/spillway/mcpserver"
)

// doctor checks what stands between an installed spillway and a client
// that uses it: the config file, the sandbox, the spill directory and the
// clients' entries for spillway. Each finding is one line; a problem is
// one that stops spillway or a client from working, and makes the exit
// status 1.
type doctor struct {
	out      io.Writer
	home     string
	cwd      string
	getenv   func(string) string
	lookPath func(string) (string, error)

	problems int
	// wantSandbox is set when --sandbox was given or a client's entry
	// starts spillway with it: the sandbox must then work here.
	wantSandbox bool
}

const (
	statusOK      = "ok"
	statusNote    = "note"
	statusAbsent  = "-"
	statusProblem = "PROBLEM"
)

// say prints one finding: its status, what was checked, and what was found.
func (d *doctor) say(status, what, msg string) {
	if status == statusProblem {
		d.problems++
	}
	fmt.Fprintf(d.out, "%-8s %s: %s\n", status, what, msg)
}

// tilde shows a path under the home directory as ~/….
func (d *doctor) tilde(path string) string {
	if d.home != "" {
		if rel, err := filepath.Rel(d.home, path); err == nil && !strings.HasPrefix(rel, "..") && rel != "." {
			return "~" + string(filepath.Separator) + rel
		}
	}
	return path
}

func (g *globalFlags) newDoctorCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "doctor",
		Short: "Check the config, sandbox, spill directory and clients' entries",
		Long: `doctor checks, one line each:

  config   the config file in force (--config, $SPILLWAY_CONFIG or
           ~/.config/spillway/config.toml): each problem with its file,
           line and key
  sandbox  the layers --sandbox gets on this machine (a problem only when
           --sandbox is asked for, here or in a client's entry)
  spill    that the spill directory can be made and written
  clients  each installed client's entry for spillway (Claude Code, Codex,
           Gemini CLI, opencode, Cursor, VS Code): found, parses, and runs a
           binary that exists; an entry over HTTP (spillway serve): that a
           server answers at its URL and takes the token it sends

A client's config that is not there is shown as "-". Run it in the
project directory: the clients' project files (.mcp.json, .cursor/,
.vscode/, .gemini/, opencode.json) are read from there.`,
		Example: `  spillway doctor
  spillway doctor --config ./spillway.toml --sandbox --root .`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			probeAsAServer()
			home, _ := os.UserHomeDir()
			cwd, _ := os.Getwd()
			d := &doctor{out: cmd.OutOrStdout(), home: home, cwd: cwd, getenv: os.Getenv, lookPath: exec.LookPath, wantSandbox: g.sandbox}
			return g.runDoctor(d)
		},
	}
}

// runDoctor runs every check, clients first so that an entry asking for
// the sandbox makes the sandbox check strict.
func (g *globalFlags) runDoctor(d *doctor) error {
	var clients strings.Builder
	out := d.out
	d.out = &clients
	d.checkClients()
	d.out = out
	p, cfgErr := g.doctorConfig(d)
	if cfgErr != nil {
		d.say(statusNote, "rules", "not known: "+brokenConfig(cfgErr, g.policySources().ConfigPath)+", so its [rules] are not read; spillway mcp, serve and the tool commands refuse to start until it is fixed")
	} else {
		d.checkRules(p)
	}
	g.doctorSandbox(d, p)
	doctorSpill(d, p)
	fmt.Fprint(d.out, clients.String())
	switch d.problems {
	case 0:
		fmt.Fprintln(d.out, "no problems found")
		return nil
	case 1:
		return failure{errors.New("doctor: 1 problem (the PROBLEM line above)")}
	default:
		return failure{fmt.Errorf("doctor: %d problems (the PROBLEM lines above)", d.problems)}
	}
}

// doctorConfig checks the config file the flags name, or the one spillway
// would find, and returns the policy in force; when the file has problems,
// the defaults, so that the other checks still run, and the error.
func (g *globalFlags) doctorConfig(d *doctor) (spillway.Policy, error) {
	src := g.policySources()
	// As mcp and serve load it: a timeout_ms the file sets is the one
	// the clients' request timeout bounds.
	src.TimeoutMS = int(mcpserver.DefaultTimeout.Milliseconds())
	path := src.ConfigPath
	if path == "" {
		where := "~/.config/spillway/config.toml"
		if p := defaultConfigPath(); p != "" {
			where = d.tilde(p)
		}
		d.say(statusOK, "config", "no config file ("+where+" does not exist; --config or $"+configEnv+" name one): the built-in defaults")
	}
	p, err := config.Load(src)
	if err != nil {
		for _, e := range flatErrors(err) {
			d.say(statusProblem, "config", e.Error())
		}
		p, perr := spillway.Profile(g.profile)
		if perr != nil {
			p = spillway.DefaultPolicy()
		}
		return p, err
	}
	if path != "" {
		d.say(statusOK, "config", fmt.Sprintf("%s parses (profile %s)", d.tilde(path), p.Profile))
	}
	if p.Timeout >= clientRequestTimeout {
		d.say(statusNote, "config", timeoutWarning(p.Timeout))
	}
	return p, nil
}

// brokenConfig names the config file at path that did not load as its
// errors do, file and line, with its first problem, for the findings that
// depend on it.
func brokenConfig(err error, path string) string {
	var ce *config.ConfigError
	switch {
	case errors.As(err, &ce) && ce.Line > 0:
		return fmt.Sprintf("the config file %s:%d does not load (%s)", ce.File, ce.Line, ce.Msg)
	case errors.As(err, &ce):
		return fmt.Sprintf("the config file %s does not load (%s)", ce.File, ce.Msg)
	case path != "":
		return "the config file " + path + " does not load (the config line above)"
	}
	return "the policy does not load (the config line above)"
}

// checkRules loads the command rules of p as a session in the working
// directory would: the patterns, and the rules files the imports read.
func (d *doctor) checkRules(p spillway.Policy) {
	ts, err := spillway.New(spillway.Options{Cwd: d.cwd, Policy: &p})
	if err != nil {
		d.say(statusProblem, "rules", err.Error())
		return
	}
	defer ts.Close()
	if !p.Rules.Configured() && len(ts.RuleList()) == 0 {
		d.say(statusAbsent, "rules", "no command rules are configured ([rules] in the config)")
		return
	}
	for _, f := range ts.ImportFailures() {
		d.say(statusProblem, "rules", "import failure: "+f+" (every bash command asks until it is fixed)")
	}
	if c := ts.RuleNoteCounts(); len(c) > 0 {
		var parts []string
		for _, a := range []string{"widened", "exact", "dropped", "suspended"} {
			if c[a] > 0 {
				parts = append(parts, fmt.Sprintf("%d %s", c[a], a))
			}
		}
		d.say(statusNote, "rules", "imported entries not held as written: "+strings.Join(parts, ", ")+" (spillway rules list says which and why)")
	}
	files := ts.RuleFiles()
	for i, f := range files {
		files[i] = d.tilde(f)
	}
	read := "no rules file read"
	if len(files) > 0 {
		read = "read " + strings.Join(files, ", ")
	}
	fileRules, _ := ts.FileRuleLines()
	counted := fmt.Sprintf("%d rules in force", len(ts.RuleList()))
	if len(fileRules) > 0 {
		counted = fmt.Sprintf("%d rules in force (%d of them for the file tools)", len(ts.RuleList())+len(fileRules), len(fileRules))
	}
	d.say(statusOK, "rules", fmt.Sprintf("%s, default %s; %s", counted, p.Rules.Default, read))
	if p.Rules.NoClientForms {
		d.say(statusNote, "rules", "no_client_forms = true: approvals and project-trust questions are put to no client's form; they wait in spillway console")
	}
}

// flatErrors lists the errors joined in err, one per problem.
func flatErrors(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, flatErrors(e)...)
		}
		return out
	}
	return []error{err}
}

// doctorSandbox reports the sandbox layers of this machine, and checks
// the flags' sandbox as a server would start it.
func (g *globalFlags) doctorSandbox(d *doctor, p spillway.Policy) {
	status := strings.ReplaceAll(sandbox.StatusLine(), "\n", "; ")
	if !d.wantSandbox {
		d.say(statusOK, "sandbox", status+" (not asked for: no --sandbox here or in a client's entry)")
		return
	}
	root := g.root
	if root == "" || root == rootsRoot {
		root = d.cwd
	}
	opts := spillway.Options{Root: root, Sandbox: true, NoNetwork: g.noNetwork, SandboxMin: g.sandboxMin}
	opts.Policy = &p
	layers, execLines, err := checkHardening(opts)
	if err != nil {
		d.say(statusProblem, "sandbox", err.Error())
		return
	}
	// A server refuses the console's directory inside a root that a
	// sandbox without namespaces cannot hide it in (serve's token file
	// too, which doctor does not know).
	noToken := *g
	noToken.tokenDir = ""
	if err := noToken.checkSecretsOutsideRoot(root, layers); err != nil {
		d.say(statusProblem, "sandbox", err.Error())
		return
	}
	d.say(statusOK, "sandbox", "--sandbox works here: "+layers)
	for _, l := range execLines {
		d.say(statusOK, "exec check", l)
	}
}

// doctorSpill checks that a session's spill directory can be made and a
// file written in it, where the policy puts them.
func doctorSpill(d *doctor, p spillway.Policy) {
	dir := p.Spill.Dir
	if dir == "" {
		dir = os.TempDir()
	}
	s := spill.NewSession(spill.Config{TempDir: dir, MaxFileBytes: p.Spill.MaxBytes, BudgetBytes: p.Spill.BudgetBytes})
	defer s.Close()
	f, err := s.Create("doctor.log")
	if err == nil {
		_, err = f.Write([]byte("spillway doctor\n"))
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		d.say(statusProblem, "spill", fmt.Sprintf("cannot make a spill file under %s: %v (set [spill] dir to a directory you can write, or $TMPDIR)", dir, err))
		return
	}
	d.say(statusOK, "spill", fmt.Sprintf("spill files can be written under %s (one file at most %s, a session's at most %s)",
		dir, byteSize(p.Spill.MaxBytes), byteSize(p.Spill.BudgetBytes)))
	doctorCLISpill(d, dir, p)
}

// doctorCLISpill names the directory the one-shot CLI's spill files go
// to, which is not the servers' when others may write in the temp
// directory (/tmp): it is where a person opens the file a notice names.
func doctorCLISpill(d *doctor, dir string, p spillway.Policy) {
	s := spill.NewCLI(spill.Config{TempDir: dir, MaxFileBytes: p.Spill.MaxBytes, BudgetBytes: p.Spill.BudgetBytes})
	defer s.Close()
	f, err := s.Create("doctor.log")
	if err != nil {
		d.say(statusProblem, "spill", fmt.Sprintf("the CLI cannot keep its spill files: %v (set [spill] dir to a directory you can write, or $TMPDIR)", err))
		return
	}
	f.Close()
	s.Remove(f.Path(), spill.CauseBudget)
	d.say(statusOK, "spill", fmt.Sprintf("the CLI (spillway bash …) keeps its spill files in %s/ for 24 hours",
		d.tilde(filepath.Dir(f.Path()))))
}

// byteSize shows a number of bytes in MiB or GiB when it is a whole one.
func byteSize(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}
