package mcpserver

import (
	"context"
	"fmt"
	"hash/maphash"
	"iter"
	"slices"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The events of the sessions' response streams are kept so that a client
// whose connection dropped can resume a stream (Last-Event-ID) and still
// get its call's result. The SDK's MemoryEventStore does that behind one
// mutex that every request takes twice (a stream opened, its answer
// appended), and when it is full it frees room by walking every stream of
// every session, under that mutex. A node of thousands of sessions kept
// every request waiting in line there: a runtime trace of one under load
// found 85 % of the time requests spent blocked on a mutex was spent on
// that one. eventStore keeps the same bound with no lock shared by all:
// the sessions are spread over shards, each with its own lock, its share
// of the bytes and a queue of its events in the order they came, so that
// room is made by dropping the oldest events, one at a time, in constant
// time.

// eventShards is the number of shards. Each holds eventStoreBytes /
// eventShards: with 32 MiB, 2 MiB, tens of results at the 50,000-character
// budget.
const eventShards = 16

// An eventStore is an mcp.EventStore that holds at most about maxBytes of
// event data over all sessions (each shard may go over its share by the
// one event being added, as the SDK's store may).
type eventStore struct {
	seed   maphash.Seed
	shards [eventShards]eventShard
}

// An eventShard holds the streams of the sessions that hash to it.
type eventShard struct {
	mu       sync.Mutex
	maxBytes int
	nBytes   int
	sessions map[string]map[string]*eventList // session id → stream id → events
	// queue holds the list of each event kept, oldest first, one entry an
	// event: the oldest event of the shard is the first event of the
	// list at queue[head]. Entries of a closed session's lists are
	// skipped.
	queue []*eventList
	head  int
	// stale counts the entries of queue[head:] whose list is closed.
	stale int
}

// An eventList is the events of one stream that are still kept.
type eventList struct {
	first  int // the stream index of data[0]
	data   [][]byte
	closed bool // its session ended: its queue entries are stale
}

func newEventStore(maxBytes int) *eventStore {
	s := &eventStore{seed: maphash.MakeSeed()}
	for i := range s.shards {
		s.shards[i] = eventShard{maxBytes: max(maxBytes/eventShards, 1), sessions: map[string]map[string]*eventList{}}
	}
	return s
}

func (s *eventStore) shard(session string) *eventShard {
	return &s.shards[maphash.String(s.seed, session)%eventShards]
}

// list returns the events of a stream, made on first use; sh.mu is held.
func (sh *eventShard) list(session, stream string) *eventList {
	streams := sh.sessions[session]
	if streams == nil {
		streams = map[string]*eventList{}
		sh.sessions[session] = streams
	}
	l := streams[stream]
	if l == nil {
		l = &eventList{}
		streams[stream] = l
	}
	return l
}

// Open implements mcp.EventStore.
func (s *eventStore) Open(_ context.Context, session, stream string) error {
	sh := s.shard(session)
	sh.mu.Lock()
	sh.list(session, stream)
	sh.mu.Unlock()
	return nil
}

// Append implements mcp.EventStore: the oldest events of the shard are
// dropped first until data fits (data itself is always kept).
func (s *eventStore) Append(_ context.Context, session, stream string, data []byte) error {
	sh := s.shard(session)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	l := sh.list(session, stream)
	for sh.nBytes+len(data) > sh.maxBytes && sh.dropOldest() {
	}
	l.data = append(l.data, data)
	sh.nBytes += len(data)
	sh.queue = append(sh.queue, l)
	return nil
}

// dropOldest drops the oldest event kept and reports whether there was
// one; sh.mu is held.
func (sh *eventShard) dropOldest() bool {
	for sh.head < len(sh.queue) {
		l := sh.queue[sh.head]
		sh.queue[sh.head] = nil
		sh.head++
		if l.closed {
			sh.stale--
			continue
		}
		sh.nBytes -= len(l.data[0])
		l.data[0] = nil
		l.data = l.data[1:]
		l.first++
		sh.compact()
		return true
	}
	sh.compact()
	return false
}

// compact moves the queue to the front of its array once most of it is
// spent, so that it does not grow without end.
func (sh *eventShard) compact() {
	if sh.head > 64 && sh.head*2 > len(sh.queue) {
		n := copy(sh.queue, sh.queue[sh.head:])
		clear(sh.queue[n:])
		sh.queue = sh.queue[:n]
		sh.head = 0
	}
}

// After implements mcp.EventStore: the events of a stream after index,
// or an error (mcp.ErrEventsPurged) when one of them was dropped.
func (s *eventStore) After(_ context.Context, session, stream string, index int) iter.Seq2[[]byte, error] {
	sh := s.shard(session)
	events, err := func() ([][]byte, error) {
		sh.mu.Lock()
		defer sh.mu.Unlock()
		streams, ok := sh.sessions[session]
		if !ok {
			return nil, fmt.Errorf("unknown session ID %q", session)
		}
		l, ok := streams[stream]
		if !ok {
			return nil, fmt.Errorf("unknown stream ID %q in session %q", stream, session)
		}
		start := index + 1 - l.first
		if start < 0 {
			return nil, fmt.Errorf("index %d, stream ID %q, session %q: %w", index, stream, session, mcp.ErrEventsPurged)
		}
		if start >= len(l.data) {
			return nil, nil
		}
		// A copy: dropping an event clears its slot.
		return slices.Clone(l.data[start:]), nil
	}()
	return func(yield func([]byte, error) bool) {
		if err != nil {
			yield(nil, err)
			return
		}
		for _, d := range events {
			if !yield(d, nil) {
				return
			}
		}
	}
}

// SessionClosed implements mcp.EventStore: the session's events are
// dropped.
func (s *eventStore) SessionClosed(_ context.Context, session string) error {
	sh := s.shard(session)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	for _, l := range sh.sessions[session] {
		for _, d := range l.data {
			sh.nBytes -= len(d)
		}
		// Each event kept has its entry in the queue.
		sh.stale += len(l.data)
		l.data, l.closed = nil, true
	}
	delete(sh.sessions, session)
	if sh.stale > 64 && sh.stale*2 > len(sh.queue)-sh.head {
		// Mostly ended sessions' entries: a shard that never fills would
		// otherwise keep them (and their lists) for ever.
		sh.queue = slices.DeleteFunc(sh.queue[sh.head:], func(l *eventList) bool { return l.closed })
		sh.head, sh.stale = 0, 0
	}
	return nil
}
