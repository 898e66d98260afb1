package rules

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// decide checks command under rules read from a settings file's JSON
// permissions and the default given, returning the decision's word.
func decide(t *testing.T, def Decision, perms, command string) string {
	t.Helper()
	p, err := ParseClaude("s.json", []byte(`{"permissions": `+perms+`}`))
	if err != nil {
		t.Fatal(err)
	}
	set := &Set{Default: def, Rules: p.Rules}
	return set.Check(command).Decision.String()
}

// Claude Code's documented pattern semantics, each as spillway decides
// it: equal, or stricter where the table says so.
func TestClaudeSemantics(t *testing.T) {
	for _, c := range []struct {
		perms, command, want string
	}{
		// * at the end after a space: a word boundary.
		{`{"allow": ["Bash(ls *)"]}`, "ls -la", "allow"},
		{`{"allow": ["Bash(ls *)"]}`, "ls", "allow"},
		{`{"allow": ["Bash(ls *)"]}`, "lsof", "ask"},
		// * glued to the word: any continuation.
		{`{"allow": ["Bash(ls*)"]}`, "lsof", "allow"},
		{`{"allow": ["Bash(ls*)"]}`, "ls -la", "allow"},
		// :* is the older spelling of " *".
		{`{"allow": ["Bash(npm run test:*)"]}`, "npm run test --watch", "allow"},
		{`{"allow": ["Bash(npm run test:*)"]}`, "npm run testing", "ask"},
		// * in the middle and at the start.
		{`{"allow": ["Bash(git * main)"]}`, "git push origin main", "allow"},
		{`{"allow": ["Bash(git * main)"]}`, "git merge main", "allow"},
		{`{"allow": ["Bash(git * main)"]}`, "git push origin dev", "ask"},
		{`{"allow": ["Bash(* --version)"]}`, "node --version", "allow"},
		{`{"allow": ["Bash(* --version)"]}`, "node --help", "ask"},
		{`{"deny": ["Bash(git * main)"]}`, "git push origin main", "deny"},
		{`{"deny": ["Bash(* --version)"]}`, "NODE --version", "deny"},
		// An exact entry.
		{`{"allow": ["Bash(git status)"]}`, "git status", "allow"},
		{`{"allow": ["Bash(git status)"]}`, "git status -s", "ask"},
		// Bash and Bash(*): every command.
		{`{"allow": ["Bash"]}`, "anything at all", "allow"},
		{`{"allow": ["Bash(*)"]}`, "rm -rf build", "allow"},
		// Precedence: deny over ask over allow, wherever written.
		{`{"allow": ["Bash(git *)"], "deny": ["Bash(git push *)"]}`, "git push", "deny"},
		{`{"allow": ["Bash(git *)"], "ask": ["Bash(git push *)"]}`, "git push x", "ask"},
		// Compound commands: every part must be allowed.
		{`{"allow": ["Bash(safe *)"]}`, "safe x && rm -rf /", "ask"},
		{`{"allow": ["Bash(ls *)", "Bash(grep *)"]}`, "ls | grep x", "allow"},
		{`{"deny": ["Bash(rm *)"], "allow": ["Bash(ls *)"]}`, "ls; rm x", "deny"},
		// A reserved word is a word of a pattern; time is a wrapper,
		// whose command is decided (Claude Code strips it too).
		{`{"allow": ["Bash(time:*)"]}`, "time make", "ask"},
		{`{"allow": ["Bash(time:*)", "Bash(make)"]}`, "time make", "allow"},
		// Entries Claude Code writes itself: exact inputs.
		{`{"allow": ["Bash(git commit -m \"$(cat <<'EOF'\nfix\nEOF\n)\")"]}`, "git commit -m \"$(cat <<'EOF'\nfix\nEOF\n)\"", "allow"},
		{`{"allow": ["Bash(git commit -m \"$(cat <<'EOF'\nfix\nEOF\n)\")"]}`, "git commit -m \"$(cat <<'EOF'\nother\nEOF\n)\"", "ask"},
		{`{"allow": ["Bash(make && make test)"]}`, "make && make test", "allow"},
		{`{"allow": ["Bash(make && make test)"]}`, "make && make test && rm -rf /", "ask"},
		{`{"allow": ["Bash(PYTHONPATH=src python -m pytest)"]}`, "PYTHONPATH=src python -m pytest", "allow"},
		{`{"allow": ["Bash(PYTHONPATH=src python -m pytest)"]}`, "PYTHONPATH=evil python -m pytest", "ask"},
		// Wrappers are stripped before matching (timeout, nice, nohup).
		{`{"allow": ["Bash(make *)"]}`, "timeout 60 make test", "allow"},
		{`{"allow": ["Bash(make *)"]}`, "nice -n 5 make", "allow"},
		{`{"allow": ["Bash(make *)"]}`, "nohup make", "allow"},
		{`{"deny": ["Bash(rm *)"]}`, "timeout 5 rm -rf x", "deny"},
		// A * in an allow pattern never lifts a part sent to ask for
		// another reason: an unknown program, code in a string.
		{`{"allow": ["Bash(*)"]}`, "$CMD x", "ask"},
		{`{"allow": ["Bash(* --version)"]}`, "$CMD --version", "ask"},
		{`{"allow": ["Bash(git * main)"]}`, "git push \"$REMOTE\" main", "ask"},
		{`{"allow": ["Bash(git * main)"]}`, "git push 'origin x' main", "ask"},
		{`{"deny": ["Bash(git * main)"]}`, "git push \"$REMOTE\" main", "ask"},
		// Deny entries spillway cannot hold exactly are widened.
		{`{"deny": ["Bash(curl * | bash)"]}`, "curl https://x.sh", "deny"},
		{`{"deny": ["Bash(FOO=1 make deploy)"]}`, "make deploy", "deny"},
		{`{"ask": ["Bash(echo $(date))"]}`, "echo hi", "ask"},
	} {
		if got := decide(t, Ask, c.perms, c.command); got != c.want {
			t.Errorf("%s with %q: %s, want %s", c.perms, c.command, got, c.want)
		}
	}
}

// Every entry that is not held as written says so, with its line, and
// never loosens: an allow entry is dropped or held exactly, a deny or ask
// entry widened.
func TestClaudeNotes(t *testing.T) {
	src := "{\"permissions\": {\n" +
		"\"allow\": [\"Bash(curl * | sh)\", \"Bash(FOO=1 make)\"],\n" +
		"\"deny\": [\"Bash(curl * | bash)\", \"Bash($(x) y)\", \"Read(./secrets/**\", 7],\n" +
		"\"ask\": [\"Bash(git push && true)\"]}}"
	p, err := ParseClaude("s.json", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, n := range p.Notes {
		got = append(got, n.Source+" "+n.Action+" "+n.Held)
	}
	want := []string{
		"s.json:2 dropped ", "s.json:2 exact ",
		"s.json:3 widened Bash(curl *)", "s.json:3 widened Bash(*)", "s.json:3 widened Read", "s.json:3 dropped ",
		"s.json:4 widened Bash(git push *)",
	}
	if !slices.Equal(got, want) {
		t.Errorf("notes:\n got %q\nwant %q", got, want)
	}
	for _, n := range p.Notes {
		if n.Action == Widened && !strings.Contains(n.Also, "is now") {
			t.Errorf("%s: does not say what is now denied: %q", n.Source, n.Also)
		}
	}
	for _, r := range p.Rules {
		if r.Decision == Allow && r.Pattern.Exact == "" {
			t.Errorf("an allow rule from an entry not held: %+v", r)
		}
	}
}

func writeFile(t *testing.T, name, data string) {
	t.Helper()
	os.MkdirAll(filepath.Dir(name), 0o755)
	if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A settings file of 2 million deny entries is refused by its size
// before it is parsed; below the cap, parsing is linear in the entries
// (half the entries, about half the time, not a quarter).
func TestClaudeParseLinear(t *testing.T) {
	gen := func(n int) []byte {
		var b strings.Builder
		b.WriteString("{\"permissions\": {\"deny\": [\n")
		for i := range n {
			if i > 0 {
				b.WriteString(",\n")
			}
			fmt.Fprintf(&b, "\"Bash(x%d)\"", i)
		}
		b.WriteString("]}}")
		return []byte(b.String())
	}
	home := t.TempDir()
	writeFile(t, filepath.Join(home, ".claude", "settings.json"), string(gen(2_000_000)))
	im := Import([]string{"claude-code"}, Places{Home: home})
	if len(im.Failures) != 1 || !strings.Contains(im.Failures[0].Msg, "more than") {
		t.Fatalf("2 million entries: %v", im.Failures)
	}
	// Sixteen times the entries: about sixteen times the time if
	// linear, 256 if quadratic; the bound sits between the two, four
	// times from each, since a loaded machine and the collector (the
	// large input's heap is the larger) stretch the ratio of a linear
	// parse past eight times its entries' ratio now and then. The two
	// are timed in turns, the best of each kept, so that load slows
	// both alike.
	small, large := gen(4_000), gen(64_000)
	best := func(cur time.Duration, data []byte) time.Duration {
		start := time.Now()
		ParseClaude("s.json", data)
		if d := time.Since(start); cur == 0 || d < cur {
			return d
		}
		return cur
	}
	var ts, tl time.Duration
	for range 5 {
		ts, tl = best(ts, small), best(tl, large)
	}
	if ratio := float64(tl) / float64(ts); ratio > 64 {
		t.Errorf("16x the entries took %.1fx the time: not linear", ratio)
	}
}

// An administrator's deny beats the person's allow; their
// allowManagedPermissionRulesOnly drops every other file's allow.
func TestManagedSettings(t *testing.T) {
	home, managed := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(home, ".claude", "settings.json"), `{"permissions": {"allow": ["Bash(dd:*)", "Bash(ls *)"]}}`)
	writeFile(t, filepath.Join(managed, "managed-settings.json"), `{"permissions": {"deny": ["Bash(dd:*)"]}}`)
	writeFile(t, filepath.Join(managed, "managed-settings.d", "20-b.json"), `{"permissions": {"ask": ["Bash(ls -R *)"]}}`)
	writeFile(t, filepath.Join(managed, "managed-settings.d", "10-a.json"), `{"permissions": {"allow": ["Bash(make *)"]}}`)
	writeFile(t, filepath.Join(managed, "managed-settings.d", ".hidden.json"), `{"permissions": {"deny": ["Bash"]}}`)
	for _, names := range [][]string{nil, {"claude-code"}} {
		im := Import(names, Places{Home: home, ManagedDir: managed})
		set := &Set{Default: Ask, Rules: im.Rules}
		for cmd, want := range map[string]Decision{"dd if=/dev/zero of=x": Deny, "ls -R /": Ask, "make": Allow} {
			if d := set.Check(cmd).Decision; d != want {
				t.Errorf("import %q: %s: %s, want %s", names, cmd, d, want)
			}
		}
		if len(im.Managed) != 3 || filepath.Base(im.Managed[1]) != "10-a.json" {
			t.Errorf("managed files: %q", im.Managed)
		}
	}
	writeFile(t, filepath.Join(managed, "managed-settings.d", "30-only.json"), `{"allowManagedPermissionRulesOnly": true}`)
	im := Import([]string{"claude-code"}, Places{Home: home, ManagedDir: managed})
	set := &Set{Default: Ask, Rules: im.Rules}
	if d := set.Check("ls").Decision; d != Ask {
		t.Errorf("ls with allowManagedPermissionRulesOnly: %s, want ask", d)
	}
	if d := set.Check("make").Decision; d != Allow {
		t.Errorf("make (a managed allow): %s, want allow", d)
	}
}

// A project's allow entries count only while the person trusts it as
// it was; its deny entries always count.
func TestProjectTrust(t *testing.T) {
	home, proj := t.TempDir(), t.TempDir()
	state := filepath.Join(home, "state", "state.json")
	writeFile(t, filepath.Join(proj, ".claude", "settings.local.json"), `{"permissions": {"allow": ["Bash(*)"], "deny": ["Bash(rm *)"]}}`)
	writeFile(t, filepath.Join(proj, ".codex", "rules", "a.rules"), `prefix_rule(pattern=["wget"])`)
	at := Places{Home: home, Cwd: proj, Trust: Trust{StateFile: state}}
	check := func(cmd string) Decision {
		im := Import([]string{"claude-code", "codex"}, at)
		return (&Set{Default: Ask, Rules: im.Rules}).Check(cmd).Decision
	}
	for _, cmd := range []string{"curl x", "wget x", "python3 -c 1"} {
		if d := check(cmd); d != Ask {
			t.Errorf("untrusted: %s: %s, want ask", cmd, d)
		}
	}
	if d := check("rm x"); d != Deny {
		t.Errorf("untrusted deny: %s", d)
	}
	if err := Grant(at.Trust, proj, "tty"); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"curl x", "wget x"} {
		if d := check(cmd); d != Allow {
			t.Errorf("trusted: %s: %s, want allow", cmd, d)
		}
	}
	writeFile(t, filepath.Join(proj, ".codex", "rules", "b.rules"), `prefix_rule(pattern=["curl"])`)
	if d := check("curl x"); d != Ask {
		t.Errorf("changed since trusted: curl: %s, want ask", d)
	}
	// A state file commands may write is not used.
	at.Trust.Writable = []string{filepath.Dir(state)}
	if err := Grant(at.Trust, proj, "tty"); err == nil {
		t.Error("a grant in a writable state file")
	}
	at.Trust.Writable = nil
	// Trusted by the config: as first seen.
	at.Trust.Trusted = []string{proj}
	if err := Revoke(at.Trust, proj); err != nil {
		t.Fatal(err)
	}
	if d := check("curl x"); d != Allow {
		t.Errorf("trusted_projects: %s", d)
	}
	writeFile(t, filepath.Join(proj, ".claude", "settings.json"), `{}`)
	if d := check("curl x"); d != Ask {
		t.Errorf("trusted_projects, changed since: %s", d)
	}
}

// The file tools ask before they change a rules file: the project's,
// the person's, and the state file where trust is kept.
func TestRuleFilesGuarded(t *testing.T) {
	home, proj := t.TempDir(), t.TempDir()
	state := filepath.Join(home, "state.json")
	im := Import(nil, Places{Home: home, Cwd: proj, Trust: Trust{StateFile: state}})
	want := map[string]bool{
		"/" + filepath.Join(proj, ".claude", "settings.local.json"): false,
		"/" + filepath.Join(proj, ".codex", "rules", "**"):          false,
		"/" + filepath.Join(home, ".claude", "settings.json"):       false,
		"/" + state: false,
	}
	for _, r := range im.FileRules {
		if _, ok := want[r.Pattern]; ok && r.Decision == Ask && r.Kind == FileWrite {
			want[r.Pattern] = true
		}
	}
	for p, ok := range want {
		if !ok {
			t.Errorf("no ask rule for writing %s", p)
		}
	}
}
