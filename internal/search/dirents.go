package search

import (
	"io/fs"
	"sync"
	"unsafe"
)

// A direntList collects the entries of one directory as it is read, and
// makes them at the end with two allocations: one string holding every
// entry's path, and the list at its exact length. Making a string per
// entry and growing the list by doubling cost several times the memory,
// and fresh memory is paid page by page.
type direntList struct {
	buf   []byte // the getdents buffer
	paths []byte // each entry's path: rel, '/', name
	spans []direntSpan
}

// A direntSpan is one entry in paths: its path is paths[start:end], its
// name paths[name:end].
type direntSpan struct {
	start, name, end int
	typ              fs.FileMode
}

// direntLists holds the lists of the walk's goroutines between reads.
var direntLists = sync.Pool{New: func() any {
	return &direntList{buf: make([]byte, 32<<10)}
}}

// add collects the entry name of the directory rel.
func (l *direntList) add(rel string, name []byte, typ fs.FileMode) {
	start := len(l.paths)
	if rel != "" {
		l.paths = append(append(l.paths, rel...), '/')
	}
	at := len(l.paths)
	l.paths = append(l.paths, name...)
	l.spans = append(l.spans, direntSpan{start: start, name: at, end: len(l.paths), typ: typ})
}

// take returns the entries collected, and empties the list for the next
// directory.
func (l *direntList) take() []dirent {
	if len(l.spans) == 0 {
		return nil
	}
	b := make([]byte, len(l.paths))
	copy(b, l.paths)
	all := unsafe.String(&b[0], len(b)) // b is not written again
	ents := make([]dirent, len(l.spans))
	for i, s := range l.spans {
		ents[i] = dirent{rel: all[s.start:s.end], base: s.name - s.start, typ: s.typ}
	}
	l.paths, l.spans = l.paths[:0], l.spans[:0]
	return ents
}
