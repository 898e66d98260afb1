package spill

import (
	"slices"
	"time"
)

// Forget is told that no history record needs the spill file at path any
// more (its call was forgotten). The file is not deleted while it is
// young — finished, or named by a result, less than KeepNamed ago — since
// a model must still be able to open a file a recent result gave it,
// however many calls came since; until then only the budget may take it,
// as any other. A path the store does not hold is left alone.
func (s *Store) Forget(path string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if i := s.indexLocked(path); i >= 0 {
		s.files[i].forgotten = true
	}
	s.dropForgottenLocked()
}

// Remove deletes a spill file of the store at once, for cause, and gives
// its bytes back to the budget: a file that could not be written whole.
// A path the store does not hold, or a file still being written, is left
// alone.
func (s *Store) Remove(path string, cause Cause) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if i := s.indexLocked(path); i >= 0 && s.files[i].finished {
		s.deleteLocked(i, cause)
	}
}

// dropForgottenLocked deletes the forgotten files that are no longer
// young.
func (s *Store) dropForgottenLocked() {
	old := time.Now().Add(-s.cfg.KeepNamed).UnixNano()
	for i := 0; i < len(s.files); {
		f := s.files[i]
		if f.forgotten && f.finished && f.lastUse() <= old && s.deleteLocked(i, CauseHistory) {
			continue
		}
		i++
	}
}

func (s *Store) indexLocked(path string) int {
	return slices.IndexFunc(s.files, func(f *File) bool { return f.path == path })
}

// deleteLocked deletes the file s.files[i] through the directory's
// handle, records why, and gives its bytes back to the budget. It
// reports whether the file is gone.
func (s *Store) deleteLocked(i int, cause Cause) bool {
	f := s.files[i]
	if s.dir != nil {
		if err := s.dir.root.Remove(f.name); err != nil && !isNotExist(err) {
			return false
		}
	}
	s.deleted[f.path] = cause
	s.used -= f.size
	s.files = slices.Delete(s.files, i, i+1)
	return true
}
