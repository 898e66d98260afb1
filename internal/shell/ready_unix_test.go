//go:build unix

package shell

import (
	"os"
	"testing"
)

// awaitReadable returns once a pipe has something to read, whether it
// came before the wait or during it, and false once the reader is
// stopped; the reader takes its buffer only then.
func TestAwaitReadable(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	w.Write([]byte("x"))
	// Already there, twice: the poller's news of it is spent by the
	// first wait, the kernel is asked again.
	for i := range 2 {
		if !awaitReadable(r) {
			t.Fatalf("wait %d: a pipe holding a byte was not readable", i)
		}
	}
	r.Read(make([]byte, 8))
	done := make(chan bool)
	go func() { done <- awaitReadable(r) }()
	w.Write([]byte("y"))
	if !<-done {
		t.Fatal("a byte written during the wait did not end it")
	}
	r.Read(make([]byte, 8))
	w.Close()
	if !awaitReadable(r) {
		t.Fatal("the pipe's end was not readable")
	}

	r2, w2, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r2.Close()
	defer w2.Close()
	var st readStop
	st.watch(r2)
	go func() { done <- awaitReadable(r2) }()
	st.stop()
	if <-done {
		t.Fatal("a stopped wait reported the pipe readable")
	}
}
