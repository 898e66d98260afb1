package spillway_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spillway-dev/spillway"
	"github.com/spillway-dev/spillway/internal/policy"
)

// Regression tests: each notice that said something untrue.

// A line cut in the omitted middle is not shown, so it is not counted.
func TestNoticeLineCutInOmittedMiddle(t *testing.T) {
	t.Parallel()
	ts := bashToolset(t, spillway.Options{Policy: headTailPolicy()})
	r, err := ts.Bash(context.Background(), spillway.BashInput{Command: `seq 1 2000; printf 'x%.0s' $(seq 1 3000); echo; seq 1 2000`})
	if err != nil {
		t.Fatal(err)
	}
	tr := r.Details.Stdout.Truncation
	if tr.LinesCut != 0 || strings.Contains(r.Text, "cut at 2000 chars") {
		t.Errorf("lines_cut %d, text %q", tr.LinesCut, r.Text[len(r.Text)-300:])
	}
	if next := r.Details.Stdout.Next; len(next) != 1 || next[0]["offset"] != int64(801) || next[0]["limit"] != int64(4001-800-1200) {
		t.Errorf("next %v", next)
	}
}

// check_pid's notice numbers its window as the details count it.
func TestNoticeCheckPIDNumbers(t *testing.T) {
	t.Parallel()
	ts := bashToolset(t, spillway.Options{})
	ctx := context.Background()
	dir := t.TempDir()
	first, gate := filepath.Join(dir, "first"), filepath.Join(dir, "gate")
	r, err := ts.Bash(ctx, spillway.BashInput{
		Command: fmt.Sprintf("seq 1 100000; touch %s; while [ ! -e %s ]; do sleep 0.02; done; seq 100001 200000", first, gate),
		Timeout: 250 * time.Millisecond,
	})
	if err != nil || r.Details.PID == 0 {
		t.Fatalf("%v %+v", err, r.Details)
	}
	// A look between the two halves takes the first; the look after the
	// end then numbers the new lines within the whole stream.
	waitFor(t, func() bool { _, err := os.Stat(first); return err == nil })
	if _, err := ts.CheckJob(ctx, spillway.CheckJobInput{PID: r.Details.PID}); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(gate, nil, 0o644)
	// The wait for the end is on the jobs list, which takes no output.
	waitFor(t, func() bool {
		j, err := ts.Jobs(ctx)
		if err != nil {
			t.Fatal(err)
		}
		i := slices.IndexFunc(j.Details.Jobs, func(j spillway.JobInfo) bool { return j.PID == r.Details.PID })
		return i >= 0 && j.Details.Jobs[i].State == "exited"
	})
	c, err := ts.CheckJob(ctx, spillway.CheckJobInput{PID: r.Details.PID, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`of the new lines (\d+)-(\d+)`).FindStringSubmatch(c.Text)
	tr := c.Details.Stdout.Truncation
	if m == nil {
		t.Fatalf("text %q", c.Text)
	}
	var from, to int64
	fmt.Sscan(m[1], &from)
	fmt.Sscan(m[2], &to)
	if to != 200000 || to-from+1 != tr.TotalLines {
		t.Errorf("the notice says lines %d-%d, the details %d lines", from, to, tr.TotalLines)
	}
}

// kill_pid with nothing new prints no empty stdout section.
func TestNoticeKillNothingNew(t *testing.T) {
	t.Parallel()
	ts := bashToolset(t, spillway.Options{})
	ctx := context.Background()
	r, err := ts.Bash(ctx, spillway.BashInput{Command: "seq 1 100000; sleep 30", Timeout: 500})
	if err != nil || r.Details.PID == 0 {
		t.Fatalf("%v %+v", err, r.Details)
	}
	// Look until a look has taken seq's last line (it may still be
	// printing on a loaded machine): then nothing new is left for the
	// kill.
	for deadline := time.Now().Add(30 * time.Second); ; {
		c, err := ts.CheckJob(ctx, spillway.CheckJobInput{PID: r.Details.PID})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(c.Text, "\n100000\n") || strings.HasPrefix(c.Text, "stdout:\n100000\n") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("seq's last line not seen in 30 s; last look: %q", c.Text)
		}
		time.Sleep(50 * time.Millisecond)
	}
	k, err := ts.KillJob(ctx, spillway.KillJobInput{PID: r.Details.PID})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(k.Text, "stdout:\n[") || strings.Contains(k.Text, "all new output shown") {
		t.Errorf("kill_pid text %q", k.Text)
	}
}

// find cut by bytes says how many of how many results it shows; ls gives
// the total and names its spill file.
func TestNoticeFindAndLsNumbers(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for i := range 1100 {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("entry-%04d-%s.txt", i, strings.Repeat("n", 50))), nil, 0o644)
	}
	ts := bashToolset(t, spillway.Options{})
	ctx := context.Background()
	f, err := ts.Find(ctx, spillway.FindInput{Pattern: "*.txt", Path: dir})
	if err != nil {
		t.Fatal(err)
	}
	shown := f.Details.Count
	want := fmt.Sprintf("KB limit reached: %d of 1000 results shown. Full output: ", shown)
	if shown >= 1000 || shown != strings.Count(f.Content, "\n")+1 || !strings.Contains(f.Text, want) || !strings.Contains(f.Text, "[1000 results limit reached: 1100 found. Use limit=1100 to list them all]") {
		t.Errorf("find: count %d, text %q", shown, f.Text[len(f.Text)-400:])
	}
	l, err := ts.Ls(ctx, spillway.LsInput{Path: dir})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(l.Text, "[500 entries limit reached: the directory holds 1100. Use limit=1100 to list them all]") {
		t.Errorf("ls limit: %q", l.Text[len(l.Text)-300:])
	}
	l, err = ts.Ls(ctx, spillway.LsInput{Path: dir, Limit: 1100})
	if err != nil {
		t.Fatal(err)
	}
	if l.Details.FullOutputPath == "" || !strings.Contains(l.Text, fmt.Sprintf("KB limit reached: %d of 1100 entries shown. Full output: %s", l.Details.Count, l.Details.FullOutputPath)) {
		t.Errorf("ls bytes: %q", l.Text[len(l.Text)-300:])
	}
	if data, err := os.ReadFile(l.Details.FullOutputPath); err != nil || strings.Count(string(data), "\n") != 1100 {
		t.Errorf("ls spill file: %v, %d lines", err, strings.Count(string(data), "\n"))
	}
}

// read shows a log as bash would: escape sequences stripped, and a stray
// NUL does not make it binary.
func TestReadSanitizesLikeBash(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "ansi.log"), []byte("\x1b[31mred\x1b[0m\r\nok \x00there\nbar 10%\rbar 100%\n"), 0o644)
	ts := bashToolset(t, spillway.Options{Cwd: dir})
	r, err := ts.Read(context.Background(), spillway.ReadInput{Path: "ansi.log"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := ts.Bash(context.Background(), spillway.BashInput{Command: "cat ansi.log"})
	if err != nil {
		t.Fatal(err)
	}
	if r.Content != "red\r\nok there\nbar 100%\n" || strings.ReplaceAll(r.Content, "\r\n", "\n") != b.Content {
		t.Errorf("read %q, bash %q", r.Content, b.Content)
	}
}

// A line too long to show leads on inside itself, never to bash: the
// old hint (sed -n '1p' FILE | head -c N) cut the line again in bash and
// led back to a read of the same view. Under every profile but pi, whose
// read never shows part of a line: its notice names the bash command
// (docs/profiles.md, TestPiReadFirstLineOverLimit).
func TestNoticeLongLineLeadsOn(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "big.min.json")
	os.WriteFile(path, []byte("["+strings.Repeat(`{"id":1,"name":"item"},`, 3<<20/23)+"{}]"), 0o644)
	for _, profile := range policy.ProfileNames() {
		p := mustPolicy(t, profile)
		ts := followToolset(t, p)
		r, err := ts.Read(context.Background(), spillway.ReadInput{Path: path})
		if err != nil {
			t.Fatal(err)
		}
		if profile == "pi" {
			if r.Content != "" || !strings.HasPrefix(r.Text, "[Line 1 is 3.0MB, exceeds 30.0KB limit. Use bash to read: head -c 30720 ") {
				t.Errorf("pi: the notice of a 3 MB line: %.200q", r.Text)
			}
			continue
		}
		shown := len([]rune(r.Content))
		want := fmt.Sprintf("char_offset=%d", shown)
		if strings.Contains(r.Text, "sed ") || strings.Contains(r.Text, "head -c") || !strings.Contains(r.Text, want) {
			t.Errorf("%s: the notice of a 3 MB line: %q, want %s", profile, r.Text[max(0, len(r.Text)-200):], want)
		}
		if len(r.Details.Next) != 1 || r.Details.Next[0]["char_offset"] != int64(shown) {
			t.Errorf("%s: next %v", profile, r.Details.Next)
		}
		// The bash way round: the line through bash is cut and spilled;
		// the spill file's read leads on inside the line too.
		b, err := ts.Bash(context.Background(), spillway.BashInput{Command: "cat " + path})
		if err != nil {
			t.Fatal(err)
		}
		next := b.Details.Stdout.Next
		if len(next) != 1 || next[0]["char_offset"] == nil && next[0]["offset"] == nil {
			t.Errorf("%s: bash's next %v, text %q", profile, next, b.Text[max(0, len(b.Text)-300):])
		}
	}
}

// waitFor polls cond until it holds, for at most 30 s.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); !cond(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the condition did not hold within 30 s")
		}
	}
}
