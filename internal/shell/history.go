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

// Record is spillway.HistoryRecord inside the implementation; the fields
// are documented there.
type Record struct {
	ID         int          `json:"id"`
	Command    string       `json:"command"`
	Args       []string     `json:"args,omitempty"`
	Session    string       `json:"session,omitempty"`
	Cwd        string       `json:"cwd"`
	Start      time.Time    `json:"start"`
	DurationMS int64        `json:"duration_ms"`
	ExitCode   *int         `json:"exit_code"`
	Running    bool         `json:"running"`
	Cached     bool         `json:"cached,omitempty"`
	CachedFrom int          `json:"cached_from,omitempty"`
	Stdout     StreamRecord `json:"stdout"`
	Stderr     StreamRecord `json:"stderr"`
	Merged     bool         `json:"merged,omitempty"`

	key    string // the cache key; "" when not cacheable
	data   *recordData
	status exitStatus
}

// StreamRecord is spillway.StreamRecord inside the implementation; the
// fields are documented there.
type StreamRecord struct {
	TotalBytes     int64  `json:"total_bytes"`
	TotalLines     int64  `json:"total_lines"`
	FullOutputPath string `json:"full_output_path,omitempty"`
	SpillCapped    bool   `json:"spill_capped,omitempty"`
	TailPath       string `json:"tail_path,omitempty"`
	Binary         bool   `json:"binary,omitempty"`
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
	records []*Record // oldest first
	nextID  int
	inline  int64 // bytes of Whole kept
	store   *spill.Store
}

// start records a call whose job was just launched, and watches the job
// to complete the record when it ends.
func (h *history) start(in Input, pl *plan, j *job) *Record {
	rec := &Record{
		Command: in.Command, Args: slices.Clone(in.Args), Session: in.Session,
		Cwd: pl.dir, Start: j.start, Running: true, Merged: j.stderr == nil,
		key:  pl.cacheKey,
		data: &recordData{refs: 1, done: make(chan struct{})},
	}
	h.add(rec)
	go h.finish(rec, j)
	return rec
}

// complete completes the record of a job that has ended, before its
// call returns, so that the history shows it at once.
func (h *history) complete(rec *Record, j *job) {
	if isClosed(j.exited) && isClosed(j.readersDone) {
		h.finish(rec, j)
	}
}

// add puts rec in the ring with a new id, forgetting the oldest finished
// record when the ring is full.
func (h *history) add(rec *Record) {
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
func (h *history) finish(rec *Record, j *job) {
	<-j.exited
	<-j.readersDone
	rec.data.once.Do(func() { h.fill(rec, j) })
}

func (h *history) fill(rec *Record, j *job) {
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
	rec.Stdout = d.stdout.record()
	if d.stderr != nil {
		rec.Stderr = d.stderr.record()
	}
	h.trimInline()
	close(d.done)
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

func (s *streamData) record() StreamRecord {
	return StreamRecord{
		TotalBytes: s.Bytes, TotalLines: s.Lines, FullOutputPath: s.SpillPath,
		SpillCapped: s.SpillCapped, TailPath: s.tailPath, Binary: s.Binary,
	}
}

// HistoryFilter is spillway.HistoryFilter inside the implementation; the
// fields are documented there.
type HistoryFilter struct {
	Session string `json:"session,omitempty"`
	Status  string `json:"status,omitempty"`
	Limit   int    `json:"limit,omitempty"`
}

// Validate checks the filter.
func (f HistoryFilter) Validate() error {
	switch f.Status {
	case "", "ok", "failed", "running":
	default:
		return fmt.Errorf("status %q: want ok, failed or running", f.Status)
	}
	if f.Limit < 0 {
		return fmt.Errorf("limit %d: want a positive number", f.Limit)
	}
	return nil
}

// History lists the recorded calls that pass f, oldest first.
func (r *Runner) History(f HistoryFilter) []Record {
	h := &r.history
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []Record
	for _, rec := range h.records {
		if f.Session != "" && rec.Session != f.Session {
			continue
		}
		switch f.Status {
		case "ok":
			if rec.Running || *rec.ExitCode != 0 {
				continue
			}
		case "failed":
			if rec.Running || *rec.ExitCode == 0 {
				continue
			}
		case "running":
			if !rec.Running {
				continue
			}
		}
		c := *rec
		if c.Running {
			c.DurationMS = time.Since(c.Start).Milliseconds()
		}
		out = append(out, c)
	}
	if f.Limit > 0 && len(out) > f.Limit {
		out = out[len(out)-f.Limit:]
	}
	return out
}

// record returns the record with the given id, or an error that says
// which ids the history holds.
func (h *history) record(id int) (*Record, error) {
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

// writeStreamSizes writes a line for each stream that has output: its
// lines and size, and the file that holds it whole.
func writeStreamSizes(b *strings.Builder, stdout, stderr StreamRecord) {
	for _, s := range []struct {
		label string
		s     StreamRecord
	}{{"stdout", stdout}, {"stderr", stderr}} {
		if s.s.TotalBytes == 0 {
			continue
		}
		fmt.Fprintf(b, "    %s: %d lines, %s", s.label, s.s.TotalLines, output.FormatSize(s.s.TotalBytes))
		if s.s.FullOutputPath != "" {
			fmt.Fprintf(b, ", full output: %s", s.s.FullOutputPath)
			if s.s.SpillCapped {
				b.WriteString(" (capped)")
			}
		}
		b.WriteByte('\n')
	}
}

// ListText renders a history listing for the model: one line per call,
// oldest first, then the named sessions.
func ListText(records []Record, sessions []SessionInfo) string {
	var b strings.Builder
	if len(records) == 0 {
		b.WriteString("(no calls recorded)\n")
	}
	for _, r := range records {
		status := "running"
		if !r.Running {
			status = fmt.Sprintf("exit %d", *r.ExitCode)
		}
		fmt.Fprintf(&b, "#%d %s %s", r.ID, status, (time.Duration(r.DurationMS) * time.Millisecond).String())
		if r.Session != "" {
			fmt.Fprintf(&b, " [%s]", r.Session)
		}
		if r.Cached {
			fmt.Fprintf(&b, " (cached from #%d)", r.CachedFrom)
		}
		fmt.Fprintf(&b, " %s\n", quoteCommand(r))
		writeStreamSizes(&b, r.Stdout, r.Stderr)
	}
	if len(sessions) > 0 {
		b.WriteString("\nsessions:\n")
		for _, s := range sessions {
			fmt.Fprintf(&b, "    %s: cwd %s, %d calls", s.Name, s.Cwd, s.Calls)
			if len(s.Env) > 0 {
				keys := make([]string, 0, len(s.Env))
				for k := range s.Env {
					keys = append(keys, k)
				}
				slices.Sort(keys)
				fmt.Fprintf(&b, ", exported: %s", strings.Join(keys, " "))
			}
			b.WriteByte('\n')
		}
	}
	b.WriteString("[Show a call's output again, without running it, with id=N and strategy (head, tail, head_tail), max_lines, max_bytes, offset (a line range) or pattern.]")
	return b.String()
}
