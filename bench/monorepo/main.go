// Command monorepo writes a synthetic monorepo for bench/search.sh: the
// same tree, byte for byte, for a given seed and size.
//
//	go run ./bench/monorepo -dir DIR [-seed 1] [-size 1100]
//
// The tree is what a search in a large repository meets: many small
// source files (Go, TypeScript, Python, Markdown) in packages a few
// levels deep; a root .gitignore and per-package ones (build output,
// logs, generated files, a negation) and a .git/info/exclude (the tree
// has a .git directory, without history); a node_modules directory of many
// small files, ignored; a few large minified bundles whose text is one
// very long line, searched; a few binary files, skipped. About 30% of the
// bytes are ignored. The grep patterns of bench/search.sh,
// ErrUnexpectedEOF and `func \w+Error\(`, occur in a few thousand lines,
// ignored files and minified lines included.
//
// A tree already in DIR whose stamp file names the same seed and size is
// kept as it is. It prints the tree's size and file counts.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
)

func main() {
	dir := flag.String("dir", "", "directory to write the tree into (required)")
	seed := flag.Uint64("seed", 1, "seed of the generator")
	sizeMB := flag.Int("size", 1100, "total size of the tree in MB (10^6 bytes)")
	flag.Parse()
	if *dir == "" {
		fmt.Fprintln(os.Stderr, "monorepo: give -dir, the directory to write the tree into")
		os.Exit(2)
	}
	stamp := filepath.Join(*dir, ".monorepo-stamp")
	want := fmt.Sprintf("v2 seed=%d size=%dMB\n", *seed, *sizeMB)
	if b, err := os.ReadFile(stamp); err == nil && string(b) == want {
		fmt.Print(summary(*dir))
		return
	}
	if err := os.RemoveAll(*dir); err != nil {
		fail(err)
	}
	g := &gen{r: rand.New(rand.NewPCG(*seed, *seed^0x9e3779b97f4a7c15)), root: *dir}
	g.tree(int64(*sizeMB) * 1e6)
	if err := os.WriteFile(stamp, []byte(want), 0o644); err != nil {
		fail(err)
	}
	fmt.Print(summary(*dir))
}

func fail(err error) {
	fmt.Fprintf(os.Stderr, "monorepo: %v\n", err)
	os.Exit(1)
}

type gen struct {
	r       *rand.Rand
	root    string
	written int64
	files   int
	buf     bytes.Buffer
}

// Shares of the total size.
const (
	shareModules  = 0.22 // node_modules (ignored)
	shareIgnored  = 0.06 // build/, dist/, *.log, generated files (ignored)
	shareMinified = 0.06 // large minified bundles (searched)
)

func (g *gen) tree(total int64) {
	// A repository (no history): git, ripgrep and fd all honour the
	// ignore files of a tree with a .git, and .git/info/exclude too.
	g.write(".git/HEAD", "ref: refs/heads/main\n")
	g.write(".git/info/exclude", "*.bak\n")
	g.write(".gitignore", "# build output and dependencies\nnode_modules/\n/build/\n*.log\n*.tmp\n!keep.tmp\ncoverage/\n")
	g.write("README.md", g.text(".md", 3000))

	// Large minified bundles, one line each (a few MB to tens of MB).
	minified := int64(float64(total) * shareMinified)
	names := []string{"web/static/vendor.min.js", "web/static/app.min.js", "admin/public/bundle.min.js", "docs/site/search-index.min.json"}
	for i, name := range names {
		n := minified / int64(len(names))
		if i == 0 {
			n += minified % int64(len(names))
		}
		g.write("apps/"+name, g.minified(n))
	}

	// A few binary files: a NUL in the first bytes, a pattern later on.
	for i := range 8 {
		b := make([]byte, 20000+g.r.IntN(40000))
		for j := range b {
			b[j] = byte(g.r.IntN(256))
		}
		copy(b[len(b)/2:], "ErrUnexpectedEOF func parseError(")
		b[3] = 0
		g.write(fmt.Sprintf("apps/web/static/img/icon%d.png", i), string(b))
	}

	// node_modules: many small files, ignored by the root .gitignore.
	modules := int64(float64(total) * shareModules)
	for m := 0; g.written < modules+minified; m++ {
		pkg := fmt.Sprintf("node_modules/%s", g.ident())
		if m%5 == 0 {
			pkg = fmt.Sprintf("node_modules/@%s/%s", g.word(), g.ident())
		}
		g.write(pkg+"/package.json", fmt.Sprintf("{\n  \"name\": %q,\n  \"version\": \"1.%d.%d\"\n}\n", filepath.Base(pkg), g.r.IntN(20), g.r.IntN(50)))
		for range 3 + g.r.IntN(12) {
			g.write(pkg+"/"+g.sub()+g.ident()+".js", g.text(".js", g.fileSize()))
		}
	}

	// Packages: sources searched, their build output ignored.
	ignored := int64(float64(total) * shareIgnored)
	var ignoredSoFar int64
	for p := 0; g.written < total; p++ {
		pkg := fmt.Sprintf("packages/%s-%d", g.word(), p)
		lang := []string{".go", ".ts", ".py", ".ts", ".go"}[p%5]
		if p%3 == 0 {
			g.write(pkg+"/.gitignore", "dist/\n*.generated"+lang+"\n/tmp/\n")
		}
		if p%7 == 0 {
			g.write(pkg+"/.ignore", "fixtures/large/\n")
		}
		g.write(pkg+"/README.md", g.text(".md", g.fileSize()))
		for range 20 + g.r.IntN(60) {
			g.write(pkg+"/"+g.sub()+g.ident()+lang, g.text(lang, g.fileSize()))
		}
		if ignoredSoFar < ignored {
			before := g.written
			for range 5 + g.r.IntN(10) {
				switch g.r.IntN(4) {
				case 0:
					g.write(pkg+"/dist/"+g.ident()+".js", g.text(".js", g.fileSize()))
				case 1:
					g.write(pkg+"/"+g.ident()+".generated"+lang, g.text(lang, g.fileSize()))
				case 2:
					g.write("build/"+filepath.Base(pkg)+"/"+g.ident()+".o.txt", g.text(lang, g.fileSize()))
				default:
					g.write(pkg+"/logs/"+g.ident()+".log", g.text(".log", g.fileSize()))
				}
			}
			// Without a package .gitignore (two packages in three),
			// only the root's rules apply: dist/ and generated files
			// are searched there, build/ and logs are not.
			ignoredSoFar += g.written - before
		}
		if p%11 == 0 {
			g.write(pkg+"/keep.tmp", g.text(".log", 2000)) // re-included by "!keep.tmp"
			g.write(pkg+"/scratch.tmp", g.text(".log", 2000))
			g.write(pkg+"/notes.bak", g.text(".log", 2000)) // excluded by .git/info/exclude
		}
	}
}

// sub returns a subdirectory path (with a trailing '/') 0 to 3 levels deep.
func (g *gen) sub() string {
	var b strings.Builder
	for range g.r.IntN(4) {
		b.WriteString([]string{"src", "internal", "lib", "api", "util", "core", "server", "client"}[g.r.IntN(8)])
		b.WriteByte('/')
	}
	return b.String()
}

// fileSize is a source file's size: mostly a few KB, a few up to 200 KB.
func (g *gen) fileSize() int {
	switch x := g.r.Float64(); {
	case x < 0.6:
		return 500 + g.r.IntN(6000)
	case x < 0.95:
		return 6000 + g.r.IntN(24000)
	default:
		return 30000 + g.r.IntN(170000)
	}
}

func (g *gen) write(rel, data string) {
	path := filepath.Join(g.root, rel)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		fail(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		fail(err)
	}
	g.written += int64(len(data))
	g.files++
}

var words = strings.Fields(`request response handler server client config value index buffer stream
reader writer parse format encode decode token session cache store record entry table column
query result error status message event queue worker task job batch limit offset count total
path file name user account order item price amount date time start end open close read write
update delete create insert select filter map reduce sort merge split join trim check valid
load save fetch send receive retry timeout deadline context cancel signal lock mutex channel`)

func (g *gen) word() string { return words[g.r.IntN(len(words))] }

func (g *gen) ident() string {
	return g.word() + strings.ToUpper(g.word()[:1]) + g.word()[1:]
}

// text returns about n bytes of lines in the style of a file of type ext.
// About one file in 40 holds ErrUnexpectedEOF and one in 12 a func
// …Error( declaration (in Go files; a comment mentioning one elsewhere).
func (g *gen) text(ext string, n int) string {
	g.buf.Reset()
	b := &g.buf
	needle := g.r.IntN(40) == 0
	decl := g.r.IntN(12) == 0
	for b.Len() < n {
		switch {
		case needle && g.r.IntN(8) == 0:
			needle = false
			fmt.Fprintf(b, "\tif err == io.ErrUnexpectedEOF { return %s }\n", g.ident())
		case decl && g.r.IntN(8) == 0:
			decl = false
			if ext == ".go" {
				fmt.Fprintf(b, "func %sError(err error) error {\n\treturn fmt.Errorf(\"%s: %%w\", err)\n}\n", g.word(), g.word())
			} else {
				fmt.Fprintf(b, "// see func %sError(err) in the Go server\n", g.word())
			}
		default:
			g.line(b, ext)
		}
	}
	return b.String()
}

func (g *gen) line(b *bytes.Buffer, ext string) {
	indent := strings.Repeat("\t", g.r.IntN(3))
	a, c, d := g.ident(), g.word(), g.word()
	switch ext {
	case ".go":
		switch g.r.IntN(6) {
		case 0:
			fmt.Fprintf(b, "%sfunc (s *%s) %s(%s %s) error {\n", indent, a, strings.ToUpper(c[:1])+c[1:], d, a)
		case 1:
			fmt.Fprintf(b, "%sif err := s.%s(ctx, %s); err != nil {\n", indent, c, d)
		case 2:
			fmt.Fprintf(b, "%s// %s %s the %s before the %s is %s.\n", indent, a, c, d, g.word(), g.word())
		case 3:
			fmt.Fprintf(b, "%sreturn %s, fmt.Errorf(\"%s %s: %%w\", err)\n", indent, d, c, g.word())
		default:
			fmt.Fprintf(b, "%s%s := %s.%s(%s, %d)\n", indent, d, c, a, g.word(), g.r.IntN(1000))
		}
	case ".ts", ".js":
		switch g.r.IntN(5) {
		case 0:
			fmt.Fprintf(b, "%sexport function %s(%s: %s): Promise<%s> {\n", indent, a, c, d, a)
		case 1:
			fmt.Fprintf(b, "%sconst %s = await this.%s.%s(%s);\n", indent, c, d, a, g.word())
		case 2:
			fmt.Fprintf(b, "%s// TODO: %s the %s when %s %s\n", indent, c, d, g.word(), g.word())
		default:
			fmt.Fprintf(b, "%sif (%s.%s !== undefined) { return %s; }\n", indent, c, d, a)
		}
	case ".py":
		switch g.r.IntN(4) {
		case 0:
			fmt.Fprintf(b, "%sdef %s_%s(self, %s):\n", indent, c, d, g.word())
		case 1:
			fmt.Fprintf(b, "%s%s = self.%s.get(%q, None)\n", indent, c, d, g.word())
		default:
			fmt.Fprintf(b, "%s# %s %s %s %s\n", indent, a, c, d, g.word())
		}
	case ".log":
		fmt.Fprintf(b, "2026-01-%02d %02d:%02d:%02d INFO %s %s %s=%d\n", 1+g.r.IntN(28), g.r.IntN(24), g.r.IntN(60), g.r.IntN(60), a, c, d, g.r.IntN(100000))
	default:
		fmt.Fprintf(b, "The %s %s the %s of the %s, and %s.\n", a, c, d, g.word(), g.word())
	}
}

// minified returns n bytes of one-line JavaScript, as a bundler writes it,
// with a few of the patterns inside.
func (g *gen) minified(n int64) string {
	var b strings.Builder
	b.Grow(int(n) + 1)
	for int64(b.Len()) < n {
		switch g.r.IntN(4000) {
		case 0:
			b.WriteString(`throw new Error("ErrUnexpectedEOF");`)
		case 1:
			b.WriteString(`/* func parseError( */`)
		default:
			fmt.Fprintf(&b, "var %s=function(%s,%s){return %s.%s(%s)||%d};", g.ident(), g.word()[:1], g.word()[:2], g.word()[:1], g.word(), g.word()[:2], g.r.IntN(100))
		}
	}
	b.WriteByte('\n')
	return b.String()
}

// summary counts the tree's files and bytes.
func summary(root string) string {
	var files, bytes, nm, nmBytes int64
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		files++
		bytes += info.Size()
		if strings.Contains(p, "/node_modules/") {
			nm++
			nmBytes += info.Size()
		}
		return nil
	})
	return fmt.Sprintf("monorepo %s: %d files, %.2f GB (node_modules: %d files, %.2f GB)\n", root, files, float64(bytes)/1e9, nm, float64(nmBytes)/1e9)
}
