package filechange

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/spillway-dev/spillway/internal/codexpatch"
	"github.com/spillway-dev/spillway/internal/textedit"
	"github.com/spillway-dev/spillway/output"
)

// Edit replaces exact strings in a file (textedit's rules), all edits or
// none, and writes the diff to diffOut.
func (s *Session) Edit(ctx context.Context, p string, edits []textedit.Edit, diffOut io.Writer) (Change, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	loc, root, err := s.locate(p)
	if err != nil {
		return Change{}, err
	}
	cur, err := s.open(root, loc, p, false)
	if err != nil {
		root.Close()
		return Change{}, err
	}
	op := &fileOp{display: p, loc: loc, root: root, cur: cur}
	defer op.close()
	if cur == nil {
		return Change{}, fmt.Errorf("%s does not exist: edit changes an existing file; use write to create one", p)
	}
	if cur.data == nil {
		if err := s.prepareBig(ctx, op, edits); err != nil {
			return Change{}, err
		}
	} else {
		if isBinary(cur.data) {
			return Change{}, fmt.Errorf("%s %w", p, ErrBinary)
		}
		if err := s.checkFresh(p, loc.Real(), cur); err != nil {
			return Change{}, err
		}
		out, _, err := textedit.Apply(cur.data, edits)
		if err != nil {
			return Change{}, fmt.Errorf("%s: %w", p, err)
		}
		op.content = out
	}
	chs, err := s.commit(ctx, "edit", []*fileOp{op}, diffOut)
	if err != nil {
		return Change{}, err
	}
	return chs[0], nil
}

// prepareBig readies the edit of a file too big to hold: one edit,
// streamed into the temporary file; the file's hash, computed on the way,
// is checked against what the session saw before the temporary file is
// renamed over it. Only the replaced ranges go to the journal, and the
// diff is made around them from the old file, still open.
func (s *Session) prepareBig(ctx context.Context, op *fileOp, edits []textedit.Edit) error {
	if len(edits) != 1 {
		return fmt.Errorf("%s is %d MB, over the %d MB held in memory: give one edit at a time", op.display, op.cur.size>>20, s.cfg.MaxInMemory>>20)
	}
	head := make([]byte, 8<<10)
	n, _ := op.cur.f.ReadAt(head, 0)
	if isBinary(head[:n]) {
		return fmt.Errorf("%s %w", op.display, ErrBinary)
	}
	eol := eolSample(op.cur.f)
	var journal io.WriteCloser
	if s.cfg.Journal != nil {
		if w, path, err := s.cfg.Journal(fmt.Sprintf("journal-%d-0.old", s.nextID+1)); err == nil {
			journal, op.old = w, path
		}
	}
	var (
		step    textedit.Step
		oldLens []int64
		jerr    error
	)
	op.stream = func(w io.Writer) error {
		if _, err := op.cur.f.Seek(0, io.SeekStart); err != nil {
			return err
		}
		hr := newHashingWriter(io.Discard)
		hw := newHashingWriter(w)
		var err error
		step, err = textedit.Stream(ctx, io.TeeReader(op.cur.f, hr), hw, edits[0], eol, func(r textedit.Range, old []byte) {
			oldLens = append(oldLens, r.End-r.Start)
			if journal != nil && jerr == nil {
				_, jerr = journal.Write(old)
			}
		})
		if journal != nil {
			if cerr := journal.Close(); jerr == nil {
				jerr = cerr
			}
		}
		if err != nil {
			return fmt.Errorf("%s: %w", op.display, err)
		}
		op.cur.sum, op.cur.size = hr.sum(), hr.n
		if err := s.checkFresh(op.display, op.loc.Real(), op.cur); err != nil {
			return err
		}
		op.newSum, op.newSize = hw.sum(), hw.n
		return nil
	}
	op.afterWrite = func() {
		op.oldWhole = journal != nil && jerr == nil
		var delta int64
		nb := int64(len(step.New))
		op.regions = []Region{}
		for i, r := range step.Ranges {
			op.regions = append(op.regions, Region{NewStart: r.Start + delta, NewLen: nb, OldLen: oldLens[i]})
			delta += nb - oldLens[i]
		}
		var d bytes.Buffer
		op.added, op.removed = regionDiff(&d, op.cur.f, op.cur.size, step, op.display)
		op.diffText = d.Bytes()
	}
	return nil
}

// Write creates or replaces a file whole. Over an existing file the
// session has not seen, expectedSHA256 must be the file's hash; a UTF-8
// BOM and a CRLF line style of the old file are kept.
func (s *Session) Write(ctx context.Context, p string, content string, expectedSHA256 string, diffOut io.Writer) (Change, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	loc, root, err := s.locate(p)
	if err != nil {
		return Change{}, err
	}
	expectedSHA256 = strings.ToLower(strings.TrimSpace(expectedSHA256))
	cur, err := s.openAck(root, loc, p, true, expectedSHA256)
	if err != nil {
		root.Close()
		return Change{}, err
	}
	op := &fileOp{display: p, loc: loc, root: root, cur: cur}
	defer op.close()
	if cur == nil {
		if expectedSHA256 != "" {
			return Change{}, fmt.Errorf("%s does not exist, yet expected_sha256 was given: nothing was written. Leave expected_sha256 out to create it", p)
		}
		if _, ok := s.SeenAs(loc.Real()); ok {
			if err := s.checkFresh(p, loc.Real(), nil); err != nil {
				return Change{}, err
			}
		}
	} else {
		if err := s.checkFresh(p, loc.Real(), cur); err != nil {
			return Change{}, err
		}
		_, seen := s.SeenAs(loc.Real())
		switch {
		case expectedSHA256 != "" && expectedSHA256 != cur.sum:
			return Change{}, fmt.Errorf("%s: expected_sha256 %s is not the file's (sha256 %s, %d bytes): nothing was written. Read the file to see what it holds now", p, short(expectedSHA256), short(cur.sum), cur.size)
		case expectedSHA256 == "" && !seen:
			return Change{}, fmt.Errorf("%s exists and this session has not read it: nothing was written. Read it first, or give expected_sha256 (its sha256) to replace it knowingly", p)
		}
	}
	b := []byte(content)
	if cur != nil {
		var head []byte
		if cur.data != nil {
			head = cur.data
		} else {
			head = make([]byte, 8<<20)
			n, _ := cur.f.ReadAt(head, 0)
			head = head[:n]
		}
		if bytes.HasPrefix(head, textedit.BOM) && !bytes.HasPrefix(b, textedit.BOM) {
			b = append(append([]byte{}, textedit.BOM...), b...)
		}
		if textedit.EOL(head) == "\r\n" && !isBinary(head) {
			b = []byte(textedit.WithEOL(string(b), "\r\n"))
		}
	}
	op.content = b
	chs, err := s.commit(ctx, "write", []*fileOp{op}, diffOut)
	if err != nil {
		return Change{}, err
	}
	return chs[0], nil
}

// tooBigForPatch is the refusal of a file over the in-memory limit a
// patch touches: a patch holds every file it changes in memory, so that
// it can check each hunk applies before writing any, and can give all
// back. It says the figures and what to use instead.
func tooBigForPatch(display, how string, size, limit int64) error {
	instead := "change it with edit, one old_string a call: edit streams a file this big in bounded memory"
	switch how {
	case "delete":
		instead = "delete it with bash (rm)"
	case "move":
		instead = "it is the destination of *** Move to:; move the file with bash (mv) and change it with edit"
	case "add":
		instead = "*** Add File: would replace it; use write to replace it whole"
	}
	return fmt.Errorf("%s is %s, over the %s apply_patch holds in memory (it checks every file's hunks before it writes any): nothing was changed. Leave it out of the patch and %s",
		display, output.FormatSize(size), output.FormatSize(limit), instead)
}

// ApplyPatch applies a patch in Codex's format: every file or none.
func (s *Session) ApplyPatch(ctx context.Context, input string, diffOut io.Writer) ([]Change, error) {
	return s.ApplyPatchIn(ctx, "", input, diffOut)
}

// ApplyPatchIn is ApplyPatch with the patch's relative paths taken from
// dir ("" for the session's cwd), as a `cd DIR && apply_patch` call has it.
func (s *Session) ApplyPatchIn(ctx context.Context, dir, input string, diffOut io.Writer) ([]Change, error) {
	p, err := codexpatch.Parse(input)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	run := &patchRun{s: s, dir: dir, files: map[string]*patchFile{}}
	defer run.close()
	for _, h := range p.Hunks {
		if err := run.apply(h); err != nil {
			return nil, err
		}
	}
	ops := run.ops()
	if len(ops) == 0 {
		return nil, errors.New("the patch leaves every file as it was: nothing was changed")
	}
	return s.commit(ctx, "apply_patch", ops, diffOut)
}

// A patchFile is the state of one file a patch touches, as the hunks
// before have left it.
type patchFile struct {
	op      fileOp
	exists  bool
	data    []byte
	touched bool
}

// A patchRun applies a patch's hunks in memory, file by file, before
// anything is written.
type patchRun struct {
	s     *Session
	dir   string
	files map[string]*patchFile // by real path
	order []string              // real paths, in the order first touched
	all   []*patchFile          // every file opened, to close
}

// close closes every file the run opened.
func (r *patchRun) close() {
	for _, f := range r.all {
		f.op.close()
	}
}

// get opens a file the patch touches; how is what the hunk does to it,
// for the refusal of a file too big to hold.
func (r *patchRun) get(display, how string) (*patchFile, error) {
	where := display
	if r.dir != "" && !filepath.IsAbs(where) {
		where = filepath.Join(r.dir, where)
	}
	loc, root, err := r.s.locate(where)
	if err != nil {
		return nil, err
	}
	if f, ok := r.files[loc.Real()]; ok {
		root.Close()
		return f, nil
	}
	cur, err := r.s.open(root, loc, display, true)
	if err != nil {
		root.Close()
		return nil, err
	}
	f := &patchFile{op: fileOp{display: display, loc: loc, root: root, cur: cur}, exists: cur != nil}
	r.all = append(r.all, f)
	if cur != nil {
		if cur.data == nil {
			return f, tooBigForPatch(display, how, cur.size, r.s.cfg.MaxInMemory)
		}
		if err := r.s.checkFresh(display, loc.Real(), cur); err != nil {
			return f, err
		}
		f.data = cur.data
	}
	r.files[loc.Real()] = f
	r.order = append(r.order, loc.Real())
	return f, nil
}

// overwrite checks that replacing an existing file the patch did not
// read through its context is something the session has seen.
func (r *patchRun) overwrite(f *patchFile, what string) error {
	if !f.exists || f.touched {
		return nil
	}
	if _, ok := r.s.SeenAs(f.op.loc.Real()); !ok {
		return fmt.Errorf("%s: %s exists and this session has not read it: nothing was changed. Use *** Update File: to change it, or read it first", what, f.op.display)
	}
	return nil
}

// apply applies one hunk to the state of its file.
func (r *patchRun) apply(h codexpatch.Hunk) error {
	kind := h.Kind.String()
	hunk := fmt.Sprintf("patch line %d (*** %s File: %s)", h.Line, strings.ToUpper(kind[:1])+kind[1:], h.Path)
	f, err := r.get(h.Path, kind)
	if err != nil {
		return fmt.Errorf("%s: %w", hunk, err)
	}
	switch h.Kind {
	case codexpatch.Add:
		if err := r.overwrite(f, hunk); err != nil {
			return err
		}
		f.data, f.exists, f.touched = codexpatch.AddContent(h), true, true
	case codexpatch.Delete:
		if !f.exists {
			return fmt.Errorf("%s: %s does not exist: nothing was changed", hunk, h.Path)
		}
		f.data, f.exists, f.touched = nil, false, true
	case codexpatch.Update:
		return r.update(f, h, hunk)
	}
	return nil
}

// update applies an update hunk to f, and moves the result when the
// hunk says *** Move to:.
func (r *patchRun) update(f *patchFile, h codexpatch.Hunk, hunk string) error {
	if !f.exists {
		return fmt.Errorf("%s: %s does not exist: nothing was changed (use *** Add File: to create it)", hunk, h.Path)
	}
	if isBinary(f.data) {
		return fmt.Errorf("%s: %s %w", hunk, h.Path, ErrBinary)
	}
	out, err := codexpatch.ApplyUpdate(f.data, h)
	if err != nil {
		return fmt.Errorf("%s: %w; nothing was changed", hunk, err)
	}
	if h.MoveTo == "" {
		f.data, f.touched = out, true
		return nil
	}
	dst, err := r.get(h.MoveTo, "move")
	if err != nil {
		return fmt.Errorf("%s: *** Move to: %w", hunk, err)
	}
	if dst != f {
		if err := r.overwrite(dst, hunk+" *** Move to: "+h.MoveTo); err != nil {
			return err
		}
		f.data, f.exists, f.touched = nil, false, true
		dst.op.movedFrom = h.Path
	}
	dst.data, dst.exists, dst.touched = out, true, true
	return nil
}

// ops returns the writes and removals the patch comes to, in the order
// the files were first touched: a file added then deleted, or left as it
// was, has none.
func (r *patchRun) ops() []*fileOp {
	var ops []*fileOp
	for _, real := range r.order {
		f := r.files[real]
		if !f.touched {
			continue
		}
		op := &f.op
		switch {
		case !f.exists && op.cur == nil:
			continue // added then deleted
		case !f.exists:
			op.remove = true
		default:
			op.content = f.data
			if op.cur != nil && op.movedFrom == "" && bytes.Equal(op.cur.data, f.data) {
				continue // unchanged
			}
		}
		ops = append(ops, op)
	}
	return ops
}
