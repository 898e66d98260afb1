package mcpserver

import (
	"io"
	"log/slog"
	"net"
	"os"
	"syscall"
	"testing"
	"time"
)

func TestConnCapFor(t *testing.T) {
	for _, c := range []struct {
		nofile   uint64
		sessions int
		want     int
	}{
		{150, 0, 75}, {1024, 0, 512}, {100, 0, 36}, {20, 0, 8}, {4, 0, 8}, {1 << 62, 0, 1 << 16},
		// The descriptors of the sessions' jobs are left to them.
		{1024, 200, 1024 - 200*SessionDescriptors - connReserve},
		// A limit too small for the sessions: one connection each.
		{12000, 4096, 4096},
		{1 << 20, 4096, 1 << 16},
	} {
		if got := connCapFor(c.nofile, c.sessions); got != c.want {
			t.Errorf("connCapFor(%d, %d) = %d, want %d", c.nofile, c.sessions, got, c.want)
		}
	}
	if need := DescriptorsFor(4096); need > 20000 {
		t.Errorf("DescriptorsFor(4096) = %d: a node of 4,096 sessions with jobs must fit in a limit of 20,000", need)
	}
	for _, n := range []int{0, 1, 64, 4096} {
		if got := SessionsFor(DescriptorsFor(n)); got != n {
			t.Errorf("SessionsFor(DescriptorsFor(%d)) = %d", n, got)
		}
	}
}

// Past the cap, the oldest connection without an authorised request is
// closed; an authorised one never is.
func TestLimitListenerClosesOldestUnauthorised(t *testing.T) {
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln := newLimitListener(inner, 3, slog.New(slog.DiscardHandler))
	defer ln.Close()
	accepted := make(chan *limitedConn)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted <- c.(*limitedConn)
		}
	}()
	var clients []net.Conn
	dial := func() *limitedConn {
		c, err := net.Dial("tcp", inner.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		clients = append(clients, c)
		return <-accepted
	}
	defer func() {
		for _, c := range clients {
			c.Close()
		}
	}()
	first := dial()
	first.authorise()
	dial()
	dial()
	dial() // over the cap: the second goes
	dial() // and the third
	closed := func(i int) bool {
		clients[i].SetReadDeadline(time.Now().Add(100 * time.Millisecond))
		_, err := clients[i].Read(make([]byte, 1))
		return err == io.EOF
	}
	for i, want := range []bool{false, true, true, false, false} {
		if got := closed(i); got != want {
			t.Errorf("connection %d: closed %v, want %v", i+1, got, want)
		}
	}
}

// An accept that fails for want of descriptors closes the oldest
// connection without an authorised request to free one; with none to
// close, it waits, longer each time, instead of spinning.
func TestLimitListenerOutOfDescriptors(t *testing.T) {
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	fake := &emfileListener{Listener: inner}
	ln := newLimitListener(fake, 10, slog.New(slog.DiscardHandler))
	defer ln.Close()
	accept := func() *limitedConn {
		c, err := ln.Accept()
		if err != nil {
			t.Fatal(err)
		}
		return c.(*limitedConn)
	}
	client, err := net.Dial("tcp", inner.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()

	// No connection to close: three failures, three waits (5+10+20 ms).
	fake.fail = 3
	start := time.Now()
	first := accept()
	if fake.calls != 4 || time.Since(start) < 35*time.Millisecond {
		t.Errorf("%d accepts in %v: want 4, with waits between them", fake.calls, time.Since(start))
	}

	// The first connection made no authorised request: it goes.
	client2, err := net.Dial("tcp", inner.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer client2.Close()
	fake.fail, fake.calls = 1, 0
	accept()
	if fake.calls != 2 {
		t.Errorf("%d accepts, want 2", fake.calls)
	}
	client.SetReadDeadline(time.Now().Add(time.Second))
	if _, err := client.Read(make([]byte, 1)); err != io.EOF {
		t.Errorf("the connection without an authorised request was not closed to free a descriptor: %v", err)
	}
	first.Close()
}

// An emfileListener fails its next fail accepts with EMFILE.
type emfileListener struct {
	net.Listener
	fail, calls int
}

func (l *emfileListener) Accept() (net.Conn, error) {
	l.calls++
	if l.fail > 0 {
		l.fail--
		return nil, &net.OpError{Op: "accept", Net: "tcp", Err: os.NewSyscallError("accept4", syscall.EMFILE)}
	}
	return l.Listener.Accept()
}
