package files

import (
	"bytes"
	"sort"
)

// Spacing of the checkpoints of a line index. A checkpoint is added at the
// first line start past either stride; when an index holds more than
// maxCheckpoints, every other one is dropped and both strides double, so an
// index never costs more than maxCheckpoints*16 bytes whatever the file.
var (
	strideLines    int64 = 1024
	strideBytes    int64 = 256 << 10
	maxCheckpoints       = 1 << 16
	// countBlock is the block the index counts newlines in: a checkpoint
	// falls on the last line start of the block that crosses a stride.
	countBlock = 64 << 10
)

// A checkpoint says that line Line (0-based) starts at byte Off.
type checkpoint struct {
	Line int64
	Off  int64
}

// A lineIndex knows how many lines a file has and where every so many of
// them start, so that a page deep in the file is found by a seek and a
// short scan instead of a rescan from the start.
type lineIndex struct {
	totalLines  int64
	size        int64
	checkpoints []checkpoint // sorted; the first is {0, 0}
}

// lookup returns the last checkpoint at or before line (0-based).
func (x *lineIndex) lookup(line int64) checkpoint {
	i := sort.Search(len(x.checkpoints), func(i int) bool { return x.checkpoints[i].Line > line })
	return x.checkpoints[i-1]
}

// An indexBuilder builds a lineIndex in one streaming pass: it is fed the
// file's bytes in order, from the start.
type indexBuilder struct {
	lines       int64 // '\n' bytes so far: the 0-based number of the line now starting
	off         int64 // bytes so far
	last        byte
	strideLines int64
	strideBytes int64
	checkpoints []checkpoint
	// chunkLines is the number of '\n' in the last chunk added.
	chunkLines int64
}

func newIndexBuilder() *indexBuilder {
	return &indexBuilder{
		strideLines: strideLines,
		strideBytes: strideBytes,
		checkpoints: []checkpoint{{0, 0}},
	}
}

// add counts the lines of the next chunk of the file and places the
// checkpoints that fall in it.
func (b *indexBuilder) add(chunk []byte) {
	before := b.lines
	for len(chunk) > 0 {
		block := chunk[:min(len(chunk), countBlock)]
		chunk = chunk[len(block):]
		n := int64(bytes.Count(block, newline))
		b.lines += n
		if n > 0 {
			cp := b.checkpoints[len(b.checkpoints)-1]
			start := b.off + int64(bytes.LastIndexByte(block, '\n')) + 1
			if b.lines-cp.Line >= b.strideLines || start-cp.Off >= b.strideBytes {
				b.checkpoints = append(b.checkpoints, checkpoint{b.lines, start})
				if len(b.checkpoints) > maxCheckpoints {
					b.compact()
				}
			}
		}
		b.off += int64(len(block))
		b.last = block[len(block)-1]
	}
	b.chunkLines = b.lines - before
}

// compact halves the checkpoints and doubles the strides.
func (b *indexBuilder) compact() {
	kept := b.checkpoints[:0]
	for i := 0; i < len(b.checkpoints); i += 2 {
		kept = append(kept, b.checkpoints[i])
	}
	b.checkpoints = kept
	b.strideLines *= 2
	b.strideBytes *= 2
}

// finish returns the index of everything added.
func (b *indexBuilder) finish() *lineIndex {
	total := b.lines
	if b.off > 0 && b.last != '\n' {
		total++ // a last line without its '\n'
	}
	cps := make([]checkpoint, len(b.checkpoints))
	copy(cps, b.checkpoints)
	return &lineIndex{totalLines: total, size: b.off, checkpoints: cps}
}

var newline = []byte{'\n'}

// nthNewline returns the index in b just past its n-th '\n' (n ≥ 1), or
// -1 and the number of '\n' in b when b has fewer.
func nthNewline(b []byte, n int64) (int, int64) {
	const block = 4 << 10
	var seen int64
	i := 0
	for i < len(b) {
		end := min(len(b), i+block)
		c := int64(bytes.Count(b[i:end], newline))
		if seen+c < n {
			seen += c
			i = end
			continue
		}
		for {
			k := bytes.IndexByte(b[i:end], '\n')
			i += k + 1
			seen++
			if seen == n {
				return i, n
			}
		}
	}
	return -1, seen
}
