package search

import (
	"context"
	"fmt"
	"strings"

	"github.com/spillway-dev/spillway/internal/policy"
	"github.com/spillway-dev/spillway/output"
)

// FindInput is spillway.FindInput inside the implementation; the fields
// are documented there.
type FindInput struct {
	Pattern string `json:"pattern"`
	Path    string `json:"path,omitempty"`
	Limit   int    `json:"limit,omitempty"`
	Type    string `json:"type,omitempty"`
}

// FindDetails is spillway.FindDetails inside the implementation; the
// fields are documented there.
type FindDetails struct {
	Count              int               `json:"count"`
	ResultLimitReached bool              `json:"result_limit_reached"`
	Truncation         output.Truncation `json:"truncation"`
	FullOutputPath     string            `json:"full_output_path,omitempty"`
	Next               []output.Call     `json:"next,omitempty"`
	Skipped            []string          `json:"skipped,omitempty"`
	Tokens             int               `json:"tokens"`
}

// FindResult is spillway.FindResult inside the implementation; the fields
// are documented there.
type FindResult struct {
	Text    string      `json:"text"`
	Content string      `json:"-"`
	Details FindDetails `json:"details"`
}

// Values of FindInput.Type.
const (
	TypeAny  = "any"
	TypeFile = "file"
	TypeDir  = "dir"
)

// NoFiles is the text of a find that found nothing.
const NoFiles = "No files found matching pattern"

// Find lists the paths whose name or relative path matches a glob (docs/tools.md
// find), sorted, directories ending in '/'.
func (s *Searcher) Find(ctx context.Context, in FindInput) (FindResult, error) {
	fail := func(format string, args ...any) (FindResult, error) {
		return FindResult{}, fmt.Errorf("find: "+format, args...)
	}
	if in.Pattern == "" {
		return fail("pattern is empty: give a glob such as *.go or src/**/*_test.go (* for everything)")
	}
	typ := in.Type
	switch typ {
	case "", TypeAny:
		typ = TypeAny
	case TypeFile, TypeDir:
	default:
		return fail("type %q: use any, file or dir", in.Type)
	}
	pattern := in.Pattern
	if len(pattern) > 1 && strings.HasSuffix(pattern, "/") {
		// "name/" finds directories, as in ignore files.
		pattern = strings.TrimSuffix(pattern, "/")
		if typ == TypeFile {
			return fail("pattern %q ends in / (directories) but type is file", in.Pattern)
		}
		typ = TypeDir
	}
	glob, err := parseGlob(pattern, false)
	if err != nil {
		return fail("%v", err)
	}
	root, err := s.resolve(in.Path) // --root
	if err != nil {
		return FindResult{}, fmt.Errorf("find: %w", err)
	}
	fi, err := statRoot("find", shownArg(in.Path), root)
	if err != nil {
		return FindResult{}, err
	}
	if !fi.IsDir() {
		return fail("%s is a file, not a directory: pass the directory to search as path", shownArg(in.Path))
	}

	lim := s.cfg.Find
	limit := policy.Limit(in.Limit, lim.MaxLines)
	rep := newReport("find", lim.MaxBytes, lim.MaxTokens, s.cfg.Spill)
	base := displayBase(s.cfg.Cwd, root)
	count, reached := 0, false
	var rootErr error
	keep := func(e Entry) bool {
		switch typ {
		case TypeFile:
			if e.IsDir() {
				return false
			}
		case TypeDir:
			if !e.IsDir() {
				return false
			}
		}
		return glob.match(e.Rel)
	}
	visit := func(e Entry, _ struct{}) bool {
		if e.Err != nil {
			if e.Rel == "" {
				rootErr = e.Err
				return false
			}
			rep.skip(base+e.Rel+"/", e.Err)
			return true
		}
		if count >= limit {
			reached = true
			return false
		}
		count++
		p := cleanPath(base + e.Rel)
		if e.IsDir() {
			p += "/"
		}
		rep.add(p)
		return true
	}
	opt := WalkOptions{Workers: s.cfg.Workers, Dirs: typ != TypeFile, Keep: keep, Root: s.cfg.Root}
	if err := Walk[struct{}](ctx, root, opt, nil, visit); err != nil {
		return fail("stopped before it finished (%v) after %d results", err, count)
	}
	if rootErr != nil {
		return fail("cannot read %s: %v", shownArg(in.Path), unwrapPathError(rootErr))
	}

	out := rep.render()
	d := FindDetails{
		Count:              int(out.truncation.OutputLines),
		ResultLimitReached: reached,
		Truncation:         out.truncation,
		FullOutputPath:     out.fullOutputPath,
		Skipped:            rep.skippedList(),
	}
	if reached && !d.Truncation.Truncated {
		d.Truncation.Truncated, d.Truncation.TruncatedBy = true, output.ByLines
	}
	var notices []string
	if out.bytesCut {
		notices = append(notices, out.byteNotice(fmt.Sprintf("%d of %s shown", d.Count, output.Plural(int64(count), "result", "results"))))
		if next := out.next(); next != nil {
			d.Next = append(d.Next, next)
		}
	}
	if reached {
		more := output.Call{"tool": "find", "pattern": in.Pattern, "limit": 2 * limit}
		if in.Path != "" {
			more["path"] = in.Path
		}
		if in.Type != "" {
			more["type"] = in.Type
		}
		d.Next = append(d.Next, more)
		notices = append(notices, fmt.Sprintf("[%d %s limit reached. Use limit=%d for more, or refine pattern]", limit, output.Noun(int64(limit), "result", "results"), 2*limit))
	}
	notices = append(notices, rep.skippedNotice())
	body := out.body
	if count == 0 {
		body = NoFiles
	}
	return FindResult{Text: joinText(body, notices), Details: d, Content: out.body}, nil
}
