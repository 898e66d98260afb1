//go:build unix

package mcpserver_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Through MCP, with rules that allow everything but rm and a client
// that declines every form: each class of the second outside attack
// leaves its victim file in place. Effects are checked, not decisions.
func TestRound2AttacksLeaveTheVictim(t *testing.T) {
	t.Parallel()
	cfg := filepath.Join(t.TempDir(), "rules.toml")
	os.WriteFile(cfg, []byte("[rules]\ndefault = \"allow\"\ndeny = [\"rm *\", \"curl:*\"]\nask = [\"git push *\"]\n"), 0o644)
	var asked int
	opts := &mcp.ClientOptions{ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		asked++
		return &mcp.ElicitResult{Action: "decline"}, nil
	}}
	work := t.TempDir()
	cs := connectStdioArgs(t, t.TempDir(), opts, "--config", cfg)
	victim := filepath.Join(work, "victim")
	reset := func() {
		if err := os.WriteFile(victim, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	esh := filepath.Join(work, "e.sh")
	os.WriteFile(esh, []byte("rm -f "+victim+"\n"), 0o755)
	hasGit := exec.Command("git", "--version").Run() == nil
	for _, c := range []struct {
		class string
		args  map[string]any
		git   bool
	}{
		{"arithmetic", map[string]any{"command": "x='a[$'; y='(rm -f " + victim + ")]'; z=$x$y; (( z ))"}, false},
		{"arithmetic in test", map[string]any{"command": "x='a[$'; y='(rm -f " + victim + ")]'; z=$x$y; [[ $z -eq 1 ]]"}, false},
		{"env parameter", map[string]any{"command": "ls", "env": map[string]any{"BASH_ENV": esh}}, false},
		{"BASH_CMDS", map[string]any{"command": "BASH_CMDS[ls]=/bin/rm; ls -f " + victim}, false},
		{"printf -v PS4", map[string]any{"command": "printf -v PS4 '$(rm -f " + victim + ")'; set -x; true"}, false},
		{"read into BASH_ENV", map[string]any{"command": "read BASH_ENV <<< " + esh + "; export BASH_ENV; bash -c true"}, false},
		{"privilege wrapper", map[string]any{"command": "sudo -n rm -f " + victim}, false},
		{"unknown wrapper", map[string]any{"command": "setarch x86_64 rm -f " + victim}, false},
		{"inline code", map[string]any{"command": "perl -e 'unlink \"" + victim + "\"'"}, false},
		{"denied name in a string", map[string]any{"command": "xargs -a /dev/null true; env -S 'rm -f " + victim + "'"}, false},
		{"git config written then run", map[string]any{"command": "git init -q . && printf '[alias]\\n\\tp = !rm -f " + victim + "\\n' >> .git/config && git p", "cwd": work}, true},
		{"git -c code key", map[string]any{"command": "git init -q . && git -c alias.p='!rm -f " + victim + "' p", "cwd": work}, true},
	} {
		if c.git && !hasGit {
			continue
		}
		reset()
		res := call(t, cs, "bash", c.args)
		if !exists(victim) {
			t.Errorf("%s: the victim was deleted:\n%s", c.class, text(res))
		}
	}

	// Keys typed into ed's shell escape.
	if _, err := exec.LookPath("ed"); err == nil {
		reset()
		job := call(t, cs, "bash", map[string]any{"command": "ed", "tty": true, "timeout": 500})
		pid := field(details(t, job), "pid")
		res := call(t, cs, "write_stdin", map[string]any{"pid": pid, "input": "!rm -f " + victim + "\n"})
		if !res.IsError || !exists(victim) {
			t.Errorf("write_stdin to ed: the victim was deleted:\n%s", text(res))
		}
		call(t, cs, "bash", map[string]any{"kill_pid": pid})
	}
	if asked == 0 {
		t.Error("the client was never asked")
	}
}
