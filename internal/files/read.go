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
)

// ReadInput is spillway.ReadInput inside the implementation; the fields
// are documented there.
type ReadInput struct {
	Path        string `json:"path"`
	Offset      int    `json:"offset,omitempty"`
	Limit       int    `json:"limit,omitempty"`
	LineNumbers bool   `json:"line_numbers,omitempty"`
	CharOffset  int    `json:"char_offset,omitempty"`
}

// Values of ReadDetails.Kind.
const (
	KindText  = "text"
	KindImage = "image"
)

// ReadDetails is spillway.ReadDetails inside the implementation; the
// fields are documented there.
type ReadDetails struct {
	Path       string            `json:"path"`
	Kind       string            `json:"kind"`
	MimeType   string            `json:"mime_type"`
	Offset     int64             `json:"offset"`
	CharOffset int64             `json:"char_offset,omitempty"`
	LinesShown int64             `json:"lines_shown"`
	TotalLines int64             `json:"total_lines"`
	LinesCut   int64             `json:"lines_cut"`
	Truncation output.Truncation `json:"truncation"`
	Next       []output.Call     `json:"next,omitempty"`
	Tokens     int               `json:"tokens"`
}

// ReadResult is spillway.ReadResult inside the implementation; the fields
// are documented there.
type ReadResult struct {
	Text     string      `json:"text"`
	Details  ReadDetails `json:"details"`
	Content  string      `json:"-"`
	Image    []byte      `json:"-"`
	MimeType string      `json:"-"`
}

// Read reads a text file page by page, or an image whole (docs/tools.md).
// It never blocks on a FIFO or a device, and its memory is bounded by the
// limits whatever the size of the file or of its lines.
func (t *Tools) Read(ctx context.Context, in ReadInput) (ReadResult, error) {
	if in.Path == "" {
		return ReadResult{}, errors.New("path is required: the file to read")
	}
	if in.Offset < 0 {
		return ReadResult{}, fmt.Errorf("offset %d is not a line number: lines are numbered from 1", in.Offset)
	}
	if in.Limit < 0 {
		return ReadResult{}, fmt.Errorf("limit %d must be positive (the most lines to show)", in.Limit)
	}
	if in.CharOffset < 0 {
		return ReadResult{}, fmt.Errorf("char_offset %d is not a character offset: the first character of a line is 0", in.CharOffset)
	}
	path, err := t.resolve(in.Path) // --root
	if err != nil {
		return ReadResult{}, err
	}
	fi, err := os.Stat(path)
	if err != nil {
		return ReadResult{}, t.statError(path, err)
	}
	if err := notRegular(path, fi.Mode()); err != nil {
		return ReadResult{}, err
	}
	f, fi, err := openRegular(path)
	if err != nil {
		return ReadResult{}, t.statError(path, err)
	}
	defer f.Close()
	if err := t.cfg.Root.CheckFile(f); err != nil { // changed since the check
		return ReadResult{}, err
	}

	head := make([]byte, sniffBytes)
	n, err := io.ReadFull(f, head)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		if e := stalled(path, err); e != nil {
			return ReadResult{}, e
		}
		return ReadResult{}, fmt.Errorf("cannot read %s: %v", path, err)
	}
	kind, mime, mt := classify(head[:n])
	switch kind {
	case kindImage:
		return t.readImage(f, path, fi, mime)
	case kindBinary:
		return ReadResult{}, binaryError(path, mt)
	}
	offset := int64(max(in.Offset, 1))
	lim := pageLimits{
		maxLines:       policy.Limit(in.Limit, t.cfg.Read.MaxLines),
		maxBytes:       t.cfg.Read.MaxBytes,
		maxLineChars:   t.cfg.Read.MaxLineChars,
		maxTokens:      t.cfg.Read.MaxTokens,
		lineNumbers:    in.LineNumbers || t.cfg.LineNumbers,
		noPartialLines: t.cfg.NoPartialLines,
	}
	return t.readText(ctx, f, path, fi, mime, offset, int64(in.CharOffset), lim)
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
func (t *Tools) readText(ctx context.Context, f *os.File, path string, fi fs.FileInfo, mime string, offset, charOffset int64, lim pageLimits) (ReadResult, error) {
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
		return ReadResult{}, scanError(path, err)
	}
	if pg.overLine > 0 {
		if lim.noPartialLines {
			// The policy never shows part of a line: only a notice
			// that names a command showing the line's start.
			return renderOverLine(path, mime, offset, lim, pg, idx), nil
		}
		// The first line does not fit even cut: show its start.
		return t.readChars(ctx, f, path, mime, offset, 0, lim, idx)
	}
	return renderText(path, mime, offset, lim, pg, idx), nil
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
func (t *Tools) readChars(ctx context.Context, f *os.File, path, mime string, offset, charOffset int64, lim pageLimits, idx *lineIndex) (ReadResult, error) {
	if offset > idx.totalLines {
		return renderText(path, mime, offset, lim, newPage(lim, offset), idx), nil
	}
	cp := newCharPage(charOffset, lim.maxBytes, lim.maxTokens)
	if err := t.scan(ctx, f, idx.lookup(offset-1), offset-1, cp, nil, idx.size); err != nil {
		return ReadResult{}, scanError(path, err)
	}
	return renderChars(path, mime, offset, charOffset, cp, idx), nil
}

// unchanged reports whether the file still is the version that was
// scanned, so that its index may be kept.
func unchanged(f *os.File, before fs.FileInfo, idx *lineIndex) bool {
	now, err := f.Stat()
	return err == nil && versionOf(now) == versionOf(before) && idx.size == before.Size()
}

// readImage returns an image whole, up to maxImageBytes.
func (t *Tools) readImage(f *os.File, path string, fi fs.FileInfo, mime string) (ReadResult, error) {
	tooBig := func(size int64) (ReadResult, error) {
		return ReadResult{}, fmt.Errorf("%s is a %s image of %s, over the %s limit for images. Use bash to inspect it (file %s) or to make a smaller copy to read (e.g. convert -resize 50%%)",
			path, mime, output.FormatSize(size), output.FormatSize(maxImageBytes), shellQuote(path))
	}
	if fi.Size() > maxImageBytes {
		return tooBig(fi.Size())
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return ReadResult{}, fmt.Errorf("cannot read %s: %v", path, err)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxImageBytes+1))
	t.scanned.Add(int64(len(data)))
	if err != nil {
		return ReadResult{}, fmt.Errorf("cannot read %s: %v", path, err)
	}
	if len(data) > maxImageBytes {
		return tooBig(int64(len(data)))
	}
	size := int64(len(data))
	return ReadResult{
		Text: fmt.Sprintf("[Image %s (%s, %s)]", path, mime, output.FormatSize(size)),
		Details: ReadDetails{
			Path: path, Kind: KindImage, MimeType: mime, Offset: 1,
			Truncation: output.Truncation{TotalBytes: size, OutputBytes: size},
		},
		Image:    data,
		MimeType: mime,
	}, nil
}
