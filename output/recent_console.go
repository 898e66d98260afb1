package output

import (
	"bytes"
	"os"
)

// Recent returns up to n bytes of the end of the sanitized stream as it
// stands, for a person watching it (the console). It changes nothing a
// result shows next. The caller serialises it with Write, as for every
// method.
func (p *Pipeline) Recent(n int) []byte {
	var b []byte
	switch {
	case !p.decided:
		// The first bytes wait, raw, for the text-or-binary decision:
		// shown with their control bytes dropped.
		return bytes.Map(func(r rune) rune {
			if r < 0x20 && r != '\n' && r != '\t' || r == 0x7f {
				return -1
			}
			return r
		}, tailOf(p.sniff, n))
	case p.binary:
		return nil
	case p.keep != nil:
		b = p.keep.bytes()
	case p.opt.Spill == nil || p.spillErr != nil || p.spillCapped && p.keep == nil:
		// Nothing keeps the stream: the end LastLine keeps (512 bytes
		// or more) is all there is.
		b = p.tail.buf
	case p.spill != nil:
		from := max(0, p.spilled-int64(n))
		f, err := os.Open(p.spill.Path())
		if err != nil {
			return nil
		}
		defer f.Close()
		b = make([]byte, p.spilled-from)
		k, _ := f.ReadAt(b, from)
		b = b[:k]
	default:
		b = p.prefix
	}
	// The sanitizer holds back the last lines a redraw may still
	// rewrite: shown as they stand.
	held := p.san.held()
	out := append(append([]byte(nil), tailOf(b, n)...), held...)
	return tailOf(out, n)
}

// tailOf is the last n bytes of b.
func tailOf(b []byte, n int) []byte {
	if len(b) > n {
		return b[len(b)-n:]
	}
	return b
}
