package search

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spillway-dev/spillway/tool"
)

func TestParseIgnoreLine(t *testing.T) {
	cases := []struct {
		line string
		ok   bool
		want ignoreRule
	}{
		{"", false, ignoreRule{}},
		{"# comment", false, ignoreRule{}},
		{`\#hash`, true, ignoreRule{pattern: `\#hash`, basename: true, prefix: 0}},
		{"*.log", true, ignoreRule{pattern: "*.log", basename: true}},
		{"!keep.log", true, ignoreRule{pattern: "keep.log", negate: true, basename: true, prefix: 8}},
		{`\!bang`, true, ignoreRule{pattern: `\!bang`, basename: true}},
		{"build/", true, ignoreRule{pattern: "build", dirOnly: true, basename: true, prefix: 5}},
		{"/build/", true, ignoreRule{pattern: "build", dirOnly: true, prefix: 5}},
		{"docs/*.tmp", true, ignoreRule{pattern: "docs/*.tmp", prefix: 5}},
		{"trail   ", true, ignoreRule{pattern: "trail", basename: true, prefix: 5}},
		{`space\ `, true, ignoreRule{pattern: `space\ `, basename: true, prefix: 5}},
		{"tab\t", true, ignoreRule{pattern: "tab\t", basename: true, prefix: 4}},
		{"crlf\r", true, ignoreRule{pattern: "crlf", basename: true, prefix: 4}},
		{"   ", false, ignoreRule{}},
		{"/", false, ignoreRule{}},
		{"!", false, ignoreRule{}},
	}
	for _, c := range cases {
		got, ok := parseIgnoreLine(c.line)
		if ok != c.ok || (ok && got != c.want) {
			t.Errorf("parseIgnoreLine(%q) = %+v, %v; want %+v, %v", c.line, got, ok, c.want, c.ok)
		}
	}
}

func TestIgnoreRulesLastMatchWins(t *testing.T) {
	rs := parseIgnore([]byte("\xef\xbb\xbf*.log\n!keep.log\nlogs/\n/top.txt\na/**/b\n"))
	cases := []struct {
		path    string
		dir     bool
		matched bool
		ignored bool
	}{
		{"x.log", false, true, true},
		{"deep/x.log", false, true, true},
		{"keep.log", false, true, false},
		{"deep/keep.log", false, true, false},
		{"logs", true, true, true},
		{"logs", false, false, false}, // a file named logs
		{"top.txt", false, true, true},
		{"sub/top.txt", false, false, false},
		{"a/b", true, true, true},
		{"a/x/y/b", false, true, true},
		{"other", false, false, false},
	}
	for _, c := range cases {
		m, ign := rs.match(c.path, c.dir)
		if m != c.matched || ign != c.ignored {
			t.Errorf("match(%q, dir=%v) = %v, %v; want %v, %v", c.path, c.dir, m, ign, c.matched, c.ignored)
		}
	}
}

// conformanceTree is a repository whose ignore files use nested, negated,
// anchored and directory-only rules, "**", character classes, escapes and
// .git/info/exclude. Paths ending in "/" are directories; the rest are
// files (their content is their name).
var conformanceTree = map[string]string{
	".gitignore": `# top-level rules
*.log
!keep.log
/build/
docs/*.tmp
tmp/
**/gen/**
logs/
!logs/important.txt
file[0-9].txt
[!a]bc.txt
\#hash
trailing\ 
a/**/b
foo**/bar
*.swp
abc/**
!src/tmp/
`,
	".git/info/exclude": "secret.txt\n/excluded-at-root/\n",
	"a.log":             "",
	"keep.log":          "",
	"src/x.log":         "",
	"src/keep.log":      "",
	"src/.gitignore": `!x.log
/local.txt
sub/
!*.swp
`,
	"src/local.txt":                "",
	"src/deep/local.txt":           "",
	"local.txt":                    "",
	"src/sub/hidden.txt":           "",
	"src/deep/sub/hidden.txt":      "",
	"src/edit.swp":                 "",
	"edit.swp":                     "",
	"build/out.bin":                "",
	"src/build/kept.txt":           "",
	"docs/a.tmp":                   "",
	"docs/sub/b.tmp":               "",
	"docs/readme.md":               "",
	"tmp/scratch":                  "",
	"src/tmp/x":                    "",
	"other/tmp":                    "", // a file named tmp: "tmp/" is for directories
	"pkg/gen/code.go":              "",
	"pkg/gen.txt":                  "",
	"pkg/generate.go":              "",
	"logs/important.txt":           "",
	"logs/debug.txt":               "",
	"file1.txt":                    "",
	"fileX.txt":                    "",
	"abc.txt":                      "",
	"xbc.txt":                      "",
	"#hash":                        "",
	"trailing ":                    "",
	"a/b":                          "",
	"a/x/y/b":                      "",
	"a/x/c":                        "",
	"foox/y/bar":                   "",
	"foo/bar":                      "",
	"abc/one":                      "",
	"abc/two/three":                "",
	"secret.txt":                   "",
	"deep/secret.txt":              "",
	"excluded-at-root/f":           "",
	"not/excluded-at-root/f":       "",
	".env":                         "",
	".hidden/dir/file":             "",
	"vendor/.ignore-not-git/x":     "",
	"nested/.gitignore":            "*\n!*/\n!*.keep\n",
	"nested/a.keep":                "",
	"nested/a.drop":                "",
	"nested/inner/b.keep":          "",
	"nested/inner/b.drop":          "",
	"nested/inner/.gitignore":      "!b.drop\n",
	"unicode/naïve.txt":            "",
	"space dir/file with space.go": "",
	"empty-dir/":                   "",
}

// writeTree creates the files and directories of a tree map under root.
func writeTree(t testing.TB, root string, tree map[string]string) {
	t.Helper()
	for p, content := range tree {
		full := filepath.Join(root, filepath.FromSlash(p))
		if strings.HasSuffix(p, "/") {
			if err := os.MkdirAll(full, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// git runs git in dir with no user or system configuration.
func git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	home := t.TempDir()
	cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+home, "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// TestIgnoreConformsToGit checks that find with pattern "*" and type file
// lists exactly what git lists as tracked or untracked-but-not-ignored.
func TestIgnoreConformsToGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	root := t.TempDir()
	git(t, root, "init", "-q")
	writeTree(t, root, conformanceTree)
	if err := os.Symlink("src", filepath.Join(root, "link-to-src")); err != nil {
		t.Fatal(err)
	}
	// Some files tracked, the rest untracked.
	git(t, root, "add", "src", "docs/readme.md", "local.txt")
	git(t, root, "commit", "-q", "-m", "some")

	want := strings.Split(strings.TrimSpace(git(t, root, "-c", "core.quotePath=false", "ls-files", "--cached", "--others", "--exclude-standard")), "\n")
	slices.Sort(want)

	s := New(Config{Cwd: root})
	res, err := s.Find(context.Background(), tool.FindInput{Pattern: "*", Type: TypeFile, Limit: 100000})
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Split(shown(res.Lines), "\n")
	if !slices.IsSorted(got) {
		t.Errorf("find output is not sorted:\n%s", shown(res.Lines))
	}
	if !slices.Equal(got, want) {
		t.Errorf("find differs from git ls-files\nonly in find: %q\nonly in git:  %q", minus(got, want), minus(want, got))
	}
	// The tree must exercise both sides: some files ignored, some kept.
	if len(want) < 20 || len(want) > len(conformanceTree)-10 {
		t.Errorf("git lists %d files; the tree does not exercise the rules", len(want))
	}
}

func minus(a, b []string) []string {
	var out []string
	for _, s := range a {
		if !slices.Contains(b, s) {
			out = append(out, s)
		}
	}
	return out
}

// TestDotIgnoreOverridesGitignore: .ignore (ripgrep's) wins over
// .gitignore at any level, and a parent repository's rules apply to a
// search rooted in a subdirectory.
func TestDotIgnoreAndParentRules(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		".git/HEAD":         "ref: refs/heads/main\n",
		".git/info/exclude": "*.excluded\n",
		".gitignore":        "*.gen\n",
		"sub/.ignore":       "!keep.gen\nonly-dot.txt\n",
		"sub/a.gen":         "x",
		"sub/keep.gen":      "x",
		"sub/only-dot.txt":  "x",
		"sub/b.excluded":    "x",
		"sub/plain.txt":     "x",
	})
	s := New(Config{Cwd: root})
	for _, path := range []string{"", "sub"} {
		res, err := s.Find(context.Background(), tool.FindInput{Pattern: "*", Path: path, Type: TypeFile})
		if err != nil {
			t.Fatal(err)
		}
		want := "sub/.ignore\nsub/keep.gen\nsub/plain.txt"
		if path == "" {
			want = ".gitignore\n" + want
		}
		if shown(res.Lines) != want {
			t.Errorf("find in %q:\n%s\nwant:\n%s", path, shown(res.Lines), want)
		}
	}
}

// escapeGlob quotes every byte of s that is special to wildmatch.
func escapeGlob(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if isGlobSpecial(s[i]) {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// FuzzIgnore parses arbitrary ignore files and matches arbitrary paths.
// Properties: no panic or runaway; a quoted name matches exactly that name
// at any depth; "p" followed by "!p" ignores nothing p matched.
func FuzzIgnore(f *testing.F) {
	for _, s := range []struct{ file, path string }{
		{"*.log\n!keep.log\n", "a/keep.log"},
		{"/build/\ndocs/*.tmp\n", "docs/a.tmp"},
		{"**/gen/**\n", "x/gen/y"},
		{"a/**/b\n", "a/x/y/b"},
		{"[!a-c]x[[:digit:]]\n", "dx1"},
		{"\\#x\\ \n", "#x "},
		{"foo**/bar\n", "foox/y/bar"},
		{"*a*a*a*a*a*a*a*a*b\n", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaac"},
		{"[[:alpha:]\n", "a"},
	} {
		f.Add(s.file, s.path)
	}
	f.Fuzz(func(t *testing.T, file, path string) {
		if len(file) > 1024 || len(path) > 256 {
			return
		}
		rs := parseIgnore([]byte(file))
		for _, dir := range []bool{false, true} {
			rs.match(path, dir)
			rs.match(strings.TrimPrefix(path, "/"), dir)
		}
		for _, r := range rs.rules {
			if r.pattern == "" || r.prefix < 0 || r.prefix > len(r.pattern) {
				t.Fatalf("bad rule %+v from %q", r, file)
			}
			wildmatch(r.pattern, path)
		}
		// A quoted base name matches that name and nothing longer.
		name := path[strings.LastIndexByte(path, '/')+1:]
		if name == "" || strings.ContainsAny(name, "\r\n") || strings.HasPrefix(name, "#") ||
			strings.HasPrefix(name, "!") || strings.TrimRight(name, " ") != name {
			return
		}
		q := parseIgnore([]byte(escapeGlob(name)))
		if m, ign := q.match(path, false); !m || !ign {
			t.Fatalf("quoted %q does not match %q", escapeGlob(name), path)
		}
		if m, _ := q.match(path+"x", false); m {
			t.Fatalf("quoted %q matches %q", escapeGlob(name), path+"x")
		}
		neg := parseIgnore([]byte(escapeGlob(name) + "\n!" + escapeGlob(name)))
		if _, ign := neg.match(path, false); ign {
			t.Fatalf("%q then its negation still ignores %q", name, path)
		}
	})
}
