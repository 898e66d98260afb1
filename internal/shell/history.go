package shell

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/spillway-dev/spillway/internal/spill"
	"github.com/spillway-dev/spillway/output"
	"github.com/spillway-dev/spillway/tool"
)

// The history of a Runner: every command a call started, with what it
// takes to show any part of its output again without running anything —
// macos-shell's "store full, truncate on retrieval", done with the spill
// files. A stream that was spilled is read back from its spill file (and,
// when the file reached its cap, from the kept end of the stream); a
// stream that fit is kept in memory, within inlineBudget for the whole
// history.
//
// The history is a ring of maxHistory records: the oldest finished one is
// forgotten first, and the store is told its spill files are no longer
// needed (unless a cached result still shows them); it deletes them once
// no result has named them for the keep_named time (spill.Store.Forget).

const (
	maxHistory = 200
	// inlineBudget bounds the memory of the streams kept inline; past it
	// the oldest records lose theirs (they can no longer be shown again).
	inlineBudget = 16 << 20
	// tailKeep is how much of the end of a capped stream is kept: the
	// stream ceiling, so that a tail shown again within any limit is whole.
	tailKeep = 1 << 20
)

// record is a call as the history keeps it: what the history tool shows
// of it, how its shell ended (the record shows the code; its status line
// names the signal too), and what it takes to show its output again.
type record struct {
	tool.HistoryRecord
	key    string // the cache key; "" when not cacheable
	data   *recordData
	status exitStatus
}

// ended is when the record's shell exited (to the millisecond).
func (r *record) ended() time.Time {
	return r.Start.Add(time.Duration(r.DurationMS) * time.Millisecond)
}

// recordData is what a record's streams can be shown again from. Cached
// results share the data of the run they show.
type recordData struct {
	refs   int
	stdout streamData
	stderr *streamData // nil when merged
	done   chan struct{}
	once   sync.Once // completes the record
}

// streamData is one stream's source: the stream in memory, or its spill
// file and the kept end.
type streamData struct {
	output.Stream
	inline   bool // Whole is kept
	tailPath string
	tailErr  string
}

// history is a Runner's ring of records.
type history struct {
	mu      sync.Mutex
	records []*record // oldest first
	nextID  int
	inline  int64 // bytes of Whole kept
	store   *spill.Store
}

// start records a call whose job was just launched, and watches the job
// to complete the record when it ends.
func (h *history) start(in command, pl *plan, j *job) *record {
	rec := &record{
		HistoryRecord: tool.HistoryRecord{Command: in.Command, Args: slices.Clone(in.Args), Session: in.Session,
			Cwd: pl.dir, Start: j.start, Running: true, Merged: j.stderr == nil},
		key:  pl.cacheKey,
		data: &recordData{refs: 1, done: make(chan struct{})},
	}
	h.add(rec)
	j.completeRecord = func() { h.complete(rec, j) }
	goGuarded("the history's record of the call", func() {
		hookAt("the history's record of the call")
		h.finish(rec, j)
	}, func(err error) { h.failed(rec, j, err) })
	return rec
}

// complete completes the record of a job that has ended, before the
// call that reports the end returns, so that the history shows it at
// once; finish, which waits for the end, may not have run yet.
func (h *history) complete(rec *record, j *job) {
	if isClosed(j.exited) && isClosed(j.readersDone) {
		h.finish(rec, j)
	}
}

// add puts rec in the ring with a new id, forgetting the oldest finished
// record when the ring is full.
func (h *history) add(rec *record) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.nextID++
	rec.ID = h.nextID
	if len(h.records) >= maxHistory {
		for i, old := range h.records {
			if !old.Running {
				h.records = slices.Delete(h.records, i, i+1)
				h.release(old.data)
				break
			}
		}
	}
	h.records = append(h.records, rec)
}

// release drops a record's hold on its data, and frees the data's memory
// and lets its files go when no record shows it any more.
func (h *history) release(d *recordData) {
	d.refs--
	if d.refs > 0 {
		return
	}
	for _, s := range d.streams() {
		if s.inline {
			h.inline -= int64(len(s.Whole))
		}
		s.Whole, s.inline = nil, false
		for _, p := range []string{s.SpillPath, s.tailPath} {
			if p != "" && h.store != nil {
				h.store.Forget(p)
			}
		}
	}
}

func (d *recordData) streams() []*streamData {
	if d.stderr == nil {
		return []*streamData{&d.stdout}
	}
	return []*streamData{&d.stdout, d.stderr}
}

// finish waits for the job to end and completes the record: exit status,
// duration and each stream's totals and sources.
// failed completes the record of a call whose finish panicked: it is
// no longer running, and shows no output but the error.
func (h *history) failed(rec *record, j *job, err error) {
	j.fail(err)
	h.mu.Lock()
	defer h.mu.Unlock()
	if !rec.Running {
		return
	}
	code := 125
	rec.ExitCode, rec.Running = &code, false
	if rec.data.stdout.tailErr == "" {
		rec.data.stdout.tailErr = err.Error()
	}
	if !isClosed(rec.data.done) {
		close(rec.data.done)
	}
}

// finish fills the record once the job has ended and its output is
// read. The watching goroutine calls it, and complete does too, on the
// call's own goroutine, when the job has already ended.
func (h *history) finish(rec *record, j *job) {
	<-j.exited
	<-j.readersDone
	rec.data.once.Do(func() { h.fill(rec, j) })
}

func (h *history) fill(rec *record, j *job) {
	var data []streamData
	for _, s := range j.streams() {
		s.mu.Lock()
		st := s.pipe.Stream()
		s.mu.Unlock()
		sd := streamData{Stream: st}
		if st.HasWhole {
			sd.Whole = slices.Clone(st.Whole)
		}
		if len(st.Tail) > 0 {
			sd.tailPath, sd.tailErr = h.saveTail(st)
		}
		sd.Tail = nil
		data = append(data, sd)
	}

	h.mu.Lock()
	defer h.mu.Unlock()
	rec.status = j.status
	code := j.status.code
	rec.ExitCode, rec.Running = &code, false
	rec.DurationMS = j.duration().Milliseconds()
	d := rec.data
	d.stdout = data[0]
	if len(data) > 1 {
		d.stderr = &data[1]
	}
	for _, s := range d.streams() {
		if s.HasWhole {
			s.inline = true
			h.inline += int64(len(s.Whole))
		}
	}
	rec.Stdout = d.stdout.totals()
	if d.stderr != nil {
		rec.Stderr = d.stderr.totals()
	}
	h.trimInline()
	// A failed watch (failed) may have closed it already; the record
	// then gets the true exit all the same.
	if !isClosed(d.done) {
		close(d.done)
	}
}

// trimInline forgets the inline streams of the oldest records while the
// history holds more than inlineBudget.
func (h *history) trimInline() {
	for _, r := range h.records {
		if h.inline <= inlineBudget {
			return
		}
		if r.data == nil || r.Running {
			continue
		}
		for _, s := range r.data.streams() {
			if s.inline {
				h.inline -= int64(len(s.Whole))
				s.Whole, s.inline = nil, false
			}
		}
	}
}

// saveTail writes the kept end of a capped stream next to its spill file.
func (h *history) saveTail(st output.Stream) (path, problem string) {
	if h.store == nil || st.SpillPath == "" {
		return "", "no spill store"
	}
	name := strings.TrimSuffix(filepath.Base(st.SpillPath), ".log") + "-tail.log"
	f, err := h.store.Create(name)
	if err != nil {
		return "", err.Error()
	}
	_, err = f.Write(st.Tail)
	if e := f.Close(); err == nil {
		err = e
	}
	if err != nil {
		h.store.Remove(f.Path(), spill.CauseUnsaved)
		return "", err.Error()
	}
	return f.Path(), ""
}

func (s *streamData) totals() tool.StreamRecord {
	return tool.StreamRecord{
		TotalBytes: s.Bytes, TotalLines: s.Lines, FullOutputPath: s.SpillPath,
		SpillCapped: s.SpillCapped, TailPath: s.tailPath, Binary: s.Binary,
		SpillError: s.SpillError,
	}
}

// History lists the recorded calls, oldest first.
func (r *Runner) History() []tool.HistoryRecord {
	h := &r.history
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]tool.HistoryRecord, 0, len(h.records))
	for _, rec := range h.records {
		c := rec.HistoryRecord
		if c.Running {
			c.DurationMS = time.Since(c.Start).Milliseconds()
		}
		out = append(out, c)
	}
	return out
}

// record returns the record with the given id, or an error that says
// which ids the history holds.
func (h *history) record(id int) (*record, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, rec := range h.records {
		if rec.ID == id {
			return rec, nil
		}
	}
	if len(h.records) == 0 {
		return nil, fmt.Errorf("no call %d in the history: it is empty", id)
	}
	return nil, fmt.Errorf("no call %d in the history: it holds calls %d to %d (the oldest are forgotten first)",
		id, h.records[0].ID, h.records[len(h.records)-1].ID)
}
