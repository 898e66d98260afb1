package files

import (
	"container/list"
	"sync"
)

// Bounds of an indexCache.
const (
	// defaultIndexEntries is how many line indexes a session keeps.
	defaultIndexEntries = 32
	// defaultIndexMinBytes is the smallest file whose index is kept: a
	// smaller file is rescanned faster than the cache would help, and
	// keeping it would push the indexes of big files out.
	defaultIndexMinBytes = 1 << 20
)

// A fileKey names one version of a file at a path: another file at the
// path, or a change of size, mtime or ctime, makes a new key, and the old
// index is never used for it.
type fileKey struct {
	path string
	fileVersion
}

// An indexCache keeps the line indexes of the biggest files a session read,
// least recently used out first. It is safe for concurrent use.
type indexCache struct {
	maxEntries int
	minBytes   int64

	mu      sync.Mutex
	order   *list.List // of *indexEntry, most recent first
	byPath  map[string]*list.Element
	builds  int64 // indexes built by a full scan
	lookups int64
	hits    int64
}

type indexEntry struct {
	key fileKey
	idx *lineIndex
}

func newIndexCache(maxEntries int, minBytes int64) *indexCache {
	return &indexCache{
		maxEntries: maxEntries,
		minBytes:   minBytes,
		order:      list.New(),
		byPath:     map[string]*list.Element{},
	}
}

// get returns the index of exactly this version of the file, or nil.
func (c *indexCache) get(k fileKey) *lineIndex {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.lookups++
	e, ok := c.byPath[k.path]
	if !ok {
		return nil
	}
	ent := e.Value.(*indexEntry)
	if ent.key != k {
		c.order.Remove(e)
		delete(c.byPath, k.path)
		return nil
	}
	c.order.MoveToFront(e)
	c.hits++
	return ent.idx
}

// put keeps idx for the file version k if the file is big enough to be
// worth it, evicting the least recently used index past the bound.
func (c *indexCache) put(k fileKey, idx *lineIndex) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.builds++
	if k.size < c.minBytes || c.maxEntries <= 0 {
		return
	}
	if e, ok := c.byPath[k.path]; ok {
		c.order.Remove(e)
	}
	c.byPath[k.path] = c.order.PushFront(&indexEntry{k, idx})
	for c.order.Len() > c.maxEntries {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.byPath, last.Value.(*indexEntry).key.path)
	}
}

// IndexStats count what the line index cache did.
type IndexStats struct {
	// Builds counts full scans that built an index.
	Builds int64
	// Lookups counts reads that asked for an index; Hits those that found
	// one and seeked instead of scanning.
	Lookups, Hits int64
	// Entries is the number of indexes kept now.
	Entries int
}

func (c *indexCache) stats() IndexStats {
	c.mu.Lock()
	defer c.mu.Unlock()
	return IndexStats{Builds: c.builds, Lookups: c.lookups, Hits: c.hits, Entries: c.order.Len()}
}
