package files

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/spillway-dev/spillway/internal/policy"
	"github.com/spillway-dev/spillway/internal/spill"
	"github.com/spillway-dev/spillway/output"
	"github.com/spillway-dev/spillway/tool"
)

// A Page is what a read found: lines of a text file, part of one long
// line, or an image whole.
type Page struct {
	// Path is the file's absolute path, Mime its detected type.
	Path, Mime string
	// Image holds an image's bytes; nil for a text file.
	Image []byte
	// Size is the file's size in bytes, TotalLines its lines.
	Size, TotalLines int64
	// Line is the number of the first line asked for.
	Line int64
	// Text is the lines shown as the model reads them, numbered when
	// asked and with their cut markers; Content is the same lines pure.
	Text, Content string
	// Shown counts the lines shown; Stop says why no more were.
	Shown int64
	Stop  Stop
	// LinesCut counts the shown lines cut at MaxLineChars; FirstCut is
	// the number of the first (0: none), FirstCutBytes its size.
	LinesCut, FirstCut, FirstCutBytes int64
	// Part is set when the page is part of the line Line.
	Part *LinePart
	// Over is set when the line Line alone is over MaxBytes and the
	// policy never shows part of a line: the page shows nothing.
	Over *LongLine
	// Policy is the read policy the page was held to, with the call's
	// line limit and numbering in it.
	Policy tool.ReadPolicy
}

// A LinePart is the part of one line a page shows.
type LinePart struct {
	// From is the number of the line's characters before the part,
	// Chars the number of characters shown; when none are, the line has
	// Skipped characters in all.
	From, Chars, Skipped int64
	// LineBytes is the line's size, its ending excluded.
	LineBytes int64
	// More: characters follow in the line. ByTokens: the token limit,
	// not the byte limit, ended the part.
	More, ByTokens bool
}

// A LongLine is a line too long to show: its number and size.
type LongLine struct {
	Line, Bytes int64
}

// Read reads the page of a text file that a read call asks for (from line
// in.Offset, or within it from character in.CharOffset), or an image whole
// (docs/tools.md); a parameter out of its bounds is an error that says
// so. It never blocks on a FIFO or a device, and its memory is bounded by
// the limits whatever the size of the file or of its lines.
func (t *Tools) Read(ctx context.Context, in tool.ReadInput) (Page, error) {
	path, err := t.resolve(in.Path) // --root
	if err != nil {
		return Page{}, err
	}
	fi, err := os.Stat(path)
	if err != nil {
		return Page{}, t.statError(path, err)
	}
	if err := notRegular(path, fi.Mode()); err != nil {
		return Page{}, err
	}
	f, fi, err := openRegular(path)
	if err != nil {
		return Page{}, t.statError(path, err)
	}
	defer f.Close()
	if err := t.cfg.Root.CheckFile(f); err != nil { // changed since the check
		return Page{}, err
	}

	head := make([]byte, sniffBytes)
	n, err := io.ReadFull(f, head)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		if e := stalled(path, err); e != nil {
			return Page{}, e
		}
		return Page{}, fmt.Errorf("cannot read %s: %v", path, err)
	}
	kind, mime, mt := classify(head[:n])
	switch kind {
	case kindImage:
		return t.readImage(f, path, fi, mime)
	case kindBinary:
		return Page{}, binaryError(path, mt)
	}
	// The page is held to the policy, with the call's line limit and
	// numbering.
	lim := t.cfg.Read
	lim.MaxLines = policy.Limit(in.Limit, lim.MaxLines)
	lim.LineNumbers = lim.LineNumbers || in.LineNumbers
	return t.readText(ctx, f, path, fi, mime, max(int64(in.Offset), 1), int64(in.CharOffset), lim)
}

// statError turns the error of a stat or an open into one that says what
// to do.
func (t *Tools) statError(path string, err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if t.cfg.Spill != nil {
			if cause, ok := t.cfg.Spill.Deleted(path); ok {
				return deletedSpillError(path, cause)
			}
		}
		return fmt.Errorf("file not found: %s. Use find or ls to locate it", path)
	case errors.Is(err, fs.ErrPermission):
		return fmt.Errorf("cannot read %s: permission denied", path)
	default:
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("cannot read %s: %v", path, err)
	}
}

// deletedSpillError says why a spill file of the session is gone.
func deletedSpillError(path string, cause spill.Cause) error {
	why := "deleted to keep the session's spill files within their budget (the oldest go first)"
	switch cause {
	case spill.CauseHistory:
		why = "deleted after its call left the session's history (the oldest calls are forgotten first, their files once no result has named them for spill.keep_named_ms)"
	case spill.CauseUnsaved:
		why = "deleted because it could not be written whole"
	}
	return fmt.Errorf("%s was a spill file of this session, %s. Run the command again to get its full output", path, why)
}

// readText shows one page of a text file. The first read of a file scans
// it whole, once, building its line index while it fills the page; a
// later page of the same unchanged file seeks to the checkpoint before it.
func (t *Tools) readText(ctx context.Context, f *os.File, path string, fi fs.FileInfo, mime string, offset, charOffset int64, lim tool.ReadPolicy) (Page, error) {
	key := fileKey{path, versionOf(fi)}
	pg := newPage(lim, offset)
	idx := t.index.get(key)
	var err error
	if charOffset > 0 {
		if idx == nil {
			idx, err = t.buildIndex(ctx, f, fi, key)
		}
		if err == nil {
			return t.readChars(ctx, f, path, mime, offset, charOffset, lim, idx)
		}
	} else if idx != nil {
		if offset <= idx.totalLines {
			err = t.scan(ctx, f, idx.lookup(offset-1), offset-1, pg, nil, idx.size)
		}
	} else {
		b := newIndexBuilder()
		end := fi.Size()
		if end == 0 {
			end = -1 // empty, or a /proc file that says so
		}
		err = t.scan(ctx, f, checkpoint{}, offset-1, pg, b, end)
		idx = b.finish()
		if err == nil && unchanged(f, fi, idx) {
			t.index.put(key, idx)
		}
	}
	if err != nil {
		return Page{}, scanError(path, err)
	}
	if pg.overLine > 0 {
		if lim.NoPartialLines {
			// The policy never shows part of a line: only a notice
			// that names a command showing the line's start.
			return overLinePage(path, mime, offset, lim, pg, idx), nil
		}
		// The first line does not fit even cut: show its start.
		return t.readChars(ctx, f, path, mime, offset, 0, lim, idx)
	}
	return textPage(path, mime, offset, lim, pg, idx), nil
}

// scanError is the error of a read whose scan failed.
func scanError(path string, err error) error {
	if errIsCancel(err) {
		return fmt.Errorf("read of %s cancelled: %v", path, err)
	}
	if e := stalled(path, err); e != nil {
		return e
	}
	return fmt.Errorf("cannot read %s: %v", path, err)
}

// buildIndex scans a file whole to build its line index.
func (t *Tools) buildIndex(ctx context.Context, f *os.File, fi fs.FileInfo, key fileKey) (*lineIndex, error) {
	b := newIndexBuilder()
	end := fi.Size()
	if end == 0 {
		end = -1
	}
	if err := t.scan(ctx, f, checkpoint{}, 0, nil, b, end); err != nil {
		return nil, err
	}
	idx := b.finish()
	if unchanged(f, fi, idx) {
		t.index.put(key, idx)
	}
	return idx, nil
}

// readChars shows part of the line at offset, from its character
// charOffset on.
func (t *Tools) readChars(ctx context.Context, f *os.File, path, mime string, offset, charOffset int64, lim tool.ReadPolicy, idx *lineIndex) (Page, error) {
	if offset > idx.totalLines {
		return textPage(path, mime, offset, lim, newPage(lim, offset), idx), nil
	}
	cp := newCharPage(charOffset, lim.MaxBytes, lim.MaxTokens)
	if err := t.scan(ctx, f, idx.lookup(offset-1), offset-1, cp, nil, idx.size); err != nil {
		return Page{}, scanError(path, err)
	}
	return charsPage(path, mime, offset, charOffset, lim, cp, idx), nil
}

// unchanged reports whether the file still is the version that was
// scanned, so that its index may be kept.
func unchanged(f *os.File, before fs.FileInfo, idx *lineIndex) bool {
	now, err := f.Stat()
	return err == nil && versionOf(now) == versionOf(before) && idx.size == before.Size()
}

// readImage returns an image whole, up to maxImageBytes.
func (t *Tools) readImage(f *os.File, path string, fi fs.FileInfo, mime string) (Page, error) {
	tooBig := func(size int64) (Page, error) {
		return Page{}, fmt.Errorf("%s is a %s image of %s, over the %s limit for images. Use bash to inspect it (file %s) or to make a smaller copy to read (e.g. convert -resize 50%%)",
			path, mime, output.FormatSize(size), output.FormatSize(maxImageBytes), ShellQuote(path))
	}
	if fi.Size() > maxImageBytes {
		return tooBig(fi.Size())
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return Page{}, fmt.Errorf("cannot read %s: %v", path, err)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxImageBytes+1))
	t.scanned.Add(int64(len(data)))
	if err != nil {
		return Page{}, fmt.Errorf("cannot read %s: %v", path, err)
	}
	if len(data) > maxImageBytes {
		return tooBig(int64(len(data)))
	}
	size := int64(len(data))
	return Page{Path: path, Mime: mime, Image: data, Size: size, Line: 1}, nil
}
