package filechange

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/spillway-dev/spillway/internal/textedit"
)

// An Entry of the journal: one call's change, which can be shown again
// and undone while its files still hold what it wrote.
type Entry struct {
	ID    int
	Tool  string // edit, write, apply_patch, undo
	At    time.Time
	Files []JournalFile
}

// A JournalFile is what the journal keeps of one file of a change.
type JournalFile struct {
	Display      string // the path as the call gave it
	Real         string
	Existed      bool // before the change
	Exists       bool // after it
	SHA256Before string
	SHA256After  string
	SizeBefore   int64
	// Old is the journal file holding the replaced content ("" when the
	// file did not exist, or no journal is kept); for an edit of a big
	// file it holds only the replaced ranges' bytes, listed in Regions.
	Old      string
	Regions  []Region
	Complete bool // Old holds all it should (the spill cap did not cut it)
	Diff     string
}

// A Region is a range an edit replaced: where its new bytes are in the
// file the edit wrote, and how many old bytes they replaced.
type Region struct {
	NewStart, NewLen, OldLen int64
}

// Journal returns the session's journal entries, oldest first.
func (s *Session) Journal() []Entry {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Entry, len(s.journal))
	for i, e := range s.journal {
		out[i] = *e
	}
	return out
}

// keep saves old content (whole, from r) in a new journal file and
// returns its path and whether it was saved whole.
func (s *Session) keep(id int, n int, r io.Reader, size int64) (string, bool) {
	if s.cfg.Journal == nil {
		return "", false
	}
	w, path, err := s.cfg.Journal(fmt.Sprintf("journal-%d-%d.old", id, n))
	if err != nil {
		return "", false
	}
	written, err := io.Copy(w, r)
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	return path, err == nil && written == size
}

func (s *Session) record(e *Entry) {
	s.journal = append(s.journal, e)
}

// Undo restores what the journal entry id replaced, if every file it
// changed still holds what the change wrote; else nothing is changed and
// the error says which file differs. The undo is itself a journal entry.
func (s *Session) Undo(ctx context.Context, id int, diffOut io.Writer) ([]Change, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var e *Entry
	for _, x := range s.journal {
		if x.ID == id {
			e = x
		}
	}
	if e == nil {
		return nil, fmt.Errorf("no journal entry %d in this session: the entries are %s", id, s.entryIDs())
	}
	var ops []*fileOp
	for _, f := range e.Files {
		loc, root, err := s.locate(f.Real)
		if err != nil {
			closeOps(ops)
			return nil, err
		}
		cur, err := s.open(root, loc, f.Display, true)
		if err != nil {
			root.Close()
			closeOps(ops)
			return nil, err
		}
		switch {
		case f.Exists && cur == nil:
			err = fmt.Errorf("cannot undo %d: %s was deleted since the change; nothing was changed", id, f.Display)
		case !f.Exists && cur != nil:
			err = fmt.Errorf("cannot undo %d: %s exists again since the change deleted it; nothing was changed", id, f.Display)
		case cur != nil && cur.sum != f.SHA256After:
			err = fmt.Errorf("cannot undo %d: %s changed since the change wrote it (sha256 %s, now %s); nothing was changed", id, f.Display, short(f.SHA256After), short(cur.sum))
		case f.Existed && (f.Old == "" || !f.Complete):
			err = fmt.Errorf("cannot undo %d: the journal did not keep all of %s's old content (the spill cap or budget cut it)", id, f.Display)
		}
		if err != nil {
			cur.close()
			root.Close()
			closeOps(ops)
			return nil, err
		}
		op := &fileOp{display: f.Display, loc: loc, root: root, cur: cur}
		if f.Existed {
			old, err := s.oldContent(ctx, f, cur)
			if err != nil {
				op.close()
				closeOps(ops)
				return nil, fmt.Errorf("cannot undo %d: %w", id, err)
			}
			op.content, op.stream = old.data, old.fill
			op.newSum, op.newSize = old.sum, old.size
		} else {
			op.remove = true
		}
		ops = append(ops, op)
	}
	defer closeOps(ops)
	return s.commit(ctx, "undo", ops, diffOut)
}

func (s *Session) entryIDs() string {
	if len(s.journal) == 0 {
		return "none yet"
	}
	var ids []string
	for _, e := range s.journal {
		ids = append(ids, fmt.Sprint(e.ID))
	}
	return strings.Join(ids, ", ")
}

// oldValue is the content a file had before a change.
type oldValue struct {
	data []byte
	fill func(w io.Writer) error // for a big file rebuilt by streaming
	sum  string
	size int64
}

// oldContent reads back the content the change replaced.
func (s *Session) oldContent(ctx context.Context, f JournalFile, cur *current) (oldValue, error) {
	j, err := os.Open(f.Old)
	if errors.Is(err, fs.ErrNotExist) {
		return oldValue{}, fmt.Errorf("the journal's copy of %s was deleted to keep the spill files within their budget", f.Display)
	}
	if err != nil {
		return oldValue{}, err
	}
	if f.Regions == nil {
		defer j.Close()
		data, err := io.ReadAll(j)
		if err != nil {
			return oldValue{}, err
		}
		return oldValue{data: data, sum: sum(data), size: int64(len(data))}, nil
	}
	// A streamed edit: the current file with the regions' old bytes put back.
	fill := func(w io.Writer) error {
		defer j.Close()
		if _, err := cur.f.Seek(0, io.SeekStart); err != nil {
			return err
		}
		r := bufio.NewReaderSize(cur.f, 1<<20)
		jr := bufio.NewReader(j)
		var at int64
		for _, g := range f.Regions {
			if err := ctx.Err(); err != nil {
				return err
			}
			if _, err := io.CopyN(w, r, g.NewStart-at); err != nil {
				return err
			}
			if _, err := r.Discard(int(g.NewLen)); err != nil {
				return err
			}
			if _, err := io.CopyN(w, jr, g.OldLen); err != nil {
				return err
			}
			at = g.NewStart + g.NewLen
		}
		_, err := io.Copy(w, r)
		return err
	}
	return oldValue{fill: fill, sum: f.SHA256Before, size: f.SizeBefore}, nil
}

// Show writes the diff of journal entry id again.
func (s *Session) Show(id int, w io.Writer) error {
	s.mu.Lock()
	var e *Entry
	for _, x := range s.journal {
		if x.ID == id {
			e = x
		}
	}
	s.mu.Unlock()
	if e == nil {
		return fmt.Errorf("no journal entry %d in this session", id)
	}
	for _, f := range e.Files {
		if f.Diff == "" {
			fmt.Fprintf(w, "%s: no diff was kept\n", f.Display)
			continue
		}
		d, err := os.Open(f.Diff)
		if errors.Is(err, fs.ErrNotExist) {
			fmt.Fprintf(w, "%s: the diff was deleted to keep the spill files within their budget\n", f.Display)
			continue
		}
		if err != nil {
			return err
		}
		_, err = io.Copy(w, d)
		d.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

// hashingWriter hashes what passes through it.
type hashingWriter struct {
	w io.Writer
	h interface {
		io.Writer
		Sum([]byte) []byte
	}
	n int64
}

func newHashingWriter(w io.Writer) *hashingWriter {
	return &hashingWriter{w: w, h: sha256.New()}
}

func (hw *hashingWriter) Write(p []byte) (int, error) {
	n, err := hw.w.Write(p)
	hw.h.Write(p[:n])
	hw.n += int64(n)
	return n, err
}

func (hw *hashingWriter) sum() string { return hex.EncodeToString(hw.h.Sum(nil)) }

// eolSample is the dominant line end of the head of a big file.
func eolSample(f *os.File) string {
	head := make([]byte, 8<<20)
	n, _ := f.ReadAt(head, 0)
	return textedit.EOL(bytes.TrimPrefix(head[:n], textedit.BOM))
}
