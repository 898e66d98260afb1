package files

import (
	"container/heap"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sort"
	"strings"

	"github.com/spillway-dev/spillway/internal/policy"
	"github.com/spillway-dev/spillway/output"
)

// LsInput is spillway.LsInput inside the implementation; the fields are
// documented there.
type LsInput struct {
	Path  string `json:"path,omitempty"`
	Limit int    `json:"limit,omitempty"`
}

// LsDetails is spillway.LsDetails inside the implementation; the fields
// are documented there.
type LsDetails struct {
	Count             int               `json:"count"`
	EntryLimitReached bool              `json:"entry_limit_reached"`
	Truncation        output.Truncation `json:"truncation"`
	FullOutputPath    string            `json:"full_output_path,omitempty"`
	Next              []output.Call     `json:"next,omitempty"`
	Tokens            int               `json:"tokens"`
}

// LsResult is spillway.LsResult inside the implementation; the fields are
// documented there.
type LsResult struct {
	Text    string    `json:"text"`
	Details LsDetails `json:"details"`
	Entries []string  `json:"-"`
}

// emptyDirText is the whole text of an ls of an empty directory.
const emptyDirText = "(empty directory)"

// lsBatch is how many entries are read from the directory at a time.
const lsBatch = 1024

// Ls lists a directory (docs/tools.md): names sorted case-insensitively,
// dotfiles included, directories ending in "/" and symlinks in "@". Only
// the first limit names in order are ever held, however big the
// directory.
func (t *Tools) Ls(ctx context.Context, in LsInput) (LsResult, error) {
	if in.Limit < 0 {
		return LsResult{}, fmt.Errorf("limit %d must be positive (the most entries to show)", in.Limit)
	}
	limit := policy.Limit(in.Limit, t.cfg.Ls.MaxLines)
	p := in.Path
	if p == "" {
		p = "."
	}
	path, err := t.resolve(p) // --root
	if err != nil {
		return LsResult{}, err
	}
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return LsResult{}, fmt.Errorf("directory not found: %s. Use find to locate it", path)
	case err != nil:
		return LsResult{}, listError(path, err)
	case !fi.IsDir():
		if fi.Mode().IsRegular() {
			return LsResult{}, fmt.Errorf("%s is a file, not a directory. Use read to see its contents", path)
		}
		return LsResult{}, fmt.Errorf("%s is not a directory (%s)", path, fi.Mode().Type())
	}
	d, err := openDirNoBlock(path)
	if err != nil {
		return LsResult{}, listError(path, err)
	}
	defer d.Close()
	if err := t.cfg.Root.CheckFile(d); err != nil { // changed since the check
		return LsResult{}, err
	}

	kept := &entryHeap{}
	var total, totalBytes int64
	for {
		if err := ctx.Err(); err != nil {
			return LsResult{}, fmt.Errorf("ls of %s cancelled: %v", path, err)
		}
		batch, err := d.ReadDir(lsBatch)
		for _, e := range batch {
			name := e.Name()
			switch {
			case e.Type()&fs.ModeSymlink != 0:
				name += "@"
			case e.IsDir():
				name += "/"
			}
			total++
			totalBytes += int64(len(name)) + 1
			ent := lsEntry{key: strings.ToLower(e.Name()), name: name}
			if kept.Len() < limit {
				heap.Push(kept, ent)
			} else if ent.less((*kept)[0]) {
				(*kept)[0] = ent
				heap.Fix(kept, 0)
			}
		}
		if err == io.EOF || (err == nil && len(batch) == 0) {
			break
		}
		if err != nil {
			return LsResult{}, listError(path, err)
		}
	}
	entries := []lsEntry(*kept)
	sort.Slice(entries, func(i, j int) bool { return entries[i].less(entries[j]) })
	res := renderLs(entries, total, totalBytes, limit, t.cfg.Ls.MaxBytes, t.cfg.Ls.MaxTokens, t.spillList(entries))
	if res.Details.EntryLimitReached {
		more := output.Call{"tool": "ls", "limit": total}
		if in.Path != "" {
			more["path"] = in.Path
		}
		res.Details.Next = append(res.Details.Next, more)
	}
	return res, nil
}

// spillList returns the function that writes the listing to a spill file
// when the byte limit cuts it, and says where it is (or why it is not).
func (t *Tools) spillList(entries []lsEntry) func() (path, failure string) {
	return func() (string, string) {
		if t.cfg.Spill == nil {
			return "", ""
		}
		sp, err := t.cfg.Spill.Opener("ls", t.cfg.Spill.NextSeq(), "output")()
		if err != nil {
			return "", err.Error()
		}
		var b []byte
		for _, e := range entries {
			b = append(b, e.name...)
			b = append(b, '\n')
		}
		_, werr := sp.Write(b)
		if cerr := sp.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			return sp.Path(), werr.Error()
		}
		return sp.Path(), ""
	}
}

func listError(path string, err error) error {
	if errors.Is(err, fs.ErrPermission) {
		return fmt.Errorf("cannot list %s: permission denied", path)
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("cannot list %s: %v", path, err)
}

// renderLs shows the entries that fit maxBytes and, when above zero,
// maxTokens (estimated), then the notices.
func renderLs(entries []lsEntry, total, totalBytes int64, limit, maxBytes, maxTokens int, spill func() (path, failure string)) LsResult {
	var res LsResult
	if total == 0 {
		res.Text = emptyDirText
		return res
	}
	var b strings.Builder
	byBytes, byTokens := false, false
	var tokens output.TokenCounter
	for _, e := range entries {
		if b.Len()+len(e.name)+1 > maxBytes {
			byBytes = true
			break
		}
		if maxTokens > 0 {
			with := tokens
			with.WriteString(e.name)
			with.WriteString("\n")
			if with.Tokens() > int64(maxTokens) {
				byTokens = true
				break
			}
			tokens = with
		}
		b.WriteString(e.name)
		b.WriteByte('\n')
		res.Entries = append(res.Entries, e.name)
	}
	shown := int64(len(res.Entries))
	d := &res.Details
	d.Count = len(res.Entries)
	d.EntryLimitReached = total > int64(limit)
	tr := &d.Truncation
	tr.TotalLines, tr.TotalBytes = total, totalBytes
	tr.OutputLines, tr.OutputBytes = shown, int64(b.Len())
	var notices []string
	if byBytes || byTokens {
		tr.Truncated, tr.TruncatedBy = true, output.ByBytes
		cause := output.FormatSize(int64(maxBytes))
		if byTokens {
			tr.TruncatedBy, cause = output.ByTokens, fmt.Sprintf("%d tokens", maxTokens)
		}
		// Of what the full output holds, as find and grep say it: the
		// entry limit, when it binds too, has a notice of its own.
		listed := int64(len(entries))
		n := fmt.Sprintf("[%s limit reached: %d of %s shown", cause, shown, output.Plural(listed, "entry", "entries"))
		path, failure := spill()
		switch {
		case failure != "":
			n += ". Full output could not be saved: " + failure
		case path != "":
			next := output.ReadCall(path, shown+1, int64(len(entries))-shown, 0)
			d.FullOutputPath, d.Next = path, []output.Call{next}
			n += ". Full output: " + path + ". To see the rest: read it with " + next.Words(true)
		}
		notices = append(notices, n+"]")
	}
	if d.EntryLimitReached {
		if !byBytes && !byTokens {
			tr.Truncated, tr.TruncatedBy = true, output.ByLines
		}
		notices = append(notices, fmt.Sprintf("[%d %s limit reached: the directory holds %d. Use limit=%d to list them all]", limit, output.Noun(int64(limit), "entry", "entries"), total, total))
	}
	res.Text = joinNotices(b.String(), notices)
	return res
}

// An lsEntry is a name to show and its sort key.
type lsEntry struct {
	key  string // lower case
	name string // with its "/" or "@"
}

// less orders case-insensitively, then by the exact name, so that the
// order never depends on the directory's.
func (a lsEntry) less(b lsEntry) bool {
	if a.key != b.key {
		return a.key < b.key
	}
	return a.name < b.name
}

// An entryHeap is a max-heap: its root is the last entry kept, the first
// to go when a smaller one comes.
type entryHeap []lsEntry

func (h entryHeap) Len() int           { return len(h) }
func (h entryHeap) Less(i, j int) bool { return h[j].less(h[i]) }
func (h entryHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *entryHeap) Push(x any)        { *h = append(*h, x.(lsEntry)) }
func (h *entryHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
