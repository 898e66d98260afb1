package factcorpus

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeCorpus(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestLoadErrors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"no cases", map[string]string{"README": "x"}, "no NAME.sh"},
		{"no facts", map[string]string{"a.sh": "echo a"}, "case a has no facts"},
		{"no tab", map[string]string{"a.sh": "echo a", "a.facts": "just words\n"}, `a.facts: "just words": want what<TAB>regexp`},
		{"bad regexp", map[string]string{"a.sh": "echo a", "a.facts": "what\t(unclosed\n"}, "a.facts: error parsing regexp"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load(writeCorpus(t, tc.files))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Load: %v, want an error with %q", err, tc.want)
			}
		})
	}
}

func TestLoadAndCount(t *testing.T) {
	dir := writeCorpus(t, map[string]string{
		"b.sh":    "echo b",
		"b.facts": "# a comment\n\nexit code\t(?i)exit(ed with)? code:? 0\\b\n",
		"a.sh":    "printf 'x\\n'; echo y >&2; printf 'z\\n'; exit 3",
		"a.facts": "first\tx\nexit code\t(?i)exit(ed with)? code:? 3\\b\nnever\tnowhere\n",
	})
	cases, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) != 2 || cases[0].Name != "a" || cases[1].Name != "b" || len(cases[0].Facts) != 3 || len(cases[1].Facts) != 1 {
		t.Fatalf("Load: %+v", cases)
	}
	out, code, err := Run(dir, "a")
	if err != nil || code != 3 || out != "x\ny\nz\n" {
		t.Fatalf("Run: %q, %d, %v; want both streams in order and exit 3", out, code, err)
	}
	s := cases[0].Count("x\nProcess exited with code 3\né", false)
	if s.Kept != 2 || s.Total != 3 || s.Chars != 30 || len(s.Missed) != 1 || s.Missed[0] != "never" {
		t.Errorf("Count: %+v, want 2 of 3 kept in 30 characters, missed never", s)
	}
	if s := cases[1].Count("ok", false); s.Kept != 0 {
		t.Errorf("Count without an exit code: %+v, want none kept", s)
	}
	if s := cases[1].Count("ok", true); s.Kept != 1 {
		t.Errorf("Count of a success the client shows as one: %+v, want the exit code kept", s)
	}
	var sum Score
	sum.Add(Score{Kept: 1, Total: 2, Chars: 1500})
	sum.Add(Score{Kept: 2, Total: 2, Chars: 1_000_000})
	if got := sum.String(); got != "3/4, 1,001,500" {
		t.Errorf("sum: %q", got)
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 123456: "123,456", -1234: "-1,234", -123: "-123"} {
		if got := Thousands(n); got != want {
			t.Errorf("Thousands(%d) = %q, want %q", n, got, want)
		}
	}
}
