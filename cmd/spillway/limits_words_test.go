package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// A page cut by its byte limit names that limit as the help names it: a
// person who reads "(47.9KB limit)" under a read finds the same figure in
// `spillway read --help`, and the same for grep and find.
func TestLimitNoticesMatchHelp(t *testing.T) {
	cli := newBashCLI(t)
	home := t.TempDir()
	cli.env = append(cli.env, "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "SPILLWAY_CONFIG=")
	dir := t.TempDir()
	var b strings.Builder
	for range 1000 {
		b.WriteString(strings.Repeat("x", 200) + "\n")
	}
	big := filepath.Join(dir, "big.txt")
	if err := os.WriteFile(big, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	size := `[0-9]+(?:\.[0-9])?[KMG]?B`
	for _, c := range []struct {
		args   []string
		notice *regexp.Regexp
		help   *regexp.Regexp
	}{
		{[]string{"read", big}, regexp.MustCompile(`\((` + size + `) limit\)`), regexp.MustCompile(`2000 lines or (` + size + `),`)},
		{[]string{"grep", "x", big, "--limit", "1000"}, regexp.MustCompile(`\[(` + size + `) limit reached`), regexp.MustCompile(`and (` + size + `) of text`)},
	} {
		r := cli.run(t, c.args...)
		m := c.notice.FindStringSubmatch(r.stdout)
		if m == nil {
			t.Fatalf("%q: no byte-limit notice in %q", c.args, tail(r.stdout, 400))
		}
		h := cli.run(t, c.args[0], "--help")
		hm := c.help.FindStringSubmatch(strings.Join(strings.Fields(h.stdout), " "))
		if hm == nil {
			t.Fatalf("%s --help: no byte limit in %q", c.args[0], h.stdout)
		}
		if m[1] != hm[1] {
			t.Errorf("%s: the notice says %s, the help %s", c.args[0], m[1], hm[1])
		}
	}
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}
