package shell

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/spillway-dev/spillway/output"
	"github.com/spillway-dev/spillway/tool"
)

// The opt-in cache (macos-shell's): a command on the policy's list may be
// answered from the history, from the result of the same command run in
// the same directory with the same environment no longer than the TTL
// ago, instead of running it again. The recorded output is cut with the
// limits of the new call, as a new run would be ("store full, truncate
// on retrieval"). Only a run that exited 0 and whose output is whole
// (kept in memory, or spilled below the cap) answers. A command not on
// the list is never answered from the cache, and the list is empty by
// default.
//
// Identical cacheable calls made while one of them runs wait for it and
// are answered from its result: one run serves them all.

// flights are the cacheable runs in progress, by cache key.
type flights struct {
	mu sync.Mutex
	m  map[string]chan struct{}
}

// join returns the channel of the run in progress for key and false, or
// a new channel and true when the caller is to run it (and must call
// land when it is done).
func (f *flights) join(key string) (chan struct{}, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if c, ok := f.m[key]; ok {
		return c, false
	}
	if f.m == nil {
		f.m = map[string]chan struct{}{}
	}
	c := make(chan struct{})
	f.m[key] = c
	return c, true
}

func (f *flights) land(key string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if c, ok := f.m[key]; ok {
		close(c)
		delete(f.m, key)
	}
}

// cacheable reports whether the policy lists the command.
func (r *Runner) cacheable(in command) bool {
	list := r.cfg.CacheCommands
	if len(list) == 0 || r.cfg.CacheTTL <= 0 || in.RunInBackground || in.call.Stdin != nil {
		return false
	}
	cmd := strings.Join(strings.Fields(in.Command), " ")
	if len(in.Args) > 0 {
		cmd = strings.Join(append([]string{in.Command}, in.Args...), " ")
	}
	for _, e := range list {
		e = strings.Join(strings.Fields(e), " ")
		if prefix, ok := strings.CutSuffix(e, "*"); ok {
			if strings.HasPrefix(cmd, prefix) {
				return true
			}
		} else if cmd == e {
			return true
		}
	}
	return false
}

// cacheKey identifies what a call would run: the program and its
// arguments exactly, the directory, the environment, and the limits
// that decide whether a stream is kept whole.
func cacheKey(pl *plan) string {
	h := sha256.New()
	write := func(s string) { io.WriteString(h, s); h.Write([]byte{0}) }
	write(pl.dir)
	write(fmt.Sprint(len(pl.argv)))
	for _, a := range pl.argv {
		write(a)
	}
	if pl.sess != nil && pl.sess.state != nil {
		// The session's trap is part of argv[2]; its name is not.
		write("session")
	}
	env := slices.Clone(pl.env)
	slices.Sort(env)
	for _, e := range env {
		write(e)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// fromCache answers a call from a fresh recorded result with the same
// key, cut with the call's limits; ok is false when there is none.
func (r *Runner) fromCache(in command, key string) (Outcome, bool) {
	ttl := r.cfg.CacheTTL
	h := &r.history
	h.mu.Lock()
	var src *record
	for i := len(h.records) - 1; i >= 0; i-- {
		rec := h.records[i]
		if rec.key != key || rec.Running || rec.CachedFrom != 0 || *rec.ExitCode != 0 {
			continue
		}
		if time.Since(rec.ended()) > ttl {
			break // older ones are older still
		}
		if wholeData(rec.data) {
			src = rec
		}
		break
	}
	if src == nil {
		h.mu.Unlock()
		return Outcome{}, false
	}
	src.data.refs++
	snap := *src
	h.mu.Unlock()

	age := time.Since(snap.ended())
	res, ok := r.replay(in, snap)
	if !ok {
		h.mu.Lock()
		h.release(snap.data)
		h.mu.Unlock()
		return Outcome{}, false
	}
	rec := &record{
		HistoryRecord: tool.HistoryRecord{Command: in.Command, Args: slices.Clone(in.Args), Session: in.Session, Cwd: snap.Cwd, Start: time.Now(),
			ExitCode: snap.ExitCode, Cached: true, CachedFrom: snap.ID, Stdout: snap.Stdout, Stderr: snap.Stderr, Merged: snap.Merged},
		data: snap.data, status: snap.status,
	}
	h.add(rec)
	res.Details.HistoryID = rec.ID
	res.Details.Cached, res.Details.CacheAgeMS = true, age.Milliseconds()
	res.Text += fmt.Sprintf("\n[cached: the result of call #%d, which ended %s ago (same command, directory and environment); not run again]",
		snap.ID, age.Round(time.Millisecond))
	return res, true
}

// wholeData reports whether every stream of d is whole: in memory, or in
// a spill file that did not reach its cap.
func wholeData(d *recordData) bool {
	for _, s := range d.streams() {
		if s.Binary || !(s.inline || (s.SpillPath != "" && !s.SpillCapped) || s.Bytes == 0) {
			return false
		}
	}
	return true
}

// replay runs a recorded output through new pipelines with the call's
// limits and renders it as a bash result.
func (r *Runner) replay(in command, rec record) (Outcome, bool) {
	pol := commandLimits(in, r.cfg.Bash)
	seq := 0
	if r.cfg.Spill != nil {
		seq = r.cfg.Spill.NextSeq()
	}
	feed := func(name string, s *streamData, lim output.Limits) (*output.Pipeline, bool) {
		opt := output.Options{Limits: lim, SpillWhen: pol.SpillWhen, Shapes: r.cfg.shapes(in), Binary: pol.Binary}
		switch {
		case !s.inline:
			// Cut, it names the file the run spilled to, which holds it all.
			opt.Spill = func() (output.Spill, error) { return spilledAlready(s.SpillPath), nil }
		case r.cfg.Spill != nil:
			opt.Spill = r.cfg.Spill.Opener("bash", seq, name)
		}
		p := output.New(opt)
		switch {
		case s.inline:
			p.Write(s.Whole)
		case s.SpillPath != "":
			f, err := os.Open(s.SpillPath)
			if err != nil {
				return nil, false
			}
			_, err = p.ReadFrom(f)
			f.Close()
			if err != nil {
				return nil, false
			}
		}
		p.Close()
		return p, true
	}
	d := rec.data
	outPipe, ok := feed("stdout", &d.stdout, pol.Stdout)
	if !ok {
		return Outcome{}, false
	}
	var errPipe *output.Pipeline
	if d.stderr != nil {
		if errPipe, ok = feed("stderr", d.stderr, pol.Stderr); !ok {
			return Outcome{}, false
		}
	}
	budget := r.cfg.ResultBudget
	if in.FullOutput || in.MaxBytes > 0 {
		budget = 0
	}
	text := func(stdout output.Result, stderr *output.Result) string {
		return r.cfg.Render(Page{Stdout: stdout, Stderr: stderr, Empty: "(no output)", Exit: rec.status.view()})
	}
	stdout, stderr := cutWithin(budget, outPipe, errPipe, text)
	// The recorded stream holds the binary runs' notices already, not
	// their bytes: their size is the run's.
	stdout.BinaryBytes = d.stdout.BinaryBytes
	if stderr != nil {
		stderr.BinaryBytes = d.stderr.BinaryBytes
	}
	code := rec.status.code
	return Outcome{
		Text:    text(stdout, stderr),
		Details: tool.BashDetails{ExitCode: &code, Signal: rec.status.signal, DurationMS: rec.DurationMS},
		Stdout:  stdout, Stderr: stderr,
	}, true
}

// spilledAlready is the spill of a replayed stream: the file its run
// spilled to already holds every byte, so writes go nowhere.
type spilledAlready string

func (s spilledAlready) Write(b []byte) (int, error) { return len(b), nil }
func (s spilledAlready) Path() string                { return string(s) }
func (s spilledAlready) Close() error                { return nil }
