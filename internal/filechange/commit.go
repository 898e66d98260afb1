package filechange

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spillway-dev/spillway/tool"
)

// A fileOp is the change of one file within a call.
type fileOp struct {
	display string
	loc     Location
	root    *os.Root
	cur     *current // the file before (nil: it did not exist)
	content []byte   // the new content, in memory
	// stream, instead of content, writes the new content (a big file);
	// newSum and newSize are then set by it.
	stream  func(w io.Writer) error
	newSum  string
	newSize int64
	remove  bool
	// For a streamed edit: the journal file of the replaced ranges and
	// the diff already written.
	old       string
	oldWhole  bool
	regions   []Region
	diffText  []byte
	added     int64
	removed   int64
	movedFrom string // the display path a move came from
	notes     []string
	written   bool
	// afterWrite, when set, runs once the op is written (a streamed
	// edit's journal regions and diff).
	afterWrite func()
}

func (op *fileOp) close() {
	op.cur.close()
	if op.root != nil {
		op.root.Close()
	}
}

func closeOps(ops []*fileOp) {
	for _, op := range ops {
		op.close()
	}
}

// commit writes the ops, all or none: if one fails, those written are put
// back as they were. It keeps the replaced content in the journal, writes
// the diffs to diffOut and returns the changes.
func (s *Session) commit(ctx context.Context, toolName string, ops []*fileOp, diffOut io.Writer) ([]Change, error) {
	s.nextID++
	id := s.nextID
	entry := &Entry{ID: id, Tool: toolName, At: time.Now()}
	s.keepOld(id, ops)
	if err := s.writeAll(ctx, ops); err != nil {
		return nil, err
	}
	var changes []Change
	for i, op := range ops {
		ch, jf := s.changeOf(id, i, op, diffOut)
		entry.Files = append(entry.Files, jf)
		changes = append(changes, ch)
	}
	s.record(entry)
	return changes, nil
}

// keepOld puts the content each op replaces in the journal, unless a
// streamed edit kept its replaced ranges already.
func (s *Session) keepOld(id int, ops []*fileOp) {
	for i, op := range ops {
		if op.cur == nil || op.old != "" {
			continue
		}
		var r io.Reader = bytes.NewReader(op.cur.data)
		if op.cur.data == nil {
			op.cur.f.Seek(0, io.SeekStart)
			r = op.cur.f
		}
		op.old, op.oldWhole = s.keep(id, i, r, op.cur.size)
	}
}

// writeAll writes the ops, writes first, then removals, so that a
// failure part way leaves nothing deleted that must be rebuilt from the
// journal; on a failure it puts back what it wrote.
func (s *Session) writeAll(ctx context.Context, ops []*fileOp) error {
	for _, removal := range []bool{false, true} {
		for _, op := range ops {
			if op.remove != removal {
				continue
			}
			if err := ctx.Err(); err != nil {
				s.rollback(ops)
				return err
			}
			if err := s.applyOp(op); err != nil {
				s.rollback(ops)
				return err
			}
			op.written = true
			if op.afterWrite != nil {
				op.afterWrite()
			}
		}
	}
	return nil
}

// applyOp removes or writes one op's file.
func (s *Session) applyOp(op *fileOp) error {
	switch {
	case op.remove:
		if err := op.root.Remove(op.loc.Rel); err != nil {
			return fmt.Errorf("delete %s: %w", op.display, err)
		}
		return nil
	case op.cur != nil && op.cur.interrupted != nil:
		return s.replaceInterrupted(op)
	default:
		return s.writeOp(op)
	}
}

// changeOf says what a written op changed, for the caller and for the
// journal, writes its diff to diffOut and notes the file's new state.
func (s *Session) changeOf(id, i int, op *fileOp, diffOut io.Writer) (Change, JournalFile) {
	ch := Change{FileChange: tool.FileChange{Path: op.display}, Journal: id, Real: op.loc.Real(), Notes: op.notes}
	if op.cur != nil && len(op.cur.notes) > 0 {
		ch.Notes = append(append([]string{}, op.cur.notes...), op.notes...)
	}
	jf := JournalFile{Display: op.display, Real: op.loc.Real(), Old: op.old, Complete: op.oldWhole, Regions: op.regions, Exists: !op.remove}
	if op.cur != nil {
		ch.BytesBefore, ch.SHA256Before = op.cur.size, op.cur.sum
		jf.Existed, jf.SHA256Before, jf.SizeBefore = true, op.cur.sum, op.cur.size
	}
	switch {
	case op.remove:
		ch.Op = "delete"
		s.forget(ch.Real)
	case op.movedFrom != "":
		ch.Op, ch.Path, ch.MovedTo = "move", op.movedFrom, op.display
	case op.cur == nil:
		ch.Op = "create"
	default:
		ch.Op = "update"
	}
	if !op.remove {
		ch.BytesAfter, ch.SHA256After = op.newSize, op.newSum
		jf.SHA256After = op.newSum
		s.wrote(ch.Real, op.newSum, op.newSize)
	}
	var d bytes.Buffer
	ch.Added, ch.Removed = opDiff(&d, op)
	if diffOut != nil {
		diffOut.Write(d.Bytes())
	}
	if s.cfg.Journal != nil && d.Len() > 0 {
		jf.Diff = s.journalDiff(id, i, d.Bytes())
	}
	return ch, jf
}

// opDiff writes the diff of an op to d and returns the lines added and
// removed: the one a streamed edit made, else one computed from the
// content in memory (none for a big file written otherwise).
func opDiff(d *bytes.Buffer, op *fileOp) (added, removed int64) {
	if op.diffText != nil {
		d.Write(op.diffText)
		return op.added, op.removed
	}
	if op.cur != nil && op.cur.data == nil {
		return 0, 0
	}
	var oldR io.Reader = bytes.NewReader(nil)
	nameA, nameB := "a/"+op.display, "b/"+op.display
	if op.cur == nil {
		nameA = "/dev/null"
	} else {
		oldR = bytes.NewReader(op.cur.data)
	}
	if op.remove {
		nameB = "/dev/null"
	}
	if op.movedFrom != "" {
		nameA = "a/" + op.movedFrom
	}
	st, _ := diff(d, oldR, bytes.NewReader(op.content), nameA, nameB)
	return st.Added, st.Removed
}

// journalDiff writes an op's diff to the journal and returns its path,
// "" when it could not be written whole.
func (s *Session) journalDiff(id, i int, diff []byte) string {
	w, path, err := s.cfg.Journal(fmt.Sprintf("journal-%d-%d.diff", id, i))
	if err != nil {
		return ""
	}
	_, werr := w.Write(diff)
	if w.Close() == nil && werr == nil {
		return path
	}
	return ""
}

// writeOp writes one op's new content.
func (s *Session) writeOp(op *fileOp) error {
	if op.stream != nil {
		notes, _, err := write(op.root, op.loc, op.stream)
		if err != nil {
			return fmt.Errorf("%s: %w", op.display, err)
		}
		op.notes = append(op.notes, notes...)
		return nil
	}
	notes, _, err := write(op.root, op.loc, bytesFill(op.content))
	if err != nil {
		return fmt.Errorf("%s: %w (nothing was changed)", op.display, err)
	}
	op.notes = append(op.notes, notes...)
	op.newSum, op.newSize = sum(op.content), int64(len(op.content))
	return nil
}

// rollback puts back the files the ops wrote or removed.
func (s *Session) rollback(ops []*fileOp) {
	for i := len(ops) - 1; i >= 0; i-- {
		op := ops[i]
		if !op.written {
			continue
		}
		switch {
		case op.cur == nil:
			op.root.Remove(op.loc.Rel)
		case op.cur.data != nil:
			write(op.root, op.loc, bytesFill(op.cur.data))
		}
	}
}
