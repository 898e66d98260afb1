package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// after collects what the store replays of a stream after index.
func after(t *testing.T, s *eventStore, session, stream string, index int) ([]string, error) {
	t.Helper()
	var got []string
	for d, err := range s.After(context.Background(), session, stream, index) {
		if err != nil {
			return got, err
		}
		got = append(got, string(d))
	}
	return got, nil
}

// checkBytes checks that every shard's count is the data it holds.
func checkBytes(t *testing.T, s *eventStore) {
	t.Helper()
	for i := range s.shards {
		sh := &s.shards[i]
		sh.mu.Lock()
		n := 0
		for _, streams := range sh.sessions {
			for _, l := range streams {
				for _, d := range l.data {
					n += len(d)
				}
			}
		}
		if n != sh.nBytes {
			t.Errorf("shard %d counts %d bytes, holds %d", i, sh.nBytes, n)
		}
		sh.mu.Unlock()
	}
}

func TestEventStoreReplays(t *testing.T) {
	ctx := context.Background()
	s := newEventStore(1 << 20)
	s.Open(ctx, "s1", "a")
	for i := range 3 {
		s.Append(ctx, "s1", "a", []byte("event"+strconv.Itoa(i)))
	}
	got, err := after(t, s, "s1", "a", 0)
	if err != nil || fmt.Sprint(got) != "[event1 event2]" {
		t.Errorf("After(0) = %v, %v; want [event1 event2]", got, err)
	}
	if got, err := after(t, s, "s1", "a", -1); err != nil || len(got) != 3 {
		t.Errorf("After(-1) = %v, %v; want all three", got, err)
	}
	if got, err := after(t, s, "s1", "a", 2); err != nil || len(got) != 0 {
		t.Errorf("After(2) = %v, %v; want nothing", got, err)
	}
	if _, err := after(t, s, "s1", "b", 0); err == nil {
		t.Error("a stream never opened replayed")
	}
	if _, err := after(t, s, "nobody", "a", 0); err == nil {
		t.Error("an unknown session replayed")
	}
	s.SessionClosed(ctx, "s1")
	if _, err := after(t, s, "s1", "a", 0); err == nil {
		t.Error("a closed session replayed")
	}
	checkBytes(t, s)
}

// sameShard returns n session ids that fall in one shard.
func sameShard(s *eventStore, n int) []string {
	want := s.shard("s0")
	ids := []string{"s0"}
	for i := 1; len(ids) < n; i++ {
		if id := "s" + strconv.Itoa(i); s.shard(id) == want {
			ids = append(ids, id)
		}
	}
	return ids
}

// Making room drops the oldest events of the shard, one at a time, and
// touches no other stream: the SDK's store dropped the first event of
// every stream of every session at once, walking them all under a lock
// every request takes.
func TestEventStoreDropsOldestFirst(t *testing.T) {
	ctx := context.Background()
	s := newEventStore(eventShards * 1000) // 1,000 bytes a shard
	ids := sameShard(s, 10)
	event := make([]byte, 100)
	for _, id := range ids { // ten events of 100 bytes: the shard is full
		s.Open(ctx, id, "x")
		s.Append(ctx, id, "x", event)
	}
	s.Append(ctx, ids[0], "y", make([]byte, 250)) // three must go
	for i, id := range ids {
		_, err := after(t, s, id, "x", -1)
		if dropped := errors.Is(err, mcp.ErrEventsPurged); dropped != (i < 3) {
			t.Errorf("session %d (of %d, oldest first): dropped %v, want %v (%v)", i, len(ids), dropped, i < 3, err)
		}
	}
	if got, err := after(t, s, ids[0], "y", -1); err != nil || len(got) != 1 {
		t.Errorf("the event added: %d events, %v", len(got), err)
	}
	// One event larger than the shard's share is still kept whole.
	s.Append(ctx, ids[1], "z", make([]byte, 5000))
	if got, err := after(t, s, ids[1], "z", -1); err != nil || len(got) != 1 || len(got[0]) != 5000 {
		t.Errorf("an event over the share: %d events, %v", len(got), err)
	}
	checkBytes(t, s)
}

// The store holds at most its bytes (and an event a shard over) however
// many sessions and streams there are.
func TestEventStoreBound(t *testing.T) {
	ctx := context.Background()
	const max = 64 << 10
	s := newEventStore(max)
	event := make([]byte, 300)
	for i := range 5000 {
		id := "s" + strconv.Itoa(i%700)
		s.Append(ctx, id, strconv.Itoa(i), event)
	}
	total := 0
	for i := range s.shards {
		total += s.shards[i].nBytes
	}
	if total > max+eventShards*len(event) {
		t.Errorf("the store holds %d bytes, over its %d", total, max)
	}
	checkBytes(t, s)
}

// The queue of a shard that never fills does not keep the events of
// ended sessions for ever.
func TestEventStoreForgetsEndedSessions(t *testing.T) {
	ctx := context.Background()
	s := newEventStore(1 << 30)
	for i := range 20000 {
		id := "s" + strconv.Itoa(i)
		s.Append(ctx, id, "a", []byte("x"))
		s.SessionClosed(ctx, id)
	}
	for i := range s.shards {
		if n := len(s.shards[i].queue) - s.shards[i].head; n > 1000 {
			t.Errorf("shard %d still queues %d entries of ended sessions", i, n)
		}
		if n := len(s.shards[i].sessions); n != 0 {
			t.Errorf("shard %d still holds %d sessions", i, n)
		}
	}
	checkBytes(t, s)
}

// Sessions appending, replaying and closing at once keep the counts
// right (run with -race).
func TestEventStoreConcurrent(t *testing.T) {
	ctx := context.Background()
	s := newEventStore(eventShards * 4096)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 2000 {
				id := fmt.Sprintf("s%d-%d", g, i%50)
				stream := strconv.Itoa(i % 7)
				s.Open(ctx, id, stream)
				s.Append(ctx, id, stream, make([]byte, i%300))
				for range s.After(ctx, id, stream, i%5-1) {
				}
				if i%97 == 0 {
					s.SessionClosed(ctx, id)
				}
			}
		})
	}
	wg.Wait()
	checkBytes(t, s)
}
