package output

// A tailRing keeps the last size bytes written to it. Its buffer grows
// as bytes come, up to size: a stream that writes little (a server runs
// thousands of jobs that print nothing for hours) holds little, where a
// buffer of the full size made up for each stream held most of a node's
// memory.
type tailRing struct {
	size int
	buf  []byte // len(buf) < size only while filling, with pos == len(buf)
	pos  int    // next write position in buf
	full bool   // buf has wrapped at least once
	n    int64  // bytes ever written
}

func newTailRing(size int) *tailRing {
	return &tailRing{size: size}
}

func (r *tailRing) write(b []byte) {
	r.n += int64(len(b))
	size := r.size
	if size == 0 {
		return
	}
	if len(r.buf) < size {
		if len(r.buf)+len(b) < size {
			r.buf = appendBounded(r.buf, b, size)
			r.pos = len(r.buf)
			return
		}
		// Filled: the buffer takes its full size, and wraps from here.
		whole := make([]byte, size)
		copy(whole, r.buf)
		r.buf = whole
	}
	if len(b) >= size {
		copy(r.buf, b[len(b)-size:])
		r.pos = 0
		r.full = true
		return
	}
	k := copy(r.buf[r.pos:], b)
	if k < len(b) {
		copy(r.buf, b[k:])
		r.pos = len(b) - k
		r.full = true
	} else {
		r.pos += k
		if r.pos == size {
			r.pos = 0
			r.full = true
		}
	}
}

// bytes returns the kept bytes in order, as a new slice.
func (r *tailRing) bytes() []byte {
	if !r.full {
		return append([]byte(nil), r.buf[:r.pos]...)
	}
	out := make([]byte, 0, len(r.buf))
	out = append(out, r.buf[r.pos:]...)
	return append(out, r.buf[:r.pos]...)
}

func (r *tailRing) reset() {
	r.pos, r.full, r.n = 0, false, 0
	if len(r.buf) < r.size {
		r.buf = r.buf[:0]
	}
}

// appendBounded appends b to buf, growing it by doubling but never past
// limit bytes of capacity; len(buf)+len(b) must not exceed limit.
func appendBounded(buf, b []byte, limit int) []byte {
	if need := len(buf) + len(b); need > cap(buf) {
		grown := make([]byte, len(buf), min(limit, max(need, 2*cap(buf), 512)))
		copy(grown, buf)
		buf = grown
	}
	return append(buf, b...)
}
