package rules

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"bytes"
	"compress/bzip2"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
)

// tar -x, unzip, patch and git apply write the files their input names,
// not their arguments. When that input is a file the part names and the
// checker can read before the command runs (a path known as written, in
// the directory the command starts in, of at most maxUnpackInput bytes),
// the names it holds are held to the code-loading list as a redirection
// is: a tarball that holds .git/hooks/pre-commit, or a patch to
// ~/.bashrc, makes the part ask. An input read from stdin, named by an
// expansion, or in a format not read here (xz, zstd) is not seen into
// (docs/rules.md says so).
const maxUnpackInput = 16 << 20

// maxUnpackNames bounds how many names of one input are checked.
const maxUnpackNames = 100000

// unpackRisk is the reason the files an unpacking part writes keep it
// from being allowed, or "".
func (c *checker) unpackRisk(name string, args []word) string {
	var in unpackInput
	switch name {
	case "tar", "bsdtar", "gtar":
		in = tarArgs(args)
	case "unzip":
		in = unzipArgs(args)
	case "patch":
		in = patchArgs(args)
	case "git":
		in = gitApplyArgs(args)
	default:
		return ""
	}
	if len(in.files) == 0 {
		return ""
	}
	for _, f := range in.files {
		p := c.readable(f)
		if p == "" {
			continue
		}
		names := unpackNames(in.format, p)
		for _, n := range names {
			for _, target := range in.targets(n) {
				if r := c.writeRiskOf(word{Text: target, Known: true}, true); r != "" {
					return fmt.Sprintf("%s writes what %s holds, %s: %s", in.what, f.Text, n, r)
				}
			}
		}
	}
	return ""
}

// An unpackInput is what a part's words say of what it unpacks: the
// files read, their format, the directory written under and how many
// leading components of a name are dropped.
type unpackInput struct {
	what   string
	format string // "tar", "zip" or "patch"
	files  []word
	dir    string
	strip  int
	// stripSet: -p was given; without it patch may use the name as
	// given or its base name, and both are checked.
	stripSet bool
}

// targets are the paths name may be written to.
func (in unpackInput) targets(name string) []string {
	name = strings.TrimPrefix(name, "./")
	var out []string
	add := func(n string) {
		if n == "" || n == "/dev/null" {
			return
		}
		if in.dir != "" && !path.IsAbs(n) {
			n = path.Join(in.dir, n)
		}
		out = append(out, n)
	}
	add(stripComponents(name, in.strip))
	if in.format == "patch" && !in.stripSet {
		add(name)
		add(path.Base(name))
	}
	return out
}

func stripComponents(name string, n int) string {
	for ; n > 0; n-- {
		i := strings.IndexByte(name, '/')
		if i < 0 {
			return ""
		}
		name = name[i+1:]
	}
	return name
}

// readable is the file a known input word names, when it can be read
// before the command runs, or "".
func (c *checker) readable(w word) string {
	if !w.Known || w.Text == "-" || w.Text == "" {
		return ""
	}
	p := w.Text
	if !filepath.IsAbs(p) {
		if c.env == nil || c.env.Dir == "" || c.cdSeen {
			return ""
		}
		p = filepath.Join(c.env.Dir, p)
	}
	fi, err := os.Stat(p)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxUnpackInput {
		return ""
	}
	return p
}

// unpackNames lists the names the input file holds; nil when it cannot
// be read in its format.
func unpackNames(format, p string) []string {
	data, err := os.ReadFile(p)
	if err != nil || len(data) > maxUnpackInput {
		return nil
	}
	switch format {
	case "zip":
		r, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return nil
		}
		var out []string
		for _, f := range r.File {
			if len(out) >= maxUnpackNames {
				break
			}
			out = append(out, f.Name)
		}
		return out
	case "patch":
		return patchNames(data)
	}
	var r io.Reader = bytes.NewReader(data)
	switch {
	case bytes.HasPrefix(data, []byte{0x1f, 0x8b}):
		z, err := gzip.NewReader(r)
		if err != nil {
			return nil
		}
		r = z
	case bytes.HasPrefix(data, []byte("BZh")):
		r = bzip2.NewReader(r)
	}
	// The uncompressed stream is read no further than a bound, so that a
	// small bomb cannot make the check run long.
	tr := tar.NewReader(io.LimitReader(r, 16*maxUnpackInput))
	var out []string
	for len(out) < maxUnpackNames {
		h, err := tr.Next()
		if err != nil {
			break
		}
		out = append(out, h.Name)
		if h.Typeflag == tar.TypeSymlink || h.Typeflag == tar.TypeLink {
			// A link made first and written through later.
			out = append(out, h.Linkname)
		}
	}
	return out
}

// patchNames are the files a unified or git diff names as written.
func patchNames(data []byte) []string {
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() && len(out) < maxUnpackNames {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "+++ "), strings.HasPrefix(line, "--- "):
			n := line[4:]
			if i := strings.IndexByte(n, '\t'); i >= 0 {
				n = n[:i]
			}
			out = append(out, strings.TrimSpace(n))
		case strings.HasPrefix(line, "diff --git "):
			f := strings.Fields(line[len("diff --git "):])
			out = append(out, f...)
		case strings.HasPrefix(line, "rename to "), strings.HasPrefix(line, "copy to "):
			_, n, _ := strings.Cut(line, " to ")
			out = append(out, "b/"+n, n)
		}
	}
	return out
}

// tarArgs reads tar's words: an extraction (x in the first word's
// letters, -x, --extract, --get), its -f file, -C directory and
// --strip-components.
func tarArgs(args []word) unpackInput {
	in := unpackInput{what: "tar -x", format: "tar"}
	extract := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !a.Known {
			continue
		}
		t := a.Text
		var v word
		switch {
		case t == "--extract" || t == "--get":
			extract = true
		case strings.HasPrefix(t, "--file="):
			in.files = append(in.files, word{Text: t[len("--file="):], Known: true})
		case t == "--file":
			v, i = nextWord(args, i)
			in.files = append(in.files, v)
		case strings.HasPrefix(t, "--directory="):
			in.dir = t[len("--directory="):]
		case t == "--directory" || t == "-C":
			v, i = nextWord(args, i)
			in.dir = v.Text
		case strings.HasPrefix(t, "--strip-components="):
			in.strip, _ = strconv.Atoi(t[len("--strip-components="):])
		case strings.HasPrefix(t, "--"):
		case i == 0 && !strings.HasPrefix(t, "-") || strings.HasPrefix(t, "-") && len(t) > 1:
			var x bool
			x, i = in.tarLetters(args, i)
			extract = extract || x
		}
	}
	if !extract {
		in.files = nil
	}
	return in
}

// tarLetters reads the bundled letters of args[i]: xzf FILE (the old
// form, first word) or -xzf FILE. The letters end at f, whose value is
// the rest of a dashed word or else the next word, or at C, whose value
// is the next word. It reports whether x is among them, and returns the
// index of the last word used.
func (in *unpackInput) tarLetters(args []word, i int) (extract bool, last int) {
	t := args[i].Text
	letters := strings.TrimPrefix(t, "-")
	for j, l := range letters {
		var v word
		switch l {
		case 'x':
			extract = true
		case 'f':
			if rest := letters[j+1:]; rest != "" && strings.HasPrefix(t, "-") {
				v = word{Text: rest, Known: true}
			} else {
				v, i = nextWord(args, i)
			}
			in.files = append(in.files, v)
			return extract, i
		case 'C':
			v, i = nextWord(args, i)
			in.dir = v.Text
			return extract, i
		}
	}
	return extract, i
}

// unzipArgs reads unzip's words: the archive (its first word that is
// not an option) and -d's directory; listing and testing write nothing.
func unzipArgs(args []word) unpackInput {
	in := unpackInput{what: "unzip", format: "zip"}
	for i := 0; i < len(args); i++ {
		a := args[i]
		t := a.Text
		switch {
		case a.Known && t == "-d" && i+1 < len(args):
			i++
			in.dir = args[i].Text
		case a.Known && strings.HasPrefix(t, "-d") && len(t) > 2:
			in.dir = t[2:]
		case a.Known && strings.HasPrefix(t, "-") && strings.ContainsAny(t[1:], "lptvzZc"):
			return unpackInput{}
		case a.Known && strings.HasPrefix(t, "-"):
		case len(in.files) == 0:
			in.files = append(in.files, a)
		}
	}
	return in
}

// patchArgs reads patch's words: -i FILE (a patch on stdin is not
// read), -pN and -d DIR; --dry-run writes nothing.
func patchArgs(args []word) unpackInput {
	in := unpackInput{what: "patch", format: "patch"}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !a.Known {
			continue
		}
		t := a.Text
		next := func() string {
			if i+1 < len(args) {
				i++
				return args[i].Text
			}
			return ""
		}
		switch {
		case t == "--dry-run":
			return unpackInput{}
		case t == "-i" || t == "--input":
			in.files = append(in.files, word{Text: next(), Known: args[i].Known})
		case strings.HasPrefix(t, "--input="):
			in.files = append(in.files, word{Text: t[len("--input="):], Known: true})
		case strings.HasPrefix(t, "-i") && len(t) > 2:
			in.files = append(in.files, word{Text: t[2:], Known: true})
		case t == "-p" || t == "--strip":
			in.strip, _ = strconv.Atoi(next())
			in.stripSet = true
		case strings.HasPrefix(t, "--strip="):
			in.strip, _ = strconv.Atoi(t[len("--strip="):])
			in.stripSet = true
		case strings.HasPrefix(t, "-p") && len(t) > 2:
			in.strip, _ = strconv.Atoi(t[2:])
			in.stripSet = true
		case t == "-d" || t == "--directory":
			in.dir = next()
		case strings.HasPrefix(t, "--directory="):
			in.dir = t[len("--directory="):]
		}
	}
	return in
}

// gitApplyArgs reads git apply's words (after git's own options): the
// patch files, -pN (1 by default) and --directory; --check and the
// summaries write nothing.
func gitApplyArgs(args []word) unpackInput {
	i := 0
	for i < len(args) && args[i].Known && strings.HasPrefix(args[i].Text, "-") {
		if args[i].Text == "-C" || args[i].Text == "-c" {
			i++
		}
		i++
	}
	if i >= len(args) || !args[i].Known || args[i].Text != "apply" {
		return unpackInput{}
	}
	in := unpackInput{what: "git apply", format: "patch", strip: 1, stripSet: true}
	for _, a := range args[i+1:] {
		t := a.Text
		switch {
		case !a.Known:
			in.files = append(in.files, a)
		case t == "--check" || t == "--stat" || t == "--numstat" || t == "--summary":
			return unpackInput{}
		case strings.HasPrefix(t, "-p") && len(t) > 2:
			in.strip, _ = strconv.Atoi(t[2:])
		case strings.HasPrefix(t, "--directory="):
			in.dir = t[len("--directory="):]
		case strings.HasPrefix(t, "-"):
		default:
			in.files = append(in.files, a)
		}
	}
	return in
}
