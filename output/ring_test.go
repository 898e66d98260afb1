package output

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// A ring keeps the last size bytes whatever the sizes of the writes, as
// its buffer grows, once it is full, and after a reset.
func TestTailRingKeepsTheEnd(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, size := range []int{1, 7, 512, 1000, 51201} {
		r := newTailRing(size)
		var all []byte
		for i := range 400 {
			if i == 200 {
				r.reset()
				all = all[:0]
			}
			b := make([]byte, rng.IntN(3*size/2+2))
			for j := range b {
				b[j] = byte(rng.IntN(256))
			}
			r.write(b)
			all = append(all, b...)
			want := all[max(0, len(all)-size):]
			if got := r.bytes(); !bytes.Equal(got, want) {
				t.Fatalf("size %d, write %d: kept %d bytes, want the last %d", size, i, len(got), len(want))
			}
			if cap(r.buf) > size {
				t.Fatalf("size %d: the buffer grew to %d", size, cap(r.buf))
			}
			if r.n != int64(len(all)) {
				t.Fatalf("size %d: counted %d bytes, wrote %d", size, r.n, len(all))
			}
		}
	}
}

// A pipeline that has been given little holds little: the window's head
// and ring grow with what is written instead of being made at their full
// size (50 KiB and 20 KiB by default) for a stream that may never write.
func TestIdlePipelineHoldsLittle(t *testing.T) {
	p := New(Options{})
	if held := cap(p.win.head) + cap(p.win.ring.buf); held != 0 {
		t.Errorf("a new pipeline holds %d bytes of window", held)
	}
	p.Write([]byte("a line\n"))
	if held := cap(p.win.head) + cap(p.win.ring.buf); held > 1024 {
		t.Errorf("a pipeline given a line holds %d bytes of window", held)
	}
	for range 1000 {
		p.Write(bytes.Repeat([]byte("x"), 99))
		p.Write([]byte("\n"))
	}
	if h, r := cap(p.win.head), cap(p.win.ring.buf); h > p.win.headCap || r > DefaultLimits.MaxBytes+1 {
		t.Errorf("a full window holds a head of %d and a ring of %d bytes, over its %d and %d", h, r, p.win.headCap, DefaultLimits.MaxBytes+1)
	}
}
