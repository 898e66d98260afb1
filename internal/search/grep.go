package search

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"unicode/utf8"

	"github.com/spillway-dev/spillway/output"
)

// GrepInput is spillway.GrepInput inside the implementation; the fields
// are documented there.
type GrepInput struct {
	Pattern    string `json:"pattern"`
	Path       string `json:"path,omitempty"`
	Glob       string `json:"glob,omitempty"`
	IgnoreCase bool   `json:"ignore_case,omitempty"`
	Literal    bool   `json:"literal,omitempty"`
	Context    int    `json:"context,omitempty"`
	OutputMode string `json:"output_mode,omitempty"`
	Limit      int    `json:"limit,omitempty"`
}

// GrepDetails is spillway.GrepDetails inside the implementation; the
// fields are documented there.
type GrepDetails struct {
	MatchCount        int               `json:"match_count"`
	FileCount         int               `json:"file_count"`
	MatchLimitReached bool              `json:"match_limit_reached"`
	LinesCut          int               `json:"lines_cut"`
	Truncation        output.Truncation `json:"truncation"`
	FullOutputPath    string            `json:"full_output_path,omitempty"`
	Skipped           []string          `json:"skipped,omitempty"`
	Next              []output.Call     `json:"next,omitempty"`
	Tokens            int               `json:"tokens"`
}

// GrepResult is spillway.GrepResult inside the implementation; the fields
// are documented there.
type GrepResult struct {
	Text    string      `json:"text"`
	Content string      `json:"-"`
	Details GrepDetails `json:"details"`
}

// Output modes of grep.
const (
	ModeContent = "content"
	ModeFiles   = "files_with_matches"
	ModeCount   = "count"
)

// MaxContext bounds the context parameter.
const MaxContext = 100

// NoMatches is the text of a grep that found nothing.
const NoMatches = "No matches found"

// MaxPatternBytes bounds a grep pattern: a longer one is refused at once,
// before any parsing, however it is written.
const MaxPatternBytes = 64 << 10

// Grep searches file contents (docs/tools.md).
func (s *Searcher) Grep(ctx context.Context, in GrepInput) (GrepResult, error) {
	fail := func(format string, args ...any) (GrepResult, error) {
		return GrepResult{}, fmt.Errorf("grep: "+format, args...)
	}
	if in.Pattern == "" {
		return fail("pattern is empty: give a regular expression, or a string with literal=true")
	}
	mode := in.OutputMode
	switch mode {
	case "":
		mode = ModeContent
	case ModeContent, ModeFiles, ModeCount:
	default:
		return fail("output_mode %q: use content, files_with_matches or count", in.OutputMode)
	}
	if in.Context < 0 || in.Context > MaxContext {
		return fail("context %d: use 0 to %d lines", in.Context, MaxContext)
	}
	if len(in.Pattern) > MaxPatternBytes {
		return fail("the pattern is %s, over the %s limit: search for a distinctive part of it", output.FormatSize(int64(len(in.Pattern))), output.FormatSize(MaxPatternBytes))
	}
	m, err := Compile(in.Pattern, MatchOptions{Literal: in.Literal, IgnoreCase: in.IgnoreCase})
	if err != nil {
		return fail("%v", err)
	}
	glob, err := parseGlob(in.Glob, true)
	if err != nil {
		return fail("%v", err)
	}
	root, err := s.resolve(in.Path) // --root
	if err != nil {
		return GrepResult{}, fmt.Errorf("grep: %w", err)
	}
	fi, err := statRoot("grep", shownArg(in.Path), root)
	if err != nil {
		return GrepResult{}, err
	}

	lim := s.cfg.Grep
	g := &grepRun{
		in:       in,
		cwd:      s.cfg.Cwd,
		mode:     mode,
		limit:    lim.ForCall(in.Limit).Limit,
		maxChars: lim.MaxLineChars,
		rep:      newReport("grep", lim.MaxBytes, lim.MaxTokens, s.cfg.Spill),
	}
	cfg := &scanConfig{m: m, lines: mode == ModeContent, keep: 4*lim.MaxLineChars + 256, root: s.cfg.Root}
	switch mode {
	case ModeContent:
		cfg.context = in.Context
		g.context = in.Context
		cfg.maxMatches = g.limit + 1 // one more tells whether the limit is reached
	case ModeFiles:
		cfg.maxMatches = 1
	}

	if fi.IsDir() {
		err = s.grepTree(ctx, root, glob, cfg, g)
	} else {
		err = s.grepFile(ctx, root, fi.Name(), glob, cfg, g)
	}
	var stopped *stoppedError
	switch {
	case errors.As(err, &stopped):
		return fail("stopped before it finished (%v) after %d matching lines", stopped.err, g.matches)
	case err != nil:
		return fail("cannot read %s: %v", shownArg(in.Path), unwrapPathError(err))
	}
	return g.result(), nil
}

// stoppedError is a search ended by its context.
type stoppedError struct{ err error }

func (e *stoppedError) Error() string { return e.err.Error() }

// grepTree searches the files below the directory root, several at a time,
// and hands their results to g in path order. The error is the walk's
// (*stoppedError) or the root's own read error.
func (s *Searcher) grepTree(ctx context.Context, root string, glob *globFilter, cfg *scanConfig, g *grepRun) error {
	base := displayBase(s.cfg.Cwd, root)
	free := make(chan *scanner, max(s.cfg.Workers, 8)) // scanners keep their buffers
	getScanner := func() *scanner {
		select {
		case sc := <-free:
			return sc
		default:
			return newScanner(cfg)
		}
	}
	scan := func(ctx context.Context, e Entry) fileResult {
		sc := getScanner()
		r := sc.scanEntry(ctx, e)
		select {
		case free <- sc:
		default:
		}
		return r
	}
	// held counts the memory of results computed ahead of visit; past
	// maxHeld, files are left for visit to scan itself.
	var held atomic.Int64
	work := func(ctx context.Context, e Entry) fileResult {
		if held.Load() > maxHeld {
			return fileResult{deferred: true}
		}
		r := scan(ctx, e)
		held.Add(r.size)
		return r
	}
	var rootErr error
	visit := func(e Entry, r fileResult) bool {
		if e.Err != nil {
			if e.Rel == "" {
				rootErr = e.Err
				return false
			}
			g.rep.skip(base+e.Rel+"/", e.Err)
			return true
		}
		if r.deferred {
			r = scan(ctx, e)
		} else {
			defer held.Add(-r.size)
		}
		return g.file(base+e.Rel, r)
	}
	keep := func(e Entry) bool { return e.Type.IsRegular() && glob.match(e.Rel) }
	err := Walk(ctx, root, WalkOptions{Workers: s.cfg.Workers, Keep: keep, Root: s.cfg.Root}, work, visit)
	for len(free) > 0 {
		(<-free).release()
	}
	if err != nil {
		return &stoppedError{err}
	}
	return rootErr
}

// grepFile searches the one file the path parameter names (ignore files do
// not apply to it). A binary file is said to be one.
func (s *Searcher) grepFile(ctx context.Context, path, name string, glob *globFilter, cfg *scanConfig, g *grepRun) error {
	if !glob.match(name) {
		return nil
	}
	sc := newScanner(cfg)
	r := sc.scanFile(ctx, path)
	sc.release()
	switch {
	case ctx.Err() != nil:
		return &stoppedError{ctx.Err()}
	case r.gone:
		return fs.ErrNotExist
	case r.err != nil:
		return r.err
	case r.binary:
		g.binaryFile = displayPath(s.cfg.Cwd, path)
	}
	g.file(displayPath(s.cfg.Cwd, path), r)
	return nil
}

// shownArg is the path parameter as an error message shows it.
func shownArg(p string) string {
	if p == "" {
		return "."
	}
	return p
}

// displayPath shows an absolute path relative to cwd when it lies under it.
func displayPath(cwd, abs string) string {
	b := displayBase(cwd, abs)
	if b == "" {
		return "."
	}
	return b[:len(b)-1]
}

// grepRun gathers the results of one grep, file by file, in path order.
type grepRun struct {
	in       GrepInput
	cwd      string
	mode     string
	limit    int
	context  int
	maxChars int
	rep      *report

	matches  int // matching lines shown (files, in files mode)
	files    int // files shown
	reached  bool
	linesCut int
	shown    bool // a group was shown (for the "--" separators)
	// capped names a file whose lines passed maxHeld: the search stopped.
	capped string
	// binaryFile names the file given as path when it is binary.
	binaryFile string
	// cutLines are the reads that show the shown lines that were cut.
	cutLines []output.Call
}

// file adds the result of one file; false ends the search.
func (g *grepRun) file(path string, r fileResult) bool {
	if r.err != nil {
		g.rep.skip(path, r.err)
		return true
	}
	if r.matches == 0 {
		return true
	}
	path = cleanPath(path)
	switch g.mode {
	case ModeFiles, ModeCount:
		if g.files >= g.limit {
			g.reached = true
			return false
		}
		g.files++
		if g.mode == ModeFiles {
			g.matches++
			g.rep.add(path)
		} else {
			g.matches += r.matches
			g.rep.add(path + ":" + strconv.Itoa(r.matches))
		}
		return true
	}
	if g.matches >= g.limit {
		g.reached = true
		return false
	}
	take := g.limit - g.matches
	g.files++
	if g.context > 0 && g.shown {
		g.rep.add("--")
	}
	g.shown = true
	k := 0
	var lastMatch, prev int64 = 0, -1
	for _, h := range r.hits {
		if h.match {
			if k == take {
				break
			}
			k++
			lastMatch = h.line
		} else if k == take && h.line > lastMatch+int64(g.context) {
			break
		}
		if g.context > 0 && prev >= 0 && h.line != prev+1 {
			g.rep.add("--")
		}
		prev = h.line
		text, cut := displayLine(h, g.maxChars)
		if cut {
			g.linesCut++
			abs := path
			if !filepath.IsAbs(abs) {
				abs = filepath.Join(g.cwd, abs)
			}
			g.cutLines = append(g.cutLines, output.ReadCall(abs, h.line, 1, 0))
		}
		sep := "-"
		if h.match {
			sep = ":"
		}
		g.rep.add(path + sep + strconv.FormatInt(h.line, 10) + sep + " " + text)
	}
	g.matches += k
	if r.matches > take {
		g.reached = true
		return false
	}
	if r.capped {
		g.capped = path
		return false
	}
	return true
}

// TruncatedLineSuffix ends a line cut at the line length limit.
const TruncatedLineSuffix = "... [truncated]"

// displayLine sanitizes a line for the model (escape sequences and
// control bytes dropped, invalid UTF-8 replaced) and cuts it at maxChars
// characters.
//
// A long line whose first match lies past its first maxChars characters
// is shown around that match instead, after "[col N] …" naming the
// match's character column.
func displayLine(h hit, maxChars int) (string, bool) {
	var out []byte
	// One line of a file: cursor movement in it draws nothing over
	// anything, and never breaks it.
	san := output.NewLineSanitizer(func(b []byte) { out = append(out, b...) })
	san.Write(h.text)
	san.Close()
	prefix := ""
	if h.col > 0 {
		// The match is at character col-1-skip of out; start half a
		// window before it.
		from := max(0, int(h.col-1-h.skip)-maxChars/2)
		if i := runeOffset(out, from); i >= 0 {
			out = out[i:]
		}
		prefix = fmt.Sprintf("[col %d] …", h.col)
	}
	cut := h.long
	if i := runeOffset(out, maxChars); i >= 0 {
		out = out[:i]
		cut = true
	}
	if cut {
		return prefix + string(out) + TruncatedLineSuffix, true
	}
	return prefix + string(out), false
}

// runeOffset returns the byte offset just after the first n characters of
// b, or -1 when b has no more than n characters.
func runeOffset(b []byte, n int) int {
	if len(b) <= n {
		return -1
	}
	i := 0
	for k := 0; k < n; k++ {
		_, size := utf8.DecodeRune(b[i:])
		i += size
		if i >= len(b) {
			return -1
		}
	}
	return i
}

func (g *grepRun) result() GrepResult {
	out := g.rep.render()
	d := GrepDetails{
		MatchCount:        g.matches,
		FileCount:         g.files,
		MatchLimitReached: g.reached,
		LinesCut:          g.linesCut,
		Truncation:        out.truncation,
		FullOutputPath:    out.fullOutputPath,
		Skipped:           g.rep.skippedList(),
	}
	t := &d.Truncation
	t.LinesCut = int64(g.linesCut)
	switch {
	case t.Truncated:
	case g.reached, g.capped != "":
		t.Truncated, t.TruncatedBy = true, output.ByLines
	case g.linesCut > 0:
		t.Truncated, t.TruncatedBy = true, output.ByLineChars
	}
	var notices []string
	if out.bytesCut {
		shown := out.truncation.OutputLines
		what := fmt.Sprintf("%d of %s shown", shown, output.Plural(out.truncation.TotalLines, "line", "lines"))
		if g.mode == ModeContent {
			what += fmt.Sprintf(" (%s found)", output.Plural(int64(g.matches), "match", "matches"))
		}
		notices = append(notices, out.byteNotice(what))
		if next := out.next(); next != nil {
			d.Next = append(d.Next, next)
		}
	}
	if g.reached {
		unit := output.Noun(int64(g.limit), "match", "matches")
		if g.mode != ModeContent {
			unit = output.Noun(int64(g.limit), "file", "files")
		}
		more := g.in
		more.Limit = 2 * g.limit
		d.Next = append(d.Next, grepCall(more))
		notices = append(notices, fmt.Sprintf("[%d %s limit reached. Use limit=%d for more, or refine pattern]", g.limit, unit, 2*g.limit))
	}
	if g.capped != "" {
		notices = append(notices, fmt.Sprintf("[Search stopped in %s: its matches and context passed %s. Refine the pattern, or lower context]", g.capped, output.FormatSize(maxHeld)))
	}
	if g.linesCut > 0 {
		d.Next = append(d.Next, g.cutLines...)
		first := g.cutLines[0]
		notices = append(notices, fmt.Sprintf("[%s cut at %d chars, around the first match when it lies further in. To see a line whole, read it: e.g. %s]",
			output.Plural(int64(g.linesCut), "line", "lines"), g.maxChars, first.Words(false)))
	}
	if g.binaryFile != "" {
		notices = append(notices, fmt.Sprintf("[%s is a binary file (a NUL byte in its first 8 KiB); not searched]", cleanPath(g.binaryFile)))
	}
	notices = append(notices, g.rep.skippedNotice())
	body := out.body
	if g.rep.lines == 0 {
		body = NoMatches
	}
	return GrepResult{Text: joinText(body, notices), Details: d, Content: out.body}
}

// grepCall is in as a call of the grep tool, the parameters it was given
// and no others.
func grepCall(in GrepInput) output.Call {
	c := output.Call{"tool": "grep", "pattern": in.Pattern}
	set := func(k string, v any, given bool) {
		if given {
			c[k] = v
		}
	}
	set("path", in.Path, in.Path != "")
	set("glob", in.Glob, in.Glob != "")
	set("ignore_case", in.IgnoreCase, in.IgnoreCase)
	set("literal", in.Literal, in.Literal)
	set("context", in.Context, in.Context > 0)
	set("output_mode", in.OutputMode, in.OutputMode != "")
	set("limit", in.Limit, in.Limit > 0)
	return c
}
