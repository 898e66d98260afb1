package textedit

import (
	"bytes"
	"context"
	"errors"
	"io"
)

// streamBlock is how much of the file Stream reads at a time.
const streamBlock = 1 << 20

// Stream copies r to w with e applied, holding at most a block of the
// file and old_string in memory, whatever the file's size. eol is the
// line end the new text takes. save, when not nil, is given each replaced
// range of r with the bytes it held. If Old does not occur exactly once
// (or at all, with All), it returns a *MatchError; w then holds part of
// the file and must be thrown away.
func Stream(ctx context.Context, r io.Reader, w io.Writer, e Edit, eol string, save func(Range, []byte)) (Step, error) {
	if err := check(e); err != nil {
		return Step{}, err
	}
	nb := []byte(WithEOL(e.NewString, eol))
	s := &streamer{w: w, all: e.ReplaceAll, old: normOld(e.OldString), save: save, st: Step{New: nb}, line: 1, writing: true}
	var (
		started bool
		eof     bool
		buf     = make([]byte, streamBlock)
	)
	for !eof {
		if err := ctx.Err(); err != nil {
			return s.st, err
		}
		n, err := io.ReadFull(r, buf)
		s.carry = append(s.carry, buf[:n]...)
		switch {
		case err == io.EOF || err == io.ErrUnexpectedEOF:
			eof = true
		case err != nil:
			return s.st, err
		}
		if !started {
			if len(s.carry) < len(BOM) && !eof {
				continue
			}
			started = true
			if err := s.skipBOM(); err != nil {
				return s.st, err
			}
		}
		if err := s.block(eof); err != nil {
			return s.st, err
		}
	}
	if err := s.write(s.carry); err != nil {
		return s.st, err
	}
	return s.result()
}

// A streamer is the state of a Stream between blocks.
type streamer struct {
	w    io.Writer
	all  bool   // replace every match
	old  []byte // old_string as matched
	save func(Range, []byte)
	st   Step

	carry   []byte // what is read and not yet written
	off     int64  // offset in r of carry[0]
	line    int    // line of carry[0]
	count   int    // matches so far
	lines   []int  // lines of the matches to show
	writing bool   // false once a second match makes the edit fail
}

// write writes p to w, unless the edit already failed.
func (s *streamer) write(p []byte) error {
	if !s.writing || len(p) == 0 {
		return nil
	}
	_, err := s.w.Write(p)
	return err
}

// skipBOM writes a BOM that begins the file through and leaves it out of
// what is matched.
func (s *streamer) skipBOM() error {
	if !bytes.HasPrefix(s.carry, BOM) {
		return nil
	}
	if err := s.write(BOM); err != nil {
		return err
	}
	s.carry, s.off = s.carry[len(BOM):], int64(len(BOM))
	return nil
}

// block replaces the matches in carry and writes it out, all but the
// tail a match could still begin in (all of it at eof), which stays in
// carry for the next block.
func (s *streamer) block(eof bool) error {
	limit := len(s.carry)
	if !eof && limit > 0 && s.carry[limit-1] == '\r' {
		limit-- // it may begin a "\r\n" the next block ends
	}
	v := viewOf(s.carry[:limit])
	safe := len(v.n)
	if !eof {
		safe = max(0, len(v.n)-(len(s.old)-1))
	}
	pos, wrote, lineAt := 0, int64(0), 0
	for {
		i := bytes.Index(v.n[pos:], s.old)
		if i < 0 || pos+i >= safe {
			break
		}
		m := pos + i
		s.count++
		s.line += bytes.Count(v.n[lineAt:m], []byte{'\n'})
		lineAt = m
		if s.all || len(s.lines) < maxLinesShown {
			s.lines = append(s.lines, s.line)
		}
		if s.count > 1 && !s.all {
			s.writing = false
		}
		rg := Range{v.file(int64(m)), v.file(int64(m + len(s.old)))}
		if err := s.replace(wrote, rg); err != nil {
			return err
		}
		wrote = rg.End
		pos = m + len(s.old)
	}
	cut := max(pos, safe)
	cutB := v.file(int64(cut))
	if err := s.write(s.carry[wrote:cutB]); err != nil {
		return err
	}
	s.line += bytes.Count(v.n[lineAt:cut], []byte{'\n'})
	s.off += cutB
	s.carry = append(s.carry[:0], s.carry[cutB:]...)
	return nil
}

// replace writes carry from wrote up to the match rg, then the new text
// in its place, and notes the range replaced.
func (s *streamer) replace(wrote int64, rg Range) error {
	if !s.writing {
		return nil
	}
	if err := s.write(s.carry[wrote:rg.Start]); err != nil {
		return err
	}
	if err := s.write(s.st.New); err != nil {
		return err
	}
	abs := Range{s.off + rg.Start, s.off + rg.End}
	s.st.Ranges = append(s.st.Ranges, abs)
	if s.save != nil {
		s.save(abs, s.carry[rg.Start:rg.End])
	}
	return nil
}

// result is the step, or the error of an edit that matched too few or
// too many times.
func (s *streamer) result() (Step, error) {
	switch {
	case s.count == 0:
		return s.st, &MatchError{Edits: 1, Note: "(The closest lines are not searched for in a file this large: use grep to find the text.)"}
	case s.count > 1 && !s.all:
		return s.st, &MatchError{Edits: 1, Count: s.count, Lines: s.lines}
	}
	s.st.Lines = s.lines
	return s.st, nil
}

// ErrTooLarge is returned by callers that hold a file in memory when it
// is over their limit.
var ErrTooLarge = errors.New("the file is too large to hold in memory")
