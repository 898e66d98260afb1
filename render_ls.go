package spillway

import (
	"context"
	"fmt"
	"strings"

	"github.com/spillway-dev/spillway/internal/files"
	"github.com/spillway-dev/spillway/internal/spill"
	"github.com/spillway-dev/spillway/output"
)

// emptyDirText is the whole text of an ls of an empty directory.
const emptyDirText = "(empty directory)"

// listDir runs an ls call on the file engine and renders the listing it
// returns; a listing the byte limit cuts is spilled to store (nil: not
// kept).
func listDir(ctx context.Context, tl *files.Tools, store *spill.Store, in LsInput) (Result[LsDetails], error) {
	l, err := tl.List(ctx, in)
	if err != nil {
		return Result[LsDetails]{}, err
	}
	res := listingResult(l, store)
	if res.Details.EntryLimitReached {
		more := output.Call{"tool": "ls", "limit": l.Total}
		if in.Path != "" {
			more["path"] = in.Path
		}
		res.Details.Next = append(res.Details.Next, more)
	}
	return res, nil
}

// listingResult shows the names of a listing that fit its byte limit and, when
// above zero, its token limit (estimated), then the notices; its content
// is the names shown, one a line. A listing the byte limit cuts is
// written whole to a spill file of store.
func listingResult(l files.Listing, store *spill.Store) Result[LsDetails] {
	var res Result[LsDetails]
	hidden := hiddenNotice(int(l.Hidden), l.HiddenBy, "entry", "entries")
	res.Details.Hidden = int(l.Hidden)
	if l.Total == 0 {
		res.Text = emptyDirText
		if hidden != "" {
			res.Text = hidden // not empty: everything in it is hidden
		}
		return res
	}
	lim := l.Policy
	var b strings.Builder
	byBytes, byTokens := false, false
	var tokens output.TokenCounter
	var shown int64
	for _, name := range l.Names {
		if b.Len()+len(name)+1 > lim.MaxBytes {
			byBytes = true
			break
		}
		if lim.MaxTokens > 0 {
			with := tokens
			with.WriteString(name)
			with.WriteString("\n")
			if with.Tokens() > int64(lim.MaxTokens) {
				byTokens = true
				break
			}
			tokens = with
		}
		b.WriteString(name)
		b.WriteByte('\n')
		shown++
	}
	res.Content = b.String()
	d := &res.Details
	d.Count = int(shown)
	d.EntryLimitReached = l.Total > int64(lim.Limit)
	tr := &d.Truncation
	tr.TotalLines, tr.TotalBytes = l.Total, l.TotalBytes
	tr.OutputLines, tr.OutputBytes = shown, int64(b.Len())
	var notices []string
	if byBytes || byTokens {
		tr.Truncated, tr.TruncatedBy = true, output.ByBytes
		cause := output.FormatSize(int64(lim.MaxBytes))
		if byTokens {
			tr.TruncatedBy, cause = output.ByTokens, fmt.Sprintf("%d tokens", lim.MaxTokens)
		}
		// Of what the full output holds, as find and grep say it: the
		// entry limit, when it binds too, has a notice of its own.
		listed := int64(len(l.Names))
		n := fmt.Sprintf("[%s limit reached: %d of %s shown", cause, shown, output.Plural(listed, "entry", "entries"))
		path, failure := spillNames(store, "ls", l.Names)
		switch {
		case failure != "":
			n += ". Full output could not be saved: " + failure
		case path != "":
			next := output.ReadCall(path, shown+1, listed-shown, 0)
			d.FullOutputPath, d.Next = path, []output.Call{next}
			n += ". Full output: " + path + ". To see the rest: read it with " + next.Words(true)
		}
		notices = append(notices, n+"]")
	}
	if d.EntryLimitReached {
		if !byBytes && !byTokens {
			tr.Truncated, tr.TruncatedBy = true, output.ByLines
		}
		notices = append(notices, fmt.Sprintf("[%d %s limit reached: the directory holds %d. Use limit=%d to list them all]",
			lim.Limit, output.Noun(int64(lim.Limit), "entry", "entries"), l.Total, l.Total))
	}
	if hidden != "" {
		notices = append(notices, hidden)
	}
	res.Text = joinNotices(b.String(), notices)
	return res
}

// spillNames writes names, one a line, to a new spill file of the tool
// in store, and says where it is (or why it is not).
func spillNames(store *spill.Store, tool string, names []string) (path, failure string) {
	if store == nil {
		return "", ""
	}
	sp, err := store.Opener(tool, store.NextSeq(), "output")()
	if err != nil {
		return "", err.Error()
	}
	var b []byte
	for _, name := range names {
		b = append(b, name...)
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

// joinNotices puts the notices after the content, a blank line between.
func joinNotices(content string, notices []string) string {
	if len(notices) == 0 {
		return content
	}
	var b strings.Builder
	b.WriteString(content)
	if content != "" {
		if !strings.HasSuffix(content, "\n") {
			b.WriteByte('\n')
		}
		b.WriteByte('\n')
	}
	b.WriteString(strings.Join(notices, "\n"))
	return b.String()
}
