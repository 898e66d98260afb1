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

	"github.com/spillway-dev/spillway/internal/policy"
	"github.com/spillway-dev/spillway/output"
	"github.com/spillway-dev/spillway/tool"
)

// Output modes of grep.
const (
	ModeContent = "content"
	ModeFiles   = "files_with_matches"
	ModeCount   = "count"
)

// MaxContext bounds the context parameter.
const MaxContext = 100

// MaxPatternBytes bounds a grep pattern: a longer one is refused at once,
// before any parsing, however it is written.
const MaxPatternBytes = 64 << 10

// Found is what a grep found, in path then line order.
type Found struct {
	// Lines are the result lines: "path:line: text" with context lines
	// as "path-line- text" and groups apart by "--" (ModeContent), a path
	// (ModeFiles) or "path:count" (ModeCount).
	Lines
	// Mode is the output mode searched: ModeContent, ModeFiles or
	// ModeCount.
	Mode string
	// Matches counts the matching lines shown (the files, in ModeFiles;
	// the sum of the counts shown, in ModeCount); Files the files shown.
	Matches, Files int
	// Limit is the limit applied; LimitReached: more matches (files, in
	// the other modes) exist.
	Limit        int
	LimitReached bool
	// AtLeast, when LimitReached, is how many matching lines (files, in
	// the other modes) the search knows of: a lower bound, as it stops
	// reading files at the limit.
	AtLeast int
	// MaxLineChars is where a shown line is cut; Cut lists the shown
	// lines that were cut.
	MaxLineChars int
	Cut          []LineRef
	// Capped names a file whose matches and context passed Held bytes,
	// the bound of what a search holds: the search stopped in it.
	Capped string
	Held   int64
	// Binary names the file the path named when it is binary (not
	// searched).
	Binary string
}

// A LineRef names a line of a file by its absolute path and its number.
type LineRef struct {
	Path string
	Line int64
}

// Grep searches file contents as a grep call asks (docs/tools.md). A
// parameter out of its bounds, or a pattern that does not compile, is an
// error that says so.
func (s *Searcher) Grep(ctx context.Context, in tool.GrepInput) (Found, error) {
	fail := func(format string, args ...any) (Found, error) {
		return Found{}, fmt.Errorf("grep: "+format, args...)
	}
	mode := in.OutputMode
	if mode == "" {
		mode = ModeContent
	}
	if len(in.Pattern) > MaxPatternBytes {
		return fail("the pattern is %s, over the %s limit: search for a distinctive part of it",
			output.FormatSize(int64(len(in.Pattern))), output.FormatSize(MaxPatternBytes))
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
		return Found{}, fmt.Errorf("grep: %w", err)
	}
	fi, err := statRoot("grep", shownArg(in.Path), root)
	if err != nil {
		return Found{}, err
	}
	hide, err := s.hider("grep", shownArg(in.Path), root, true)
	if err != nil {
		return Found{}, err
	}

	lim := s.cfg.Grep
	g := &grepRun{
		cwd:      s.cfg.Cwd,
		mode:     mode,
		limit:    policy.Limit(in.Limit, lim.Limit),
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
		err = s.grepTree(ctx, root, glob, cfg, g, hide)
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
	f := g.found()
	if s.cfg.Grep.NoTotal {
		f.AtLeast = 0
	}
	return f, nil
}

// stoppedError is a search ended by its context.
type stoppedError struct{ err error }

func (e *stoppedError) Error() string { return e.err.Error() }

// grepTree searches the files below the directory root, several at a time,
// and hands their results to g in path order. The error is the walk's
// (*stoppedError) or the root's own read error.
func (s *Searcher) grepTree(ctx context.Context, root string, glob *globFilter, cfg *scanConfig, g *grepRun, hide func(string) string) error {
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
		if e.Hidden != "" {
			g.rep.hide(e.Hidden)
			return true
		}
		if r.deferred {
			r = scan(ctx, e)
		} else {
			defer held.Add(-r.size)
		}
		if r.err == nil && r.matches == 0 {
			return true // nothing to show: spare making its path
		}
		return g.file(base+e.Rel, r)
	}
	keep := func(e Entry) bool { return e.Type.IsRegular() && glob.match(e.Rel) }
	err := Walk(ctx, root, WalkOptions{Workers: s.cfg.Workers, Keep: keep, Root: s.cfg.Root, Hide: hide}, work, visit)
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
		g.binaryFile = cleanPath(displayPath(s.cfg.Cwd, path))
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
	cwd      string
	mode     string
	limit    int
	context  int
	maxChars int
	rep      *report

	matches int // matching lines shown (files, in files mode)
	files   int // files shown
	reached bool
	atLeast int  // when reached: the matching lines (files) known of
	shown   bool // a group was shown (for the "--" separators)
	// capped names a file whose lines passed maxHeld: the search stopped.
	capped string
	// binaryFile names the file given as path when it is binary.
	binaryFile string
	// cutLines are the shown lines that were cut.
	cutLines []LineRef
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
		return g.fileSummary(path, r)
	}
	return g.fileLines(path, r)
}

// fileSummary adds a file's line of the files and count modes: its path,
// or its path and count.
func (g *grepRun) fileSummary(path string, r fileResult) bool {
	if g.files >= g.limit {
		g.reached, g.atLeast = true, g.limit+1
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

// fileLines adds a file's matching lines and their context, as many as
// the limit leaves room for.
func (g *grepRun) fileLines(path string, r fileResult) bool {
	if g.matches >= g.limit {
		g.reached, g.atLeast = true, g.limit+r.matches
		return false
	}
	take := g.limit - g.matches
	g.files++
	if g.context > 0 && g.shown {
		g.rep.add("--")
	}
	g.shown = true
	k := g.addHits(path, r.hits, take)
	g.matches += k
	if r.matches > take {
		g.reached, g.atLeast = true, g.matches+r.matches-k
		return false
	}
	if r.capped {
		g.capped = path
		return false
	}
	return true
}

// addHits adds the lines of hits up to the take-th match and the context
// after it, with "--" between groups that are not adjacent; it returns
// the number of matches added.
func (g *grepRun) addHits(path string, hits []hit, take int) int {
	k := 0
	var lastMatch, prev int64 = 0, -1
	for _, h := range hits {
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
		g.addLine(path, h)
	}
	return k
}

// addLine adds one line of a file as the result shows it, and notes it
// when it was cut.
func (g *grepRun) addLine(path string, h hit) {
	text, cut := displayLine(h, g.maxChars)
	if cut {
		abs := path
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(g.cwd, abs)
		}
		g.cutLines = append(g.cutLines, LineRef{Path: abs, Line: h.line})
	}
	sep := "-"
	if h.match {
		sep = ":"
	}
	g.rep.add(path + sep + strconv.FormatInt(h.line, 10) + sep + " " + text)
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

func (g *grepRun) found() Found {
	return Found{
		Lines: g.rep.finish(),
		Mode:  g.mode, Matches: g.matches, Files: g.files,
		Limit: g.limit, LimitReached: g.reached, AtLeast: g.atLeast,
		MaxLineChars: g.maxChars, Cut: g.cutLines,
		Capped: g.capped, Held: maxHeld, Binary: g.binaryFile,
	}
}
