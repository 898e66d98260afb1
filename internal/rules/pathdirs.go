package rules

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// bashBuiltins are bash's builtins and keywords: a command named by one
// runs in the shell, and PATH is not looked in for it.
var bashBuiltins = func() map[string]bool {
	m := map[string]bool{}
	for _, n := range strings.Fields(`. : [ alias bg bind break builtin caller cd command compgen complete compopt
		continue declare dirs disown echo enable eval exec exit export false fc fg getopts hash help history jobs
		kill let local logout mapfile popd printf pushd pwd read readarray readonly return set shift shopt source
		suspend test times trap true type typeset ulimit umask unalias unset wait`) {
		m[n] = true
	}
	return m
}()

// writableFound is the reason a program allowed by a rule that names it
// by its bare name may not be allowed, or "": PATH lookup, with the PATH
// and working directory the part runs with, finds it in a directory the
// session can write (~/.local/bin, node_modules/.bin, a virtualenv's bin)
// or in a relative or empty PATH entry (the working directory). What is
// there is whatever the session, a package install or a build put
// there, not the program the person meant by the name. A name lookup
// does not find is not looked at: nothing runs by it.
func (c *checker) writableFound(name string) string {
	if c.ownEnv && c.env == nil {
		c.env = processContext()
	}
	if c.env == nil {
		return ""
	}
	dirs := c.pathDirs()
	if len(dirs) == 0 {
		return ""
	}
	if c.pathTab == nil {
		key := c.env.PATH
		if c.relPATH {
			// A relative entry names another directory in another
			// working directory.
			key += "\x00" + c.env.Dir
		}
		c.pathTab = lookups.table(key, dirs, c.env.Dir)
	}
	i := c.pathTab.find(name, dirs, c.env.Dir)
	if i < 0 {
		return ""
	}
	d := dirs[i]
	if d == "" || !filepath.IsAbs(d) {
		shown := d
		if shown == "" {
			shown = "an empty entry, the working directory"
		}
		return fmt.Sprintf("PATH lookup finds %s in a relative PATH entry (%s), which names a directory by where the command runs: a rule naming %s by its bare name does not allow a program found there", name, shown, name)
	}
	if c.dirWritable(d) {
		return fmt.Sprintf("PATH lookup finds %s in %s, a directory the session can write: a rule naming %s by its bare name does not allow a program found there (a rule naming %s allows that path when the command writes it)", name, d, name, filepath.Join(d, name))
	}
	return ""
}

// dirWritable reports whether the session can write dir: by the
// context's Writable (the sandbox's writable set), or as the user.
func (c *checker) dirWritable(d string) bool {
	if w, ok := c.writable[d]; ok {
		return w
	}
	var w bool
	if c.env.Writable != nil {
		w = c.env.Writable(d)
	} else {
		w = userCanWrite(d, c.env.Dir)
	}
	if c.writable == nil {
		c.writable = map[string]bool{}
	}
	c.writable[d] = w
	return w
}

// pathLookups keeps what PATH lookup found, by PATH (and working
// directory, when an entry is relative), for as long as none of the
// PATH's directories changes: a directory's change time moves when an
// entry is added, removed or renamed in it, or its mode or owner
// changes. Deciding a long command looks up the same few names
// thousands of times.
type pathLookups struct {
	mu   sync.Mutex
	tabs map[string]*pathTable
}

// A pathTable is what lookup found in one PATH as its directories stood.
type pathTable struct {
	stamps []dirStamp
	// found maps a name to the index of the PATH entry it is found in,
	// -1 for none; guarded by lookups.mu.
	found map[string]int
}

var lookups = &pathLookups{tabs: map[string]*pathTable{}}

// maxTables and maxNames bound what lookups keeps.
const (
	maxTables = 32
	maxNames  = 4096
)

// table returns the lookups made in dirs while none of them changed; a
// new table when one did. A directory changed less than a second ago is
// not trusted to the cache: a change time is as fine as the kernel's
// clock tick, so a second change within one tick would not move it.
func (l *pathLookups) table(key string, dirs []string, base string) *pathTable {
	stamps := make([]dirStamp, len(dirs))
	fresh := false
	now := time.Now()
	for i, d := range dirs {
		if d == "" {
			d = "."
		}
		if !filepath.IsAbs(d) {
			d = filepath.Join(base, d)
		}
		stamps[i] = stampOf(d)
		fresh = fresh || now.Sub(stamps[i].changed) < time.Second
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if t := l.tabs[key]; t != nil && slices.Equal(t.stamps, stamps) && !fresh {
		return t
	}
	t := &pathTable{stamps: stamps, found: map[string]int{}}
	if fresh {
		// Used by this check alone.
		return t
	}
	if len(l.tabs) >= maxTables {
		clear(l.tabs)
	}
	l.tabs[key] = t
	return t
}

// find is the index of the PATH entry lookup finds name in, or -1.
func (t *pathTable) find(name string, dirs []string, base string) int {
	lookups.mu.Lock()
	i, ok := t.found[name]
	lookups.mu.Unlock()
	if ok {
		return i
	}
	i = -1
	for k, d := range dirs {
		if d == "" {
			d = "."
		}
		if !filepath.IsAbs(d) {
			d = filepath.Join(base, d)
		}
		if fi, err := os.Stat(filepath.Join(d, name)); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			i = k
			break
		}
	}
	lookups.mu.Lock()
	if len(t.found) >= maxNames {
		clear(t.found)
	}
	t.found[name] = i
	lookups.mu.Unlock()
	return i
}

// underAny reports whether p is one of dirs or beneath one.
func underAny(p string, dirs ...string) bool {
	for _, d := range dirs {
		if d == "" {
			continue
		}
		if p == d || strings.HasPrefix(p, strings.TrimSuffix(d, "/")+"/") {
			return true
		}
	}
	return false
}
