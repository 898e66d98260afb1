package spillway

import (
	"sync"
	"time"

	"github.com/bmatcuk/doublestar/v4"
)

// linkIDs holds the identities of the files a Read rule's patterns
// match, so that a file with more than one name is matched by any of its
// names: envhl, a hard link to .env, is .env to a Read(./.env) deny. The
// set is found by globbing the patterns (a "**" walks the tree) only
// when a file with more than one name is met, and found again when it is
// more than two seconds old, so that a search over many linked files
// (pnpm's store) walks once.
type linkIDs struct {
	pats []string
	mu   sync.Mutex
	at   time.Time
	ids  map[fileID]bool
}

func (l *linkIDs) holds(path string) bool {
	id, ok := idOf(path)
	if !ok {
		return false
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ids == nil || time.Since(l.at) > 2*time.Second {
		l.ids = map[fileID]bool{}
		for _, pat := range l.pats {
			if pat == "" {
				continue
			}
			for _, p := range []string{pat, pat + "/**"} {
				ms, _ := doublestar.FilepathGlob(p, doublestar.WithFilesOnly())
				for _, m := range ms {
					if id, ok := idOf(m); ok {
						l.ids[id] = true
					}
				}
			}
		}
		l.at = time.Now()
	}
	return l.ids[id]
}
