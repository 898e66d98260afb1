package spillway

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/spillway-dev/spillway/internal/sandbox"
)

// execDeny is what the sandbox holds of the deny rules at exec: the
// files no sandboxed command may execute or read, and a line for each
// deny rule saying whether it holds there or only at the parser.
type execDeny struct {
	files []string
	lines []string
}

// planExecDeny finds the files of the programs the deny rules name, in
// the session's PATH, the server's and the standard bin directories. A
// file under a writable directory (where the sandbox grants everything)
// or the shell the bash tool runs (every command would fail) is not
// denied, and its rule is said to be parser-only for it.
func (t *Toolset) planExecDeny(sessionPath string, writable []string) execDeny {
	var out execDeny
	if t.rulesNow() == nil {
		return out
	}
	names, byName, parserOnly := t.rulesNow().set.ExecDenied()
	shellFile := ""
	if sh, err := exec.LookPath(t.policy.Shell); err == nil {
		shellFile, _ = filepath.EvalSymlinks(sh)
	}
	for _, r := range parserOnly {
		out.lines = append(out.lines, fmt.Sprintf("parser-only: deny %q (%s): not a program name alone, so nothing is denied at exec", r.Text, r.Source))
	}
	for _, p := range sandbox.ResolvePrograms(names, sessionPath, os.Getenv("PATH")) {
		rs := byName[p.Name]
		what := fmt.Sprintf("deny %q (%s)", rs[0].Text, rs[0].Source)
		var held []string
		for _, f := range p.Files {
			switch {
			case f == shellFile:
				out.lines = append(out.lines, fmt.Sprintf("parser-only: %s for %s: it is the shell the bash tool runs", what, f))
			case underAny(f, writable):
				out.lines = append(out.lines, fmt.Sprintf("parser-only: %s for %s: it lies where commands may write", what, f))
			default:
				held = append(held, f)
			}
		}
		for _, s := range p.Skipped {
			out.lines = append(out.lines, fmt.Sprintf("parser-only: %s for %s", what, s))
		}
		if len(held) == 0 && len(p.Files) == 0 && len(p.Skipped) == 0 {
			out.lines = append(out.lines, fmt.Sprintf("exec: %s: no file named %s found at start (one installed later is not denied)", what, p.Name))
		}
		if len(held) > 0 {
			out.lines = append(out.lines, fmt.Sprintf("exec: %s: denied at exec under --sandbox: %s", what, strings.Join(held, ", ")))
		}
		out.files = append(out.files, held...)
	}
	return out
}

func underAny(f string, dirs []string) bool {
	for _, d := range dirs {
		if d == "" {
			continue
		}
		if real, err := filepath.EvalSymlinks(d); err == nil {
			d = real
		}
		if f == d || strings.HasPrefix(f, strings.TrimSuffix(d, "/")+"/") {
			return true
		}
	}
	return false
}

// ExecDenyLines say, for each deny rule, whether the sandbox holds it at
// exec (the files it denies) or the checker alone does (parser-only, and
// why), then what the exec check never covers. Empty without deny rules.
func (t *Toolset) ExecDenyLines() []string {
	if len(t.execDeny.lines) == 0 {
		return nil
	}
	out := append([]string{}, t.execDeny.lines...)
	if !t.sandboxed {
		out = append(out, "exec: without --sandbox no deny rule is held at exec: all are parser-only")
	}
	return append(out, execDenyGaps...)
}

// ExecCheck says, in one line for the audit log, how this toolset's
// bash commands are held to the deny rules that name a program when they
// exec: "denied at exec: FILE, …" under --sandbox, "parser-only: …"
// when nothing holds them there; "" when no deny rule names a program.
func (t *Toolset) ExecCheck() string {
	if t.rulesNow() == nil {
		return ""
	}
	names, _, _ := t.rulesNow().set.ExecDenied()
	switch {
	case len(names) == 0:
		return ""
	case !t.sandboxed:
		return "parser-only: without --sandbox nothing is denied at exec"
	case len(t.execDeny.files) == 0:
		return "parser-only: no file of a denied program was found at start"
	}
	return "denied at exec: " + strings.Join(t.execDeny.files, ", ")
}

// execDenyGaps are what the exec check does not cover, whatever the rules.
var execDenyGaps = []string{
	"not covered at exec: rules with arguments (`git push *`) hold at the parser only",
	"not covered at exec: a multi-call binary (busybox, a single-binary coreutils) is not denied, or its every program would be",
	"not covered at exec: copies of a denied program made before the session, and programs built or fetched in it",
	"not covered at exec: files installed after the session started",
	"not covered at exec: code that does the same thing without the program (python3 -c 'os.remove(…)'): the writable set and --no-network are the boundary for effects",
}
