package files

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"sync"
)

// Buffer sizes of the scans. A full scan (which builds the line index)
// reads big chunks to count lines at the speed of wc -l; a page scan after
// a seek reads only as far as the page goes.
const (
	fullScanBuffer = 256 << 10
	pageScanBuffer = 64 << 10
)

var fullBuffers = sync.Pool{New: func() any { b := make([]byte, fullScanBuffer); return &b }}

// scan reads f from the line start from and feeds pg from line target
// (0-based, ≥ from.Line) on. With an indexBuilder b (then from must be the
// start of the file), it reads to the end and counts every line into b;
// without one it stops as soon as the page is complete. pg == nil only
// builds the index. With end ≥ 0 it reads no byte at or past end, so that
// a file that grows while it is read is read as the version that was
// stat'ed (a writer faster than the scan cannot make it endless); end < 0
// reads to EOF (a file under /proc says it is empty and is not).
func (t *Tools) scan(ctx context.Context, f *os.File, from checkpoint, target int64, pg sink, b *indexBuilder, end int64) error {
	if _, err := f.Seek(from.Off, io.SeekStart); err != nil {
		return err
	}
	var buf []byte
	if b != nil {
		p := fullBuffers.Get().(*[]byte)
		defer fullBuffers.Put(p)
		buf = *p
	} else {
		buf = make([]byte, pageScanBuffer)
	}
	page := pageFeed{pg: pg, line: from.Line, target: target, feeding: pg != nil && from.Line == target, done: pg == nil}
	off := from.Off
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		want := buf
		if end >= 0 {
			if off >= end {
				break
			}
			want = buf[:min(int64(len(buf)), end-off)]
		}
		n, err := f.Read(want)
		off += int64(n)
		t.scanned.Add(int64(n))
		if n > 0 {
			if b != nil {
				b.add(buf[:n])
			}
			if !page.done && page.add(buf[:n], b) && b == nil {
				return nil
			}
		}
		if err == io.EOF || (n == 0 && err == nil) {
			break
		}
		if err != nil {
			return err
		}
	}
	if !page.done {
		pg.close()
	}
	return nil
}

// A pageFeed passes a scan's bytes to a sink from the start of line
// target on.
type pageFeed struct {
	pg      sink
	line    int64 // number of the line the next byte belongs to (0-based)
	target  int64
	feeding bool // line target is reached: every byte goes to pg
	done    bool // pg wants no more
}

// add takes the next chunk of the file, skipping the lines before
// target (b, when not nil, has counted the chunk's already), and reports
// whether the page is complete.
func (p *pageFeed) add(chunk []byte, b *indexBuilder) bool {
	if !p.feeding {
		var lines int64
		if b != nil {
			lines = b.chunkLines
		} else {
			lines = countLines(chunk)
		}
		if p.line+lines < p.target {
			p.line += lines
			return false
		}
		k, _ := nthNewline(chunk, p.target-p.line)
		p.line = p.target
		chunk = chunk[k:]
		p.feeding = true
	}
	if len(chunk) > 0 && p.pg.write(chunk) {
		p.done = true
	}
	return p.done
}

// A sink takes a file's bytes from the start of a line on: a page of
// lines, or the characters of one line.
type sink interface {
	// write takes the next bytes and reports true once it wants no more.
	write(b []byte) bool
	// close ends the file.
	close()
}

func countLines(b []byte) int64 { return int64(bytes.Count(b, newline)) }

// errIsCancel reports whether err is the context's.
func errIsCancel(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}
