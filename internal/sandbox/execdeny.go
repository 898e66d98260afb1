package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// StandardBinDirs are searched for a denied program besides the PATHs
// given to ResolvePrograms: a command may name a program by a path in
// any of them, whatever its PATH says.
var StandardBinDirs = []string{"/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"}

// A DeniedProgram is a program name a deny rule names and the files it
// is found as.
type DeniedProgram struct {
	Name string
	// Files are the real paths (symlinks resolved) of the files found
	// under the name, to be denied at exec (Rules.DenyExec).
	Files []string
	// Skipped are files found under the name that are not denied, each
	// with why: a link to a file of another name is most often a
	// multi-call binary (busybox, a single-binary coreutils), which
	// every other program of it would lose too.
	Skipped []string
}

// ResolvePrograms finds every file each of names is, in the
// directories of the PATH lists pathLists and StandardBinDirs: the real
// path of each regular, executable file of that name. A file whose real
// name is not the program's (nor the program's followed by a version,
// as python3 is python3.12) is skipped and said why.
func ResolvePrograms(names []string, pathLists ...string) []DeniedProgram {
	var dirs []string
	for _, l := range pathLists {
		for _, d := range filepath.SplitList(l) {
			if filepath.IsAbs(d) && !slices.Contains(dirs, d) {
				dirs = append(dirs, d)
			}
		}
	}
	for _, d := range StandardBinDirs {
		if !slices.Contains(dirs, d) {
			dirs = append(dirs, d)
		}
	}
	var out []DeniedProgram
	for _, name := range names {
		p := DeniedProgram{Name: name}
		for _, d := range dirs {
			real, err := filepath.EvalSymlinks(filepath.Join(d, name))
			if err != nil {
				continue
			}
			fi, err := os.Stat(real)
			if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm()&0o111 == 0 {
				continue
			}
			if slices.Contains(p.Files, real) || slices.ContainsFunc(p.Skipped, func(s string) bool { return strings.HasPrefix(s, real+" ") }) {
				continue
			}
			if !sameProgram(name, filepath.Base(real)) {
				p.Skipped = append(p.Skipped, real+" (found as "+filepath.Join(d, name)+": a file of another name, most likely a multi-call binary; deny "+filepath.Base(real)+" to deny it at exec)")
				continue
			}
			p.Files = append(p.Files, real)
		}
		out = append(out, p)
	}
	return out
}

// sameProgram reports whether a file named base is the program name:
// the same name, or the name followed by a version ("python3.12",
// "gcc-13").
func sameProgram(name, base string) bool {
	rest, ok := strings.CutPrefix(base, name)
	if !ok {
		return false
	}
	rest = strings.TrimLeft(rest, ".-_")
	return strings.Trim(rest, "0123456789.") == ""
}
