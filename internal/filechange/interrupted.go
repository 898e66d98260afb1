package filechange

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spillway-dev/spillway/internal/safewrite"
	"github.com/spillway-dev/spillway/output"
)

// An InterruptedError refuses a change to a file whose last in-place
// write (a file with hard links is overwritten in place) was interrupted
// and left it holding neither its old content nor the new one: most
// likely part of the new content over the old. The old content is whole
// in a sidecar beside the file; the error names it and the two ways on.
type InterruptedError struct {
	Path string
	// Old is the sidecar with the old content (absolute), New the
	// temporary file with the content that was being written ("" when
	// gone).
	Old, New string
	In       *safewrite.Interrupted
}

func (e *InterruptedError) Error() string {
	in := e.In
	var b strings.Builder
	fmt.Fprintf(&b, "%s: an earlier in-place write of this file was interrupted (spillway, pid %d, at %s, through the name %s; the file had %d hard links, so it was being written in place)",
		e.Path, in.PID, in.Started.Local().Format("2006-01-02 15:04:05"), in.Name, in.Links)
	fmt.Fprintf(&b, ", and the file now holds neither its old content nor the new one whole (%s, sha256 %s), most likely part of the new content over the old. Nothing was changed.", output.FormatSize(in.NowSize), short(in.NowSHA256))
	fmt.Fprintf(&b, " Its old content is whole in %s (%s, sha256 %s)", e.Old, output.FormatSize(in.OldSize), short(in.OldSHA256))
	if e.New != "" {
		fmt.Fprintf(&b, "; the content that was being written is whole in %s (%s, sha256 %s)", e.New, output.FormatSize(in.NewSize), short(in.NewSHA256))
	}
	fmt.Fprintf(&b, ". To put the old content back, copy it over the file in place, which keeps the hard links (cp %s %s); the next change of the file then removes the leftovers. "+
		"To keep what the file holds now and replace it, write it with expected_sha256 %s; the old content then stays in a file of its own, which the result names, until you remove it.",
		shellQuote(e.Old), shellQuote(e.Path), in.NowSHA256)
	return b.String()
}

func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./+=:,@") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// checkInterrupted looks for what an interrupted in-place write of the
// file left beside it (one Lstat when there is nothing). A file that
// holds its old content whole, or the new one whole, is fine: the
// leftovers go, with a note. A mixed file is refused, unless ack is the
// hash of what it holds now (write's expected_sha256): c then carries the
// record, and commit sets the old content aside before it writes.
func (s *Session) checkInterrupted(root *os.Root, loc Location, display string, fi fs.FileInfo, c *current, ack string) error {
	in, err := safewrite.Pending(root, loc.Rel, fi)
	if err != nil {
		return fmt.Errorf("%s: %w; nothing was changed", display, err)
	}
	if in == nil {
		return nil
	}
	if in.Live {
		return fmt.Errorf("%s is being written in place right now, it seems (it has hard links): spillway pid %d began at %s and is still running. Nothing was changed; try again in a moment. "+
			"If that process is not writing it (a pid taken by another after a crash), the file's old content is whole in %s: check the file, put that content back if it is needed (cp, which keeps the links), then remove it and %s",
			display, in.PID, in.Started.Local().Format("2006-01-02 15:04:05"), s.abs(loc, in.Old), s.abs(loc, in.Record))
	}
	switch in.State {
	case safewrite.Untouched, safewrite.Finished:
		what := "before it changed a byte, or the file was put back from its copy: the file holds its old content whole"
		if in.State == safewrite.Finished {
			what = "after it wrote the file whole"
		}
		if err := in.Clear(root); err != nil {
			return fmt.Errorf("%s: an earlier in-place write of this file was interrupted %s, and its leftovers (%s) could not be removed: %w; nothing was changed", display, what, s.abs(loc, in.Old), err)
		}
		c.notes = append(c.notes, fmt.Sprintf("an earlier in-place write of this file was interrupted %s; its leftovers (a copy of the old content, %s) were removed", what, s.abs(loc, in.Old)))
		return nil
	}
	if ack != "" && ack == in.NowSHA256 {
		c.interrupted = in
		return nil
	}
	e := &InterruptedError{Path: display, Old: s.abs(loc, in.Old), In: in}
	if in.New != "" {
		e.New = s.abs(loc, in.New)
	}
	return e
}

// abs is the absolute path of rel, a path under loc's base.
func (s *Session) abs(loc Location, rel string) string {
	return filepath.Join(loc.Base, filepath.FromSlash(rel))
}

// replaceInterrupted writes op, whose file an interrupted in-place write
// left mixed and which the caller replaces knowingly: the old content's
// copy is set aside under a name of its own first (a new in-place write
// makes a sidecar of the same name), and removed after the write when
// the write put that old content back.
func (s *Session) replaceInterrupted(op *fileOp) error {
	in := op.cur.interrupted
	kept, put, err := in.SetAside(op.root)
	if err != nil {
		return fmt.Errorf("%s: set aside the old content an interrupted write kept (%s): %w; nothing was changed", op.display, s.abs(op.loc, in.Old), err)
	}
	if err := s.writeOp(op); err != nil {
		put()
		return err
	}
	if in.New != "" {
		op.root.Remove(in.New)
	}
	if op.newSum == in.OldSHA256 {
		op.root.Remove(kept)
		op.notes = append(op.notes, "this write put back the content the file had before an interrupted in-place write; that write's leftovers were removed")
		return nil
	}
	op.notes = append(op.notes, fmt.Sprintf("the content the file had before an interrupted in-place write (%s, sha256 %s) stays in %s until you remove it", output.FormatSize(in.OldSize), short(in.OldSHA256), s.abs(op.loc, kept)))
	return nil
}
