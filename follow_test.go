package spillway_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/spillway-dev/spillway"
	"github.com/spillway-dev/spillway/output"
)

// The hint follower: a scripted agent that knows nothing of spillway but
// the next calls in the details (docs/notices.md). From any cut result it
// rebuilds the whole output, byte for byte, by following them, and fails
// on a call made twice or on more calls than the output can need.

// follower makes the calls that the hints name.
type follower struct {
	t     testing.TB
	ts    *spillway.Toolset
	calls map[string]bool
	max   int
}

func newFollower(t testing.TB, ts *spillway.Toolset, max int) *follower {
	return &follower{t: t, ts: ts, calls: map[string]bool{}, max: max}
}

// record fails on a call made before or on too many calls.
func (f *follower) record(c output.Call) {
	f.t.Helper()
	key, _ := json.Marshal(c)
	if f.calls[string(key)] {
		f.t.Fatalf("call %s made twice: the hints loop", key)
	}
	f.calls[string(key)] = true
	if len(f.calls) > f.max {
		f.t.Fatalf("more than %d calls to follow the hints", f.max)
	}
}

func num(c output.Call, k string) int64 {
	switch v := c[k].(type) {
	case int64:
		return v
	case int:
		return int64(v)
	}
	return 0
}

func str(c output.Call, k string) string { s, _ := c[k].(string); return s }

// read makes a read call.
func (f *follower) read(c output.Call) spillway.Result[spillway.ReadDetails] {
	f.t.Helper()
	f.record(c)
	if c.Tool() != "read" {
		f.t.Fatalf("a read was expected, got %v", c)
	}
	res, err := f.ts.Read(context.Background(), spillway.ReadInput{
		Path: str(c, "path"), Offset: int(num(c, "offset")), Limit: int(num(c, "limit")), CharOffset: int(num(c, "char_offset")),
	})
	if err != nil {
		f.t.Fatalf("%v: %v", c, err)
	}
	return res
}

// upTo returns the part of content, whose first line is line first, that
// lies before the position of next: a line, and a character in it.
func upTo(content string, first int64, next output.Call) string {
	line, char := num(next, "offset"), num(next, "char_offset")
	i, n := 0, first
	for n < line && i < len(content) {
		k := strings.IndexByte(content[i:], '\n')
		if k < 0 {
			i = len(content)
			break
		}
		i += k + 1
		n++
	}
	for ; char > 0 && i < len(content); char-- {
		_, size := utf8.DecodeRuneInString(content[i:])
		i += size
	}
	return content[:i]
}

// chain follows a read and the reads its results name, to the end: what
// each shows up to where the next one starts, put together. Reading one
// line only (stopAfter > 0), it stops once the next read leaves it.
func (f *follower) chain(c output.Call, stopAfter int64) string {
	f.t.Helper()
	var b strings.Builder
	for c != nil {
		res := f.read(c)
		d := res.Details
		var next output.Call
		if len(d.Next) > 0 {
			next = d.Next[0]
		}
		if stopAfter > 0 && next != nil && num(next, "offset") > stopAfter {
			next = nil
		}
		switch {
		case d.CharOffset > 0 || (next != nil && num(next, "offset") == d.Offset && num(next, "char_offset") > 0 && d.LinesShown == 1 && res.Content != "" && !strings.Contains(res.Content, "\n")):
			// Part of one line: all of it.
			b.WriteString(res.Content)
		case next != nil:
			b.WriteString(upTo(res.Content, d.Offset, next))
		default:
			b.WriteString(res.Content)
		}
		c = next
	}
	return b.String()
}

// stream rebuilds one stream of a bash result: its content up to the
// first hint's position, then the chain of reads.
func (f *follower) stream(content string, next []output.Call) string {
	f.t.Helper()
	if len(next) == 0 {
		return content
	}
	return upTo(content, 1, next[0]) + f.chain(next[0], 0)
}

// listing rebuilds a find or ls result: a call of the same tool is a
// bigger result that holds this one, followed in its turn; a read goes on
// from the content shown.
func (f *follower) listing(content string, next []output.Call, again func(output.Call) (string, []output.Call)) string {
	f.t.Helper()
	for _, c := range next {
		if c.Tool() != "read" {
			f.record(c)
			more, moreNext := again(c)
			return f.listing(more, moreNext, again)
		}
	}
	if len(next) == 0 {
		return content
	}
	return upTo(content, 1, next[0]) + f.chain(next[0], 0)
}

func followToolset(t testing.TB, pol spillway.Policy) *spillway.Toolset {
	t.Helper()
	pol.Spill.Dir = t.TempDir()
	return bashToolset(t, spillway.Options{Policy: &pol})
}

// randomOutput makes text of n lines: short ones, long ones (a few past
// any per-line cut), multi-byte characters, blank lines.
func randomOutput(r *rand.Rand, n int) string {
	var b strings.Builder
	words := []string{"ok", "error:", "héllo", "日本語", "😀", "x=1", "\t", "-", "FAIL", "中"}
	for i := range n {
		switch r.IntN(20) {
		case 0:
			b.WriteString(strings.Repeat(words[r.IntN(len(words))], 200+r.IntN(3000)))
		case 1:
		default:
			fmt.Fprintf(&b, "line %d", i+1)
			for range r.IntN(12) {
				b.WriteString(" " + words[r.IntN(len(words))])
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// followBash runs a command printing out to stdout and errOut to stderr
// and checks that the hints rebuild both.
func followBash(t testing.TB, pol spillway.Policy, out, errOut string) {
	t.Helper()
	ts := followToolset(t, pol)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "out"), []byte(out), 0o644)
	os.WriteFile(filepath.Join(dir, "err"), []byte(errOut), 0o644)
	res, err := ts.Bash(context.Background(), spillway.BashInput{Command: "cat out; cat err >&2", Cwd: dir})
	if err != nil {
		t.Fatal(err)
	}
	f := newFollower(t, ts, 4*(len(out)+len(errOut))/1000+4*(strings.Count(out+errOut, "\n"))+20)
	want, wantErr := out, errOut
	if pol.Bash.MergeStreams {
		// Merged in order of arrival: cat out has finished first.
		want, wantErr = out+errOut, ""
	}
	if got := f.stream(res.Content, res.Details.Stdout.Next); got != want {
		t.Fatalf("stdout rebuilt from the hints (%d bytes) differs from the output (%d bytes) at %d\n%s", len(got), len(want), diffAt(got, want), res.Text[max(0, len(res.Text)-400):])
	}
	if got := f.stream(res.Details.Stderr.Shown, res.Details.Stderr.Next); got != wantErr {
		t.Fatalf("stderr rebuilt from the hints (%d bytes) differs from the output (%d bytes) at %d", len(got), len(wantErr), diffAt(got, wantErr))
	}
}

func diffAt(a, b string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

func mustPolicy(t testing.TB, profile string) spillway.Policy {
	t.Helper()
	p, err := spillway.Profile(profile)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestFollowBash: head_tail (default), head (zdx), tail (pipe) and merged
// tail (pi), with long lines, on both streams.
func TestFollowBash(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	for _, profile := range []string{"default", "zdx", "pipe", "pi", "claude-code", "macos-shell", "opencode"} {
		t.Run(profile, func(t *testing.T) {
			followBash(t, mustPolicy(t, profile), randomOutput(r, 6000), randomOutput(r, 300))
		})
	}
	t.Run("one long line", func(t *testing.T) {
		followBash(t, mustPolicy(t, "default"), strings.Repeat("abcdé", 100_000)+"\n", "")
	})
	t.Run("long line in the omitted middle", func(t *testing.T) {
		// seq 1 2000; a 3000-char line; seq 1 2000
		var b strings.Builder
		for i := 1; i <= 2000; i++ {
			fmt.Fprintf(&b, "%d\n", i)
		}
		seq := b.String()
		followBash(t, mustPolicy(t, "default"), seq+strings.Repeat("x", 3000)+"\n"+seq, "")
	})
	t.Run("max_tokens", func(t *testing.T) {
		// The token limit binds before the byte limit, on both streams.
		p := mustPolicy(t, "default")
		p.Bash.Stdout.MaxTokens, p.Bash.Stderr.MaxTokens = 1500, 200
		followBash(t, p, randomOutput(r, 3000), randomOutput(r, 300))
	})
	t.Run("max_tokens inside one line", func(t *testing.T) {
		p := mustPolicy(t, "default")
		p.Bash.Stdout.MaxTokens = 300
		followBash(t, p, strings.Repeat("日本語 x=1 ", 20_000)+"\n", "")
	})
}

// TestFollowRead: a huge file, and one 3 MB line.
func TestFollowRead(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(3, 4))
	for name, data := range map[string]string{
		"huge.txt": randomOutput(r, 30_000),
		"min.json": "[" + strings.Repeat(`{"id":1,"name":"item"},`, 3<<20/23) + "{}]",
		"crlf.txt": strings.ReplaceAll(randomOutput(r, 500), "\n", "\r\n"),
		// The same files under a token limit that binds first.
		"tokens/huge.txt": randomOutput(r, 10_000),
		"tokens/min.json": "[" + strings.Repeat(`{"id":1,"name":"item"},`, 1<<20/23) + "{}]",
	} {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(data), 0o644)
		pol := mustPolicy(t, "default")
		if strings.HasPrefix(name, "tokens/") {
			pol.Read.MaxTokens = 2500
		}
		ts := followToolset(t, pol)
		f := newFollower(t, ts, len(data)/1000+strings.Count(data, "\n")*3+20)
		if got := f.chain(output.ReadCall(p, 1, 0, 0), 0); got != data {
			t.Errorf("%s: rebuilt %d bytes of %d, first difference at %d", name, len(got), len(data), diffAt(got, data))
		}
		t.Logf("%s: %d bytes in %d calls", name, len(data), len(f.calls))
	}
}

// TestFollowGrep: each cut line is reached whole through its hint; a
// result cut by bytes is rebuilt from its spill file.
func TestFollowGrep(t *testing.T) {
	t.Parallel()
	ts := followToolset(t, mustPolicy(t, "default"))
	dir := t.TempDir()
	long := strings.Repeat(`{"id":1,"name":"item"},`, 100_000) + `{"id":2,"name":"item24999"}` + strings.Repeat(`,{"id":3}`, 1000)
	os.WriteFile(filepath.Join(dir, "big.min.json"), []byte(long+"\nshort item24999\n"), 0o644)
	res, err := ts.Grep(context.Background(), spillway.GrepInput{Pattern: `item24999"`, Literal: true, Path: dir})
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(res.Content, "\n")
	if !strings.Contains(first, `item24999"`) || !strings.Contains(first, "[col 2300017]") {
		t.Errorf("the long line is not shown around its match: %.300q", first)
	}
	f := newFollower(t, ts, 200)
	reads := 0
	for _, c := range res.Details.Next {
		if c.Tool() != "read" || num(c, "limit") != 1 {
			continue
		}
		reads++
		line := strings.TrimSuffix(f.chain(c, num(c, "offset")), "\n")
		if line != long {
			t.Errorf("line %d rebuilt: %d bytes, want %d", num(c, "offset"), len(line), len(long))
		}
	}
	if reads != 1 {
		t.Errorf("%d reads of cut lines, want 1: %v", reads, res.Details.Next)
	}

	// Cut by bytes: thousands of matches past 50 KB.
	var b strings.Builder
	for i := range 5000 {
		fmt.Fprintf(&b, "match %d %s\n", i, strings.Repeat("z", i%50))
	}
	os.WriteFile(filepath.Join(dir, "many.txt"), []byte(b.String()), 0o644)
	in := spillway.GrepInput{Pattern: "match", Path: filepath.Join(dir, "many.txt"), Limit: 10000}
	res, err = ts.Grep(context.Background(), in)
	if err != nil || !res.Details.Truncation.Truncated || res.Details.FullOutputPath == "" {
		t.Fatalf("%v %+v", err, res.Details)
	}
	if !strings.Contains(res.Text, "(5000 matches found)") {
		t.Errorf("the byte cut does not count the matches: %q", res.Text[len(res.Text)-300:])
	}
	full := followToolset(t, bigLimits(mustPolicy(t, "default")))
	whole, err := full.Grep(context.Background(), in)
	if err != nil || whole.Details.Truncation.Truncated {
		t.Fatalf("the uncut grep: %v %+v", err, whole.Details.Truncation)
	}
	got := f.listing(res.Content+"\n", res.Details.Next, nil)
	if got != whole.Content+"\n" {
		t.Errorf("rebuilt %d bytes, want %d, first difference at %d", len(got), len(whole.Content)+1, diffAt(got, whole.Content+"\n"))
	}

	// Cut by tokens, before the byte limit.
	pol := mustPolicy(t, "default")
	pol.Grep.MaxTokens = 3000
	tts := followToolset(t, pol)
	res, err = tts.Grep(context.Background(), in)
	if err != nil || res.Details.Truncation.TruncatedBy != output.ByTokens || res.Details.FullOutputPath == "" {
		t.Fatalf("%v %+v", err, res.Details)
	}
	if !strings.Contains(res.Text, "[3000 tokens limit reached: ") || !strings.Contains(res.Text, "(5000 matches found)") {
		t.Errorf("the token cut's notice: %q", res.Text[len(res.Text)-300:])
	}
	f = newFollower(t, tts, 200)
	if got := f.listing(res.Content+"\n", res.Details.Next, nil); got != whole.Content+"\n" {
		t.Errorf("token cut: rebuilt %d bytes, want %d, first difference at %d", len(got), len(whole.Content)+1, diffAt(got, whole.Content+"\n"))
	}
}

// bigLimits raises the byte limits of the search and list tools to their
// ceiling.
func bigLimits(p spillway.Policy) spillway.Policy {
	p.Grep.MaxBytes, p.Find.MaxBytes, p.Ls.MaxBytes = streamCeiling, streamCeiling, streamCeiling
	p.ResultBudget = 0
	return p
}

// TestFollowFindLs: the result limit and the byte limit, alone and
// together.
func TestFollowFindLs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for i := range 1500 {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("file-%04d-%s.txt", i, strings.Repeat("n", 40))), nil, 0o644)
	}
	whole := followToolset(t, bigLimits(mustPolicy(t, "default")))
	all, err := whole.Find(context.Background(), spillway.FindInput{Pattern: "*.txt", Path: dir, Limit: 100000})
	if err != nil || all.Details.Truncation.Truncated {
		t.Fatalf("%v %+v", err, all.Details)
	}
	// The same with a token limit that binds before the byte limit.
	tokens := mustPolicy(t, "default")
	tokens.Find.MaxTokens, tokens.Ls.MaxTokens = 2000, 2000
	byTokens := 0
	for i, limit := range []int{0, 10, 700, 1000, 1499, 0, 1000} {
		pol := mustPolicy(t, "default")
		if i >= 5 {
			pol = tokens
		}
		ts := followToolset(t, pol)
		f := newFollower(t, ts, 100)
		res, err := ts.Find(context.Background(), spillway.FindInput{Pattern: "*.txt", Path: dir, Limit: limit})
		if err != nil {
			t.Fatal(err)
		}
		again := func(c output.Call) (string, []output.Call) {
			r, err := ts.Find(context.Background(), spillway.FindInput{Pattern: str(c, "pattern"), Path: str(c, "path"), Type: str(c, "type"), Limit: int(num(c, "limit"))})
			if err != nil {
				t.Fatal(err)
			}
			return r.Content + "\n", r.Details.Next
		}
		if got := f.listing(res.Content+"\n", res.Details.Next, again); got != all.Content+"\n" {
			t.Errorf("find limit %d: rebuilt %d bytes, want %d (calls %d)", limit, len(got), len(all.Content)+1, len(f.calls))
		}
		if res.Details.Truncation.TruncatedBy == output.ByTokens {
			byTokens++
			if !strings.Contains(res.Text, "[2000 tokens limit reached: ") {
				t.Errorf("find cut by tokens, but its notice does not say so: %s", res.Text[len(res.Text)-300:])
			}
		}
	}
	allLs, err := whole.Ls(context.Background(), spillway.LsInput{Path: dir, Limit: 100000})
	if err != nil || allLs.Details.Truncation.Truncated {
		t.Fatalf("%v %+v", err, allLs.Details)
	}
	wantLs := strings.Join(entries(allLs), "\n") + "\n"
	for i, limit := range []int{0, 7, 1000, 1500, 0, 1500} {
		pol := mustPolicy(t, "default")
		if i >= 4 {
			pol = tokens
		}
		ts := followToolset(t, pol)
		f := newFollower(t, ts, 100)
		res, err := ts.Ls(context.Background(), spillway.LsInput{Path: dir, Limit: limit})
		if err != nil {
			t.Fatal(err)
		}
		again := func(c output.Call) (string, []output.Call) {
			r, err := ts.Ls(context.Background(), spillway.LsInput{Path: str(c, "path"), Limit: int(num(c, "limit"))})
			if err != nil {
				t.Fatal(err)
			}
			return strings.Join(entries(r), "\n") + "\n", r.Details.Next
		}
		if got := f.listing(strings.Join(entries(res), "\n")+"\n", res.Details.Next, again); got != wantLs {
			t.Errorf("ls limit %d: rebuilt %d bytes, want %d", limit, len(got), len(wantLs))
		}
		if res.Details.Truncation.TruncatedBy == output.ByTokens {
			byTokens++
			if !strings.Contains(res.Text, "[2000 tokens limit reached: ") {
				t.Errorf("ls cut by tokens, but its notice does not say so: %s", res.Text[len(res.Text)-300:])
			}
		}
	}
	if byTokens != 4 {
		t.Errorf("%d of the 4 results under a token limit were cut by it", byTokens)
	}
}

// FuzzFollowBash: random outputs under random limits and strategies.
func FuzzFollowBash(f *testing.F) {
	f.Add(uint64(1), uint16(3000), uint16(200), uint32(20000), uint16(100), uint8(0))
	f.Add(uint64(7), uint16(50), uint16(3), uint32(500), uint16(0), uint8(1))
	f.Add(uint64(9), uint16(800), uint16(2000), uint32(4000), uint16(30), uint8(2))
	f.Fuzz(func(t *testing.T, key uint64, lines, maxLines uint16, maxBytes uint32, maxLineChars uint16, strategy uint8) {
		p := mustPolicy(t, "default")
		lim := output.Limits{
			Strategy:     []output.Strategy{output.Head, output.Tail, output.HeadTail}[strategy%3],
			HeadShare:    float64(key%11) / 10,
			MaxLines:     int(maxLines%5000) + 1,
			MaxBytes:     int(maxBytes%200_000) + 1,
			MaxLineChars: int(maxLineChars % 5000),
		}
		if key%3 == 0 {
			// A third of the runs add a token limit.
			lim.MaxTokens = int(maxBytes%20_000)/3 + 1
		}
		p.Bash.Stdout, p.Bash.Stderr = lim, lim
		r := rand.New(rand.NewPCG(key, key>>3))
		followBash(t, p, randomOutput(r, int(lines%8000)), randomOutput(r, int(lines%97)))
	})
}

// FuzzFollowRead: random files under random read limits, rebuilt from
// line 1 by following the hints.
func FuzzFollowRead(f *testing.F) {
	f.Add(uint64(1), uint16(3000), uint16(200), uint32(20000), uint16(100))
	f.Add(uint64(5), uint16(40), uint16(1), uint32(30), uint16(1))
	f.Add(uint64(8), uint16(900), uint16(2000), uint32(4000), uint16(3000))
	f.Fuzz(func(t *testing.T, key uint64, lines, maxLines uint16, maxBytes uint32, maxLineChars uint16) {
		p := mustPolicy(t, "default")
		p.Read.MaxLines = int(maxLines%5000) + 1
		// At least 4 bytes, so that one character always fits a page.
		p.Read.MaxBytes = int(maxBytes%200_000) + 4
		p.Read.MaxLineChars = int(maxLineChars%5000) + 1
		perCall := p.Read.MaxBytes // bytes a call shows at least, about
		if key%3 == 0 {
			// A third of the runs add a token limit; no text
			// estimates at more than two tokens a byte.
			p.Read.MaxTokens = int(maxBytes%20_000)/3 + 500
			perCall = min(perCall, p.Read.MaxTokens/2)
		}
		r := rand.New(rand.NewPCG(key, key>>3))
		data := randomOutput(r, int(lines%6000)+1)
		path := filepath.Join(t.TempDir(), "f.txt")
		os.WriteFile(path, []byte(data), 0o644)
		ts := followToolset(t, p)
		fl := newFollower(t, ts, 4*len(data)/perCall+4*strings.Count(data, "\n")+20)
		if got := fl.chain(output.ReadCall(path, 1, 0, 0), 0); got != data {
			t.Fatalf("rebuilt %d bytes of %d, first difference at %d", len(got), len(data), diffAt(got, data))
		}
	})
}

// FuzzFollowFindLs: random directories under random result and byte
// limits; find and ls each rebuilt from their hints.
func FuzzFollowFindLs(f *testing.F) {
	f.Add(uint64(1), uint16(300), uint16(50), uint32(2000))
	f.Add(uint64(2), uint16(3), uint16(1), uint32(10))
	f.Add(uint64(3), uint16(1200), uint16(1000), uint32(60000))
	f.Fuzz(func(t *testing.T, key uint64, files, limit uint16, maxBytes uint32) {
		n := int(files % 1500)
		dir := t.TempDir()
		r := rand.New(rand.NewPCG(key, key>>3))
		for i := range n {
			os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%04d%s.txt", i, strings.Repeat("é", r.IntN(40)))), nil, 0o644)
		}
		whole := followToolset(t, bigLimits(mustPolicy(t, "default")))
		p := mustPolicy(t, "default")
		p.Find.MaxBytes = int(maxBytes%100_000) + 1
		p.Ls.MaxBytes = p.Find.MaxBytes
		ts := followToolset(t, p)
		ctx := context.Background()

		all, err := whole.Find(ctx, spillway.FindInput{Pattern: "*.txt", Path: dir, Limit: 100000})
		if err != nil {
			t.Fatal(err)
		}
		res, err := ts.Find(ctx, spillway.FindInput{Pattern: "*.txt", Path: dir, Limit: int(limit%2000) + 1})
		if err != nil {
			t.Fatal(err)
		}
		fl := newFollower(t, ts, 40)
		again := func(c output.Call) (string, []output.Call) {
			r, err := ts.Find(ctx, spillway.FindInput{Pattern: str(c, "pattern"), Path: str(c, "path"), Type: str(c, "type"), Limit: int(num(c, "limit"))})
			if err != nil {
				t.Fatal(err)
			}
			return r.Content + "\n", r.Details.Next
		}
		if got, want := fl.listing(res.Content+"\n", res.Details.Next, again), all.Content+"\n"; got != want {
			t.Fatalf("find: rebuilt %d bytes, want %d, first difference at %d", len(got), len(want), diffAt(got, want))
		}

		allLs, err := whole.Ls(ctx, spillway.LsInput{Path: dir, Limit: 100000})
		if err != nil {
			t.Fatal(err)
		}
		ls, err := ts.Ls(ctx, spillway.LsInput{Path: dir, Limit: int(limit%2000) + 1})
		if err != nil {
			t.Fatal(err)
		}
		fl = newFollower(t, ts, 40)
		againLs := func(c output.Call) (string, []output.Call) {
			r, err := ts.Ls(ctx, spillway.LsInput{Path: str(c, "path"), Limit: int(num(c, "limit"))})
			if err != nil {
				t.Fatal(err)
			}
			return strings.Join(entries(r), "\n") + "\n", r.Details.Next
		}
		if got, want := fl.listing(strings.Join(entries(ls), "\n")+"\n", ls.Details.Next, againLs), strings.Join(entries(allLs), "\n")+"\n"; got != want {
			t.Fatalf("ls: rebuilt %d bytes, want %d, first difference at %d", len(got), len(want), diffAt(got, want))
		}
	})
}

// FuzzFollowGrep: random trees under random match and byte limits; the
// hints rebuild the result that no limit cuts.
func FuzzFollowGrep(f *testing.F) {
	f.Add(uint64(1), uint16(40), uint16(5), uint32(300))
	f.Add(uint64(2), uint16(3), uint16(1), uint32(10))
	f.Add(uint64(3), uint16(200), uint16(900), uint32(30000))
	f.Fuzz(func(t *testing.T, key uint64, files, limit uint16, maxBytes uint32) {
		dir := t.TempDir()
		r := rand.New(rand.NewPCG(key, key>>3))
		for i := range int(files%300) + 1 {
			var b strings.Builder
			for j := range r.IntN(40) {
				if r.IntN(3) == 0 {
					fmt.Fprintf(&b, "needle %d %s\n", j, strings.Repeat("é", r.IntN(300)))
				} else {
					fmt.Fprintf(&b, "hay %d\n", j)
				}
			}
			os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%03d.txt", i)), []byte(b.String()), 0o644)
		}
		ctx := context.Background()
		whole, err := followToolset(t, bigLimits(mustPolicy(t, "default"))).Grep(ctx, spillway.GrepInput{Pattern: "needle", Path: dir, Limit: 100000})
		if err != nil {
			t.Fatal(err)
		}
		if whole.Details.Truncation.Truncated {
			t.Skip("more than the ceiling matches: nothing to compare with")
		}
		p := mustPolicy(t, "default")
		p.Grep.MaxBytes = int(maxBytes%100_000) + 1
		ts := followToolset(t, p)
		in := spillway.GrepInput{Pattern: "needle", Path: dir, Limit: int(limit%2000) + 1}
		res, err := ts.Grep(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		fl := newFollower(t, ts, 40)
		again := func(c output.Call) (string, []output.Call) {
			in.Limit = int(num(c, "limit"))
			r, err := ts.Grep(ctx, in)
			if err != nil {
				t.Fatal(err)
			}
			return r.Content + "\n", readsOnly(r.Details.Next)
		}
		if got, want := fl.listing(res.Content+"\n", readsOnly(res.Details.Next), again), whole.Content+"\n"; whole.Content != "" && got != want {
			t.Fatalf("rebuilt %d bytes, want %d, first difference at %d", len(got), len(want), diffAt(got, want))
		}
	})
}

// readsOnly keeps a grep's reads of its spill file and its grep with a
// higher limit: the reads of single cut lines reach those lines whole,
// which TestFollowGrep follows, not the result as grep shows it.
func readsOnly(next []output.Call) []output.Call {
	var out []output.Call
	for _, c := range next {
		if c.Tool() != "read" || num(c, "limit") != 1 || str(c, "path") == "" || strings.Contains(str(c, "path"), "grep-") {
			out = append(out, c)
		}
	}
	return out
}

// entries are the names an ls result shows, in order.
func entries(r spillway.Result[spillway.LsDetails]) []string {
	if r.Content == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(r.Content, "\n"), "\n")
}

// streamCeiling is the 1 MiB a stream of a result is held to.
const streamCeiling = 1 << 20
