package spillway

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spillway-dev/spillway/internal/files"
	"github.com/spillway-dev/spillway/output"
)

// The read tool on a file engine of its own limits: the pages and the
// text, notices and details the root renders of them.

// newFileTools returns a file engine rooted in a new temporary directory.
func newFileTools(t *testing.T, cfg files.Config) (*files.Tools, string) {
	t.Helper()
	dir := t.TempDir()
	cfg.Cwd = dir
	return files.New(cfg), dir
}

func writeTestFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// numberedLines returns lines "line 1\n" … "line n\n".
func numberedLines(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return b.String()
}

// linesOf returns lines from..to (1-based, inclusive) of s.
func linesOf(s string, from, to int) string {
	lines := strings.SplitAfter(s, "\n")
	return strings.Join(lines[from-1:to], "")
}

func readPage(t *testing.T, tl *files.Tools, in ReadInput) Result[ReadDetails] {
	t.Helper()
	res, err := readFile(context.Background(), tl, in)
	if err != nil {
		t.Fatalf("read %+v: %v", in, err)
	}
	return res
}

func wantTruncation(t *testing.T, got output.Truncation, truncated bool, by string, outLines int64) {
	t.Helper()
	if got.Truncated != truncated || got.TruncatedBy != by || got.OutputLines != outLines {
		t.Fatalf("truncation %+v: want truncated=%v by=%q output_lines=%d", got, truncated, by, outLines)
	}
}

// trimText shortens a long text for a failure message.
func trimText(s string) string {
	if len(s) > 300 {
		return s[:150] + " … " + s[len(s)-150:]
	}
	return s
}

// The zdx design: a 3000-line file shows 2000 lines, total 3000, truncated.
func TestRead3000LineFile(t *testing.T) {
	tl, dir := newFileTools(t, files.Config{})
	data := numberedLines(3000)
	writeTestFile(t, dir, "big.txt", data)
	res := readPage(t, tl, ReadInput{Path: "big.txt"})
	d := res.Details
	if d.LinesShown != 2000 || d.TotalLines != 3000 || d.Offset != 1 || d.Kind != kindText {
		t.Fatalf("details %+v", d)
	}
	wantTruncation(t, d.Truncation, true, output.ByLines, 2000)
	if res.Content != linesOf(data, 1, 2000) {
		t.Fatalf("content is not lines 1-2000")
	}
	want := linesOf(data, 1, 2000) + "\n[Showing lines 1-2000 of 3000. Use offset=2001 to continue]"
	if res.Text != want {
		t.Fatalf("text ends %q", res.Text[len(res.Text)-100:])
	}
	if d.Path != filepath.Join(dir, "big.txt") || !strings.HasPrefix(d.MimeType, "text/plain") {
		t.Fatalf("path %q mime %q", d.Path, d.MimeType)
	}
	if d.Truncation.TotalBytes != int64(len(data)) || d.Truncation.OutputBytes != int64(len(res.Content)) {
		t.Fatalf("bytes %+v", d.Truncation)
	}
}

// The zdx design: a 1000-char line. The default policy cuts at 2000 chars, so it is shown
// whole; under a 500-char policy (zdx) it is cut, and either way
// truncated stays false.
func TestReadLongLine(t *testing.T) {
	long := strings.Repeat("x", 1000)
	data := "short\n" + long + "\nend\n"

	tl, dir := newFileTools(t, files.Config{})
	writeTestFile(t, dir, "f.txt", data)
	res := readPage(t, tl, ReadInput{Path: "f.txt"})
	if res.Text != data || res.Details.LinesCut != 0 {
		t.Fatalf("default policy: text %q lines_cut %d", res.Text, res.Details.LinesCut)
	}
	wantTruncation(t, res.Details.Truncation, false, "", 3)

	tl, dir = newFileTools(t, files.Config{Read: ReadPolicy{MaxLines: 2000, MaxBytes: 50 << 10, MaxLineChars: 500}})
	writeTestFile(t, dir, "f.txt", data)
	res = readPage(t, tl, ReadInput{Path: "f.txt"})
	want := "short\n" + strings.Repeat("x", 500) + "... [500 chars cut]\nend\n\n" +
		"[Line 2 cut at 500 chars (line is 1000B). To see the rest of it: read with offset=2 char_offset=500]"
	if res.Text != want {
		t.Fatalf("500-char policy:\n got %q\nwant %q", res.Text, want)
	}
	if res.Content != "short\n"+strings.Repeat("x", 500)+"\nend\n" {
		t.Fatalf("content %q", res.Content)
	}
	if res.Details.LinesCut != 1 || res.Details.Truncation.LinesCut != 1 || res.Details.LinesShown != 3 {
		t.Fatalf("details %+v", res.Details)
	}
	wantTruncation(t, res.Details.Truncation, false, "", 3)
}

// A line of 3 MiB is cut at 2000 chars and the notice says how to see it.
func TestReadLineCutNotice(t *testing.T) {
	tl, dir := newFileTools(t, files.Config{})
	huge := strings.Repeat("é", 3<<20/2) // 3 MiB, 1.5 M chars
	data := numberedLines(6) + huge + "\n" + "line 8\n"
	writeTestFile(t, dir, "f.txt", data)
	res := readPage(t, tl, ReadInput{Path: "f.txt"})
	want := numberedLines(6) + strings.Repeat("é", 2000) + fmt.Sprintf("... [%d chars cut]\n", 3<<20/2-2000) + "line 8\n\n" +
		"[Line 7 cut at 2000 chars (line is 3.0MB). To see the rest of it: read with offset=7 char_offset=2000]"
	if res.Text != want {
		t.Fatalf("text\n got %q\nwant %q", trimText(res.Text), trimText(want))
	}
	wantTruncation(t, res.Details.Truncation, false, "", 8)

	// Several cut lines: their count and the first one.
	data = "a\n" + strings.Repeat("b", 2500) + "\n" + strings.Repeat("c", 3000) + "\r\n" + strings.Repeat("d", 2001)
	writeTestFile(t, dir, "g.txt", data)
	res = readPage(t, tl, ReadInput{Path: "g.txt", LineNumbers: true})
	want = "     1\ta\n" +
		"     2\t" + strings.Repeat("b", 2000) + "... [500 chars cut]\n" +
		"     3\t" + strings.Repeat("c", 2000) + "... [1000 chars cut]\r\n" +
		"     4\t" + strings.Repeat("d", 2000) + "... [1 chars cut]\n\n" +
		"[3 lines cut at 2000 chars, the first is line 2 (2.4KB). To see the rest of it: read with offset=2 char_offset=2000, and on from there]"
	if res.Text != want {
		t.Fatalf("several cut:\n got %q\nwant %q", trimText(res.Text), trimText(want))
	}
	if res.Details.LinesCut != 3 || res.Details.Truncation.Truncated {
		t.Fatalf("details %+v", res.Details)
	}
}

// The zdx design: offset/limit combinations are exact.
func TestReadOffsetLimit(t *testing.T) {
	tl, dir := newFileTools(t, files.Config{})
	data := numberedLines(3000)
	writeTestFile(t, dir, "f.txt", data)
	cases := []struct {
		offset, limit  int
		first, last    int
		notice         string
		truncated      bool
		truncatedBy    string
		wantLinesShown int64
	}{
		{1000, 500, 1000, 1499, "[Showing lines 1000-1499 of 3000. Use offset=1500 to continue]", true, "lines", 500},
		{1, 10, 1, 10, "[Showing lines 1-10 of 3000. Use offset=11 to continue]", true, "lines", 10},
		{2001, 0, 2001, 3000, "", false, "", 1000},
		{2500, 5000, 2500, 3000, "", false, "", 501},
		{3000, 1, 3000, 3000, "", false, "", 1},
		{2999, 5, 2999, 3000, "", false, "", 2},
		{1001, 2000, 1001, 3000, "", false, "", 2000},
		{0, 1, 1, 1, "[Showing lines 1-1 of 3000. Use offset=2 to continue]", true, "lines", 1},
	}
	for _, c := range cases {
		res := readPage(t, tl, ReadInput{Path: "f.txt", Offset: c.offset, Limit: c.limit})
		content := linesOf(data, c.first, c.last)
		want := content
		if c.notice != "" {
			want += "\n" + c.notice
		}
		if res.Content != content || res.Text != want {
			t.Fatalf("offset %d limit %d: text ends %q", c.offset, c.limit, trimText(res.Text))
		}
		if res.Details.LinesShown != c.wantLinesShown || res.Details.TotalLines != 3000 || res.Details.Offset != int64(c.first) {
			t.Fatalf("offset %d limit %d: details %+v", c.offset, c.limit, res.Details)
		}
		wantTruncation(t, res.Details.Truncation, c.truncated, c.truncatedBy, c.wantLinesShown)
	}
}

// The zdx design: an offset past the end is empty content and a notice, not an
// error.
func TestReadOffsetPastEnd(t *testing.T) {
	tl, dir := newFileTools(t, files.Config{})
	writeTestFile(t, dir, "f.txt", numberedLines(3000))
	for _, offset := range []int{3001, 10_000_000} {
		for range 2 { // the second time through the index
			res := readPage(t, tl, ReadInput{Path: "f.txt", Offset: offset})
			want := fmt.Sprintf("[Offset %d is past the end of the file (3000 lines)]", offset)
			if res.Text != want || res.Content != "" || res.Details.LinesShown != 0 || res.Details.TotalLines != 3000 {
				t.Fatalf("offset %d: %q %+v", offset, res.Text, res.Details)
			}
			wantTruncation(t, res.Details.Truncation, false, "", 0)
		}
	}
	writeTestFile(t, dir, "one.txt", "only\n")
	res := readPage(t, tl, ReadInput{Path: "one.txt", Offset: 2})
	if res.Text != "[Offset 2 is past the end of the file (1 line)]" {
		t.Fatalf("%q", res.Text)
	}
}

// The zdx design: an empty file.
func TestReadEmptyFile(t *testing.T) {
	tl, dir := newFileTools(t, files.Config{})
	writeTestFile(t, dir, "empty.txt", "")
	res := readPage(t, tl, ReadInput{Path: "empty.txt"})
	if res.Text != emptyFileText || res.Content != "" || res.Details.TotalLines != 0 || res.Details.LinesShown != 0 {
		t.Fatalf("%q %+v", res.Text, res.Details)
	}
	wantTruncation(t, res.Details.Truncation, false, "", 0)
	res = readPage(t, tl, ReadInput{Path: "empty.txt", Offset: 2})
	if res.Text != "[Offset 2 is past the end of the file (0 lines)]" {
		t.Fatalf("%q", res.Text)
	}
}

// The zdx design: a huge single line (10 MiB, no newline) is cut, counted and
// said; with no per-line cut (a pi-like policy) the first-line notice
// replaces it.
func TestReadHugeSingleLine(t *testing.T) {
	tl, dir := newFileTools(t, files.Config{})
	writeTestFile(t, dir, "one.txt", strings.Repeat("a", 10<<20))
	res := readPage(t, tl, ReadInput{Path: "one.txt"})
	want := strings.Repeat("a", 2000) + fmt.Sprintf("... [%d chars cut]", 10<<20-2000) + "\n\n" +
		"[Line 1 cut at 2000 chars (line is 10.0MB). To see the rest of it: read with offset=1 char_offset=2000]"
	if res.Text != want {
		t.Fatalf("text\n got %q\nwant %q", trimText(res.Text), trimText(want))
	}
	if res.Details.TotalLines != 1 || res.Details.LinesCut != 1 {
		t.Fatalf("details %+v", res.Details)
	}
	wantTruncation(t, res.Details.Truncation, false, "", 1)

	tl, dir = newFileTools(t, files.Config{Read: ReadPolicy{MaxLines: 2000, MaxBytes: 50 << 10}})
	writeTestFile(t, dir, "one.txt", strings.Repeat("a", 10<<20))
	res = readPage(t, tl, ReadInput{Path: "one.txt"})
	want = strings.Repeat("a", 51200) + "\n\n[Line 1, characters 1-51200 of a 10.0MB line. Use char_offset=51200 to continue]"
	if res.Text != want || res.Content != strings.Repeat("a", 51200) {
		t.Fatalf("no cut: %q", trimText(res.Text))
	}
	wantTruncation(t, res.Details.Truncation, true, output.ByBytes, 1)
}

// The zdx design: CRLF is kept as it is, also on a cut line.
func TestReadCRLFKept(t *testing.T) {
	tl, dir := newFileTools(t, files.Config{})
	exact := strings.Repeat("z", 2000) // 2000 chars and a CRLF: not cut
	data := "one\r\ntwo\r\n" + exact + "\r\n" + strings.Repeat("y", 2001) + "\r\nlast\r\n"
	writeTestFile(t, dir, "crlf.txt", data)
	res := readPage(t, tl, ReadInput{Path: "crlf.txt"})
	wantContent := "one\r\ntwo\r\n" + exact + "\r\n" + strings.Repeat("y", 2000) + "\r\nlast\r\n"
	if res.Content != wantContent {
		t.Fatalf("content %q", trimText(res.Content))
	}
	if !strings.HasPrefix(res.Text, "one\r\ntwo\r\n"+exact+"\r\n"+strings.Repeat("y", 2000)+"... [1 chars cut]\r\nlast\r\n\n[Line 4 cut") {
		t.Fatalf("text %q", trimText(res.Text))
	}
	if res.Details.TotalLines != 5 || res.Details.LinesCut != 1 {
		t.Fatalf("details %+v", res.Details)
	}
}

// The zdx design: invalid UTF-8 becomes U+FFFD, one per bad byte.
func TestReadInvalidUTF8(t *testing.T) {
	tl, dir := newFileTools(t, files.Config{})
	writeTestFile(t, dir, "bad.txt", "ab\xffcd\n\xe2\x82\nok \xe2\x82\xac\n\xc3")
	res := readPage(t, tl, ReadInput{Path: "bad.txt"})
	want := "ab\uFFFDcd\n\uFFFD\uFFFD\nok €\n\uFFFD"
	if res.Text != want || res.Content != want {
		t.Fatalf("got %q want %q", res.Text, want)
	}
	if res.Details.TotalLines != 4 {
		t.Fatalf("total %d", res.Details.TotalLines)
	}
}

func TestReadLineNumbers(t *testing.T) {
	tl, dir := newFileTools(t, files.Config{})
	writeTestFile(t, dir, "f.txt", numberedLines(12))
	res := readPage(t, tl, ReadInput{Path: "f.txt", Offset: 9, Limit: 2, LineNumbers: true})
	want := "     9\tline 9\n    10\tline 10\n\n[Showing lines 9-10 of 12. Use offset=11 to continue]"
	if res.Text != want || res.Content != "line 9\nline 10\n" {
		t.Fatalf("got %q content %q", res.Text, res.Content)
	}
}

// A policy that numbers lines (the claude-code profile) numbers them
// without the call asking.
func TestReadPolicyLineNumbers(t *testing.T) {
	tl, dir := newFileTools(t, files.Config{Read: ReadPolicy{MaxLines: 2000, MaxBytes: 50 << 10, MaxLineChars: 2000, LineNumbers: true}})
	writeTestFile(t, dir, "f.txt", numberedLines(2))
	res := readPage(t, tl, ReadInput{Path: "f.txt"})
	if want := "     1\tline 1\n     2\tline 2\n"; res.Text != want {
		t.Fatalf("got %q, want %q", res.Text, want)
	}
}

// The read table of the pi design, under the default limits (50 KiB, 2000
// lines, lines cut at 2000 chars) and notice texts. Where the pi design's
// first-line case differs (it has no per-line cut), a pi-like policy
// shows its behaviour.
func TestReadPiTable(t *testing.T) {
	tl, dir := newFileTools(t, files.Config{})
	short := numberedLines(5000) // ~10 bytes a line: the line limit hits first
	writeTestFile(t, dir, "short.txt", short)
	var wide strings.Builder // 100 bytes a line: the byte limit hits first
	for i := 1; i <= 5000; i++ {
		fmt.Fprintf(&wide, "%-100d\n", i)
	}
	writeTestFile(t, dir, "wide.txt", wide.String())

	// Hit the line limit.
	res := readPage(t, tl, ReadInput{Path: "short.txt"})
	if !strings.HasSuffix(res.Text, "line 2000\n\n[Showing lines 1-2000 of 5000. Use offset=2001 to continue]") {
		t.Fatalf("line limit: %q", trimText(res.Text))
	}
	wantTruncation(t, res.Details.Truncation, true, output.ByLines, 2000)

	// Hit the byte limit: 506 lines of 101 bytes fit 51200.
	res = readPage(t, tl, ReadInput{Path: "wide.txt"})
	if res.Content != linesOf(wide.String(), 1, 506) || !strings.HasSuffix(res.Text, "\n\n[Showing lines 1-506 of 5000 (50.0KB limit). Use offset=507 to continue]") {
		t.Fatalf("byte limit: %q", trimText(res.Text))
	}
	wantTruncation(t, res.Details.Truncation, true, output.ByBytes, 506)
	if res.Details.Truncation.OutputBytes > 50<<10 {
		t.Fatalf("output bytes %d", res.Details.Truncation.OutputBytes)
	}

	// With offset, hit the line limit.
	res = readPage(t, tl, ReadInput{Path: "short.txt", Offset: 1000})
	if res.Content != linesOf(short, 1000, 2999) || !strings.HasSuffix(res.Text, "\n[Showing lines 1000-2999 of 5000. Use offset=3000 to continue]") {
		t.Fatalf("offset, line limit: %q", trimText(res.Text))
	}
	wantTruncation(t, res.Details.Truncation, true, output.ByLines, 2000)

	// With offset, hit the byte limit.
	res = readPage(t, tl, ReadInput{Path: "wide.txt", Offset: 1000})
	if res.Content != linesOf(wide.String(), 1000, 1505) || !strings.HasSuffix(res.Text, "\n[Showing lines 1000-1505 of 5000 (50.0KB limit). Use offset=1506 to continue]") {
		t.Fatalf("offset, byte limit: %q", trimText(res.Text))
	}
	wantTruncation(t, res.Details.Truncation, true, output.ByBytes, 506)

	// First line (and the line at an offset) over the byte limit: under
	// the defaults it is cut at 2000 chars and shown.
	big := strings.Repeat("q", 60<<10)
	writeTestFile(t, dir, "first.txt", big+"\nnext\n")
	res = readPage(t, tl, ReadInput{Path: "first.txt"})
	if !strings.HasPrefix(res.Text, strings.Repeat("q", 2000)+"... [59440 chars cut]\nnext\n\n[Line 1 cut at 2000 chars (line is 60.0KB)") {
		t.Fatalf("first line, default: %q", trimText(res.Text))
	}
	// With no per-line cut (pi: 30 KB, 2000 lines), the pi design's notice.
	pi, pdir := newFileTools(t, files.Config{Read: ReadPolicy{MaxLines: 2000, MaxBytes: 30 << 10}})
	writeTestFile(t, pdir, "first.txt", strings.Repeat("q", 50<<10)+"\nnext\n")
	res = readPage(t, pi, ReadInput{Path: "first.txt"})
	// Too long for the page, it is paged through by characters.
	if want := strings.Repeat("q", 30720) + "\n\n[Line 1, characters 1-30720 of a 50.0KB line. Use char_offset=30720 to continue]"; res.Text != want {
		t.Fatalf("first line, pi:\n got %q\nwant %q", trimText(res.Text), want)
	}
	wantTruncation(t, res.Details.Truncation, true, output.ByBytes, 1)
	var lines strings.Builder
	lines.WriteString(numberedLines(999))
	lines.WriteString(strings.Repeat("w", 50<<10) + "\n")
	lines.WriteString(numberedLines(10))
	writeTestFile(t, pdir, "offset.txt", lines.String())
	res = readPage(t, pi, ReadInput{Path: "offset.txt", Offset: 1000})
	if want := "\n\n[Line 1000, characters 1-30720 of a 50.0KB line. Use char_offset=30720 to continue]"; !strings.HasSuffix(res.Text, want) {
		t.Fatalf("offset line, pi:\n got %q\nwant %q", trimText(res.Text), want)
	}
	// A line that does not fit after others ends the page before it.
	res = readPage(t, pi, ReadInput{Path: "offset.txt", Offset: 990})
	if res.Content != linesOf(lines.String(), 990, 999) || !strings.HasSuffix(res.Text, "[Showing lines 990-999 of 1010 (30.0KB limit). Use offset=1000 to continue]") {
		t.Fatalf("line after others, pi: %q", trimText(res.Text))
	}
}

func TestReadBadInput(t *testing.T) {
	tl, dir := newFileTools(t, files.Config{})
	cases := []struct {
		in   ReadInput
		want string
	}{
		{ReadInput{Path: "missing.txt"}, "file not found: " + filepath.Join(dir, "missing.txt") + ". Use find or ls"},
		{ReadInput{Path: "."}, "is a directory, not a file. Use ls to list it"},
		{ReadInput{Path: "/dev/zero"}, "/dev/zero is a character device"},
		{ReadInput{Path: "/dev/null"}, "/dev/null is a character device"},
	}
	for _, c := range cases {
		_, err := readFile(context.Background(), tl, c.in)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want an error with %q", c.in, err, c.want)
		}
	}
}

func TestReadPermissionDenied(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads any file")
	}
	tl, dir := newFileTools(t, files.Config{})
	p := writeTestFile(t, dir, "secret.txt", "x\n")
	os.Chmod(p, 0)
	_, err := readFile(context.Background(), tl, ReadInput{Path: "secret.txt"})
	if err == nil || !strings.Contains(err.Error(), "permission denied") {
		t.Fatalf("%q", err)
	}
}

func TestReadRelativeAndHome(t *testing.T) {
	tl, dir := newFileTools(t, files.Config{})
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	writeTestFile(t, dir, "sub/f.txt", "hi\n")
	for _, p := range []string{"sub/f.txt", "./sub/../sub/f.txt", filepath.Join(dir, "sub/f.txt")} {
		if res := readPage(t, tl, ReadInput{Path: p}); res.Text != "hi\n" || res.Details.Path != filepath.Join(dir, "sub/f.txt") {
			t.Fatalf("%s: %q %q", p, res.Text, res.Details.Path)
		}
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	writeTestFile(t, home, "h.txt", "home\n")
	if res := readPage(t, tl, ReadInput{Path: "~/h.txt"}); res.Text != "home\n" {
		t.Fatalf("~: %q", res.Text)
	}
}

func TestReadCancelled(t *testing.T) {
	tl, dir := newFileTools(t, files.Config{})
	writeTestFile(t, dir, "f.txt", numberedLines(100))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := readFile(ctx, tl, ReadInput{Path: "f.txt"})
	if err == nil || !strings.Contains(err.Error(), "cancelled") {
		t.Fatalf("%q", err)
	}
}

// The next call names the file by its absolute path, spaces and all.
func TestReadNextNamesPath(t *testing.T) {
	tl, dir := newFileTools(t, files.Config{})
	writeTestFile(t, dir, "my file.txt", strings.Repeat("x", 3000)+"\n")
	res := readPage(t, tl, ReadInput{Path: "my file.txt"})
	next := res.Details.Next
	if len(next) != 1 || next[0]["path"] != filepath.Join(dir, "my file.txt") || next[0]["char_offset"] != int64(2000) {
		t.Fatalf("next %v", next)
	}
}
