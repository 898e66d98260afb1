package rules

import (
	"strings"
	"testing"
)

// The host_executable and network_rule checks of Codex's own tests,
// codex-rs/execpolicy/tests/basic.rs (openai/codex at
// 0bfef3102ae183665ce5839aacbe4bb46de0bfe7), each as spillway reads
// it. A row whose spillway decision differs from Codex's is stricter,
// and says why.
func TestCodexPortedHostAndNetwork(t *testing.T) {
	// Files Codex's parser accepts or refuses.
	for _, c := range []struct {
		test, src, err string
	}{
		{"network_rules_compile_into_domain_lists", `network_rule(host = "google.com", protocol = "http", decision = "allow")
network_rule(host = "api.github.com", protocol = "https", decision = "allow")
network_rule(host = "blocked.example.com", protocol = "https", decision = "deny")
network_rule(host = "prompt-only.example.com", protocol = "https", decision = "prompt")`, ""},
		{"network_rule_rejects_wildcard_hosts", `network_rule(host="*", protocol="http", decision="allow")`, "wildcards are not allowed"},
		{"parses_host_executable_paths", `host_executable(name = "git", paths = ["/opt/homebrew/bin/git", "/usr/bin/git", "/usr/bin/git"])`, ""},
		{"host_executable_rejects_non_absolute_path", `host_executable(name = "git", paths = ["git"])`, "host_executable paths must be absolute"},
		{"host_executable_rejects_name_with_path_separator", `host_executable(name = "/usr/bin/git", paths = ["/usr/bin/git"])`, "host_executable name must be a bare executable name"},
		{"host_executable_rejects_path_with_wrong_basename", `host_executable(name = "git", paths = ["/usr/bin/rg"])`, "must have the base name \"git\""},
	} {
		_, err := ParseCodex("test.rules", []byte(c.src))
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%s: %v", c.test, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: err = %v, want one saying %q", c.test, err, c.err)
		}
	}

	// host_executable_last_definition_wins: a later file's definition
	// replaces an earlier one's, as the examples of a third file show.
	l := &codexLoader{hostPaths: map[string][]string{}}
	for _, f := range []struct{ name, src string }{
		{"shared.rules", `host_executable(name = "git", paths = ["/usr/bin/git"])`},
		{"user.rules", `host_executable(name = "git", paths = ["/opt/homebrew/bin/git"])`},
		{"check.rules", `prefix_rule(pattern = ["git"], match = ["/opt/homebrew/bin/git status"], not_match = ["/usr/bin/git status"])`},
	} {
		if _, err := l.run(f.name, []byte(f.src)); err != nil {
			t.Errorf("host_executable_last_definition_wins: %s: %v", f.name, err)
		}
	}

	// Decisions with resolve_host_executables: the program given by its
	// absolute path.
	for _, c := range []struct {
		test, src, command, codex, spillway, why string
	}{
		{"host_executable_resolution_uses_basename_rule_when_allowed",
			"prefix_rule(pattern = [\"git\", \"status\"], decision = \"prompt\")\nhost_executable(name = \"git\", paths = [\"/usr/bin/git\"])",
			"/usr/bin/git status", "ask", "ask", ""},
		{"host_executable_resolution_respects_explicit_empty_allowlist",
			"prefix_rule(pattern = [\"git\"], decision = \"prompt\")\nhost_executable(name = \"git\", paths = [])",
			"/usr/bin/git status", "allow", "ask",
			"stricter: a deny or ask rule matches a program by its base name wherever it lives; host_executable narrows only Codex's own examples"},
		{"host_executable_resolution_ignores_path_not_in_allowlist",
			"prefix_rule(pattern = [\"git\"], decision = \"prompt\")\nhost_executable(name = \"git\", paths = [\"/usr/bin/git\"])",
			"/opt/homebrew/bin/git status", "allow", "ask",
			"stricter: as above"},
		{"host_executable_resolution_falls_back_without_mapping",
			"prefix_rule(pattern = [\"git\"], decision = \"prompt\")",
			"/usr/bin/git status", "ask", "ask", ""},
		{"host_executable_resolution_does_not_override_exact_match",
			"prefix_rule(pattern = [\"/usr/bin/git\"], decision = \"allow\")\nprefix_rule(pattern = [\"git\"], decision = \"prompt\")\nhost_executable(name = \"git\", paths = [\"/usr/bin/git\"])",
			"/usr/bin/git status", "allow", "ask",
			"stricter: every rule that matches counts and the strictest wins; the ask rule on git matches /usr/bin/git by its base name"},
	} {
		rules, err := ParseCodex("test.rules", []byte(c.src))
		if err != nil {
			t.Errorf("%s: %v", c.test, err)
			continue
		}
		got := (&Set{Default: Allow, Rules: rules}).Check(c.command).Decision.String()
		if got != c.spillway {
			t.Errorf("%s: %q: spillway %s, want %s", c.test, c.command, got, c.spillway)
		}
		if c.codex != c.spillway && (c.why == "" || !(c.codex == "allow" || c.codex == "ask" && c.spillway == "deny")) {
			t.Errorf("%s: differs from Codex without being stricter, or without why", c.test)
		}
	}
}
