package output

// A tailRing keeps the last cap bytes written to it.
type tailRing struct {
	buf  []byte
	pos  int   // next write position in buf
	full bool  // buf has wrapped at least once
	n    int64 // bytes ever written
}

func newTailRing(size int) *tailRing {
	return &tailRing{buf: make([]byte, size)}
}

func (r *tailRing) write(b []byte) {
	r.n += int64(len(b))
	size := len(r.buf)
	if size == 0 {
		return
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
}
