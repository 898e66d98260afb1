//go:build linux && !spillway_portable

package sandbox_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spillway-dev/spillway"
	"github.com/spillway-dev/spillway/internal/sandbox"
)

// With deny = ["rm *"] and default = "allow" under --sandbox, what the
// checker cannot see (a script file, a copy, ld.so, a #! line) still
// cannot run rm: the victim survives. Code that removes it itself does.
func TestToolsetDenyAtExec(t *testing.T) {
	if ok, abi, err := sandbox.Status(); !ok || abi < sandbox.FilesABI {
		t.Skipf("Landlock ABI %d here (%v)", abi, err)
	}
	base := t.TempDir()
	root := filepath.Join(base, "root")
	t.Setenv("TMPDIR", filepath.Join(base, "tmp"))
	for _, d := range []string{root, os.Getenv("TMPDIR")} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	p := spillway.DefaultPolicy()
	p.Spill.Dir = filepath.Join(base, "spill")
	p.Rules = spillway.RulesPolicy{Default: "allow", Deny: []string{"rm *", "git push *"}, ManagedDir: "-"} // no managed settings
	ts, err := spillway.New(spillway.Options{Root: root, Sandbox: true, Policy: &p})
	if err != nil {
		t.Fatal(err)
	}
	defer ts.Close()
	lines := strings.Join(ts.ExecDenyLines(), "\n")
	if !strings.Contains(lines, `parser-only: deny "git push *"`) || !strings.Contains(lines, `exec: deny "rm *"`) {
		t.Errorf("ExecDenyLines:\n%s", lines)
	}
	if got := ts.ExecCheck(); !strings.HasPrefix(got, "denied at exec: ") || !strings.Contains(got, "/rm") {
		t.Errorf("ExecCheck = %q, want the files of rm denied at exec (the audit log's exec_check)", got)
	}
	files := map[string]string{
		"del.py": "import os\nos.execv('/bin/rm', ['rm', '-f', 'victim'])\n",
		"del.pl": "exec '/bin/rm', '-f', 'victim';\n",
		"del.sh": "#!/bin/rm -f\n",
		"rmv.py": "import os\nos.remove('victim')\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(root, name), []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// Only attempts the checker allows: those that name rm on the
	// command line are denied before they run (internal/rules' tests);
	// the sandbox's own tests take every route to the file.
	attempts := []string{"python3 del.py", "perl del.pl", "./del.sh victim"}
	victim := filepath.Join(root, "victim")
	for _, a := range attempts {
		if err := os.WriteFile(victim, []byte("keep"), 0o644); err != nil {
			t.Fatal(err)
		}
		res, err := ts.Bash(context.Background(), spillway.BashInput{Command: a})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(res.Text, "nothing ran") {
			t.Fatalf("%s was not run: %q", a, res.Text)
		}
		if _, err := os.Stat(victim); err != nil {
			t.Errorf("%s removed the victim: %q", a, res.Text)
		}
	}
	// Documented as not blocked: no denied program runs.
	res, err := ts.Bash(context.Background(), spillway.BashInput{Command: "python3 rmv.py"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(victim); err == nil {
		t.Errorf("python3's os.remove left the victim: %q", res.Text)
	}
}
