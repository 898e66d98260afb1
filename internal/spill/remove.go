package spill

import (
	"os"
	"slices"
)

// Remove deletes a spill file of the store whose content is no longer
// needed (its history record was forgotten), and gives its bytes back to
// the budget. A path the store does not hold is left alone.
func (s *Store) Remove(path string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	i := slices.IndexFunc(s.files, func(f *File) bool { return f.path == path })
	if i < 0 || !s.files[i].finished {
		return
	}
	f := s.files[i]
	os.Remove(f.path)
	s.deleted[f.path] = true
	s.used -= f.size
	s.files = slices.Delete(s.files, i, i+1)
}
