package spill

import "time"

// The budget counts every byte in the session's spill files, those still
// being written included, and no write is allowed past it: a write first
// makes room by deleting the oldest finished files, and whatever still
// does not fit is refused. So the files on disk never hold more than
// BudgetBytes together.

// reserve grants up to n more bytes to a file being written, deleting
// old files to make room, and returns how many it granted.
func (s *Store) reserve(n int64) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if over := s.used + n - s.cfg.BudgetBytes; over > 0 {
		s.freeLocked(over)
	}
	grant := min(n, max(0, s.cfg.BudgetBytes-s.used))
	s.used += grant
	return grant
}

// release returns bytes granted but not written.
func (s *Store) release(n int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.used -= n
}

// freeLocked deletes the oldest files that may go until need bytes are
// freed. A file may go when it is finished, is not the newest, and no
// result named it for KeepNamed.
func (s *Store) freeLocked(need int64) {
	if s.dir == nil {
		return
	}
	recent := time.Now().Add(-s.cfg.KeepNamed).UnixNano()
	for i := 0; need > 0 && i < len(s.files)-1; {
		f := s.files[i]
		if !f.finished || f.named.Load() > recent {
			i++
			continue
		}
		size := f.size
		if !s.deleteLocked(i, CauseBudget) {
			i++
			continue
		}
		need -= size
	}
}

// Used returns the bytes the store's files hold or have been granted:
// what counts against BudgetBytes.
func (s *Store) Used() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.used
}
