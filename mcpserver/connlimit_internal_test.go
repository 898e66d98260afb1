package mcpserver

import (
	"io"
	"log/slog"
	"net"
	"testing"
	"time"
)

func TestConnCapFor(t *testing.T) {
	for _, c := range []struct {
		nofile uint64
		want   int
	}{{150, 75}, {1024, 512}, {100, 36}, {20, 10}, {4, 8}, {1 << 62, 1 << 16}} {
		if got := connCapFor(c.nofile); got != c.want {
			t.Errorf("connCapFor(%d) = %d, want %d", c.nofile, got, c.want)
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
