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
	old := normOld(e.OldString)
	nb := []byte(WithEOL(e.NewString, eol))
	st := Step{New: nb}
	var (
		carry   []byte
		off     int64 // offset in r of carry[0]
		line    = 1   // line of carry[0]
		count   int
		lines   []int
		writing = true
		started bool
		eof     bool
		buf     = make([]byte, streamBlock)
	)
	write := func(p []byte) error {
		if !writing || len(p) == 0 {
			return nil
		}
		_, err := w.Write(p)
		return err
	}
	for !eof {
		if err := ctx.Err(); err != nil {
			return st, err
		}
		n, err := io.ReadFull(r, buf)
		carry = append(carry, buf[:n]...)
		switch {
		case err == io.EOF || err == io.ErrUnexpectedEOF:
			eof = true
		case err != nil:
			return st, err
		}
		if !started {
			if len(carry) < len(BOM) && !eof {
				continue
			}
			started = true
			if bytes.HasPrefix(carry, BOM) {
				if err := write(BOM); err != nil {
					return st, err
				}
				carry, off = carry[len(BOM):], int64(len(BOM))
			}
		}
		limit := len(carry)
		if !eof && limit > 0 && carry[limit-1] == '\r' {
			limit-- // it may begin a "\r\n" the next block ends
		}
		v := viewOf(carry[:limit])
		safe := len(v.n)
		if !eof {
			safe = max(0, len(v.n)-(len(old)-1))
		}
		pos, wrote, lineAt := 0, int64(0), 0
		for {
			i := bytes.Index(v.n[pos:], old)
			if i < 0 || pos+i >= safe {
				break
			}
			s := pos + i
			count++
			line += bytes.Count(v.n[lineAt:s], []byte{'\n'})
			lineAt = s
			if e.ReplaceAll || len(lines) < maxLinesShown {
				lines = append(lines, line)
			}
			if count > 1 && !e.ReplaceAll {
				writing = false
			}
			rg := Range{v.file(int64(s)), v.file(int64(s + len(old)))}
			if writing {
				if err := write(carry[wrote:rg.Start]); err != nil {
					return st, err
				}
				if err := write(nb); err != nil {
					return st, err
				}
				abs := Range{off + rg.Start, off + rg.End}
				st.Ranges = append(st.Ranges, abs)
				if save != nil {
					save(abs, carry[rg.Start:rg.End])
				}
			}
			wrote = rg.End
			pos = s + len(old)
		}
		cut := max(pos, safe)
		cutB := v.file(int64(cut))
		if err := write(carry[wrote:cutB]); err != nil {
			return st, err
		}
		line += bytes.Count(v.n[lineAt:cut], []byte{'\n'})
		off += cutB
		carry = append(carry[:0], carry[cutB:]...)
	}
	if err := write(carry); err != nil {
		return st, err
	}
	switch {
	case count == 0:
		return st, &MatchError{Edits: 1, Note: "(The closest lines are not searched for in a file this large: use grep to find the text.)"}
	case count > 1 && !e.ReplaceAll:
		return st, &MatchError{Edits: 1, Count: count, Lines: lines}
	}
	st.Lines = lines
	return st, nil
}

// ErrTooLarge is returned by callers that hold a file in memory when it
// is over their limit.
var ErrTooLarge = errors.New("the file is too large to hold in memory")
