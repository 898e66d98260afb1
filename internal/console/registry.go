package console

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// sockSuffix ends the name of a server's socket: PID.sock.
const sockSuffix = ".sock"

// addrSuffix ends the name of the file that holds a server's abstract
// address: PID.addr.
const addrSuffix = ".addr"

// abstractPrefix begins every abstract address a server listens on.
const abstractPrefix = "@spillway-console-"

// Dir is the directory where this user's servers put their sockets:
// $XDG_RUNTIME_DIR/spillway/console when the runtime directory is set,
// else spillway-UID/console in the temp directory. It is made if
// missing, and must be a directory of this user that nobody else may
// enter.
func Dir() (string, error) {
	base := os.Getenv("XDG_RUNTIME_DIR")
	var dir string
	if filepath.IsAbs(base) {
		dir = filepath.Join(base, "spillway", "console")
	} else {
		dir = filepath.Join(os.TempDir(), fmt.Sprintf("spillway-%d", os.Geteuid()), "console")
	}
	return dir, privateDir(dir)
}

// Dirs are the directories a console of this user may use, whatever its
// environment: Dir's here, and Dir's for a console started with
// $XDG_RUNTIME_DIR at its usual /run/user/UID, or unset, or with $TMPDIR
// unset. A person's terminal, their console and a server their client
// started need not share an environment, and a sandbox that hid only
// this process's would leave the others' login pages readable. None is
// made.
func Dirs() []string {
	uid := strconv.Itoa(os.Geteuid())
	var dirs []string
	if base := os.Getenv("XDG_RUNTIME_DIR"); filepath.IsAbs(base) {
		dirs = append(dirs, filepath.Join(base, "spillway", "console"))
	}
	for _, d := range []string{
		filepath.Join("/run/user", uid, "spillway", "console"),
		filepath.Join(os.TempDir(), "spillway-"+uid, "console"),
		filepath.Join("/tmp", "spillway-"+uid, "console"),
	} {
		if !slices.Contains(dirs, d) {
			dirs = append(dirs, d)
		}
	}
	return dirs
}

// MakeDirs makes each directory of Dirs that is missing where its base
// (the runtime or temp directory) exists, private as Dir makes its own,
// and ignores one it cannot make or that is not private (another user's:
// no console uses it). A sandbox covers a directory that exists when it
// starts; one a console made later would be open to the commands.
func MakeDirs() {
	for _, d := range Dirs() {
		if _, err := os.Stat(filepath.Dir(filepath.Dir(d))); err == nil {
			makePrivate(d)
		}
	}
}

// makePrivate makes dir and its parent, each only in a real directory of
// this user that nobody else may enter: a name planted in a shared
// directory (a symlink as /tmp/spillway-UID) is never followed.
func makePrivate(dir string) {
	for _, d := range []string{filepath.Dir(dir), dir} {
		if err := os.Mkdir(d, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
			return
		}
		fi, err := os.Lstat(d)
		if err != nil || !fi.IsDir() || ownedPrivate(fi) != nil {
			return
		}
	}
}

// privateDir makes dir (and its parent) 0700 if missing, and checks that
// it is a real directory of this user with no access for anyone else:
// another user who could make it first could read what the servers say.
func privateDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("cannot make the console's directory %s: %w", dir, err)
	}
	for _, d := range []string{filepath.Dir(dir), dir} {
		fi, err := os.Lstat(d)
		if err != nil {
			return fmt.Errorf("the console's directory: %w", err)
		}
		if !fi.IsDir() {
			return fmt.Errorf("the console's directory %s is not a directory (a symlink?): remove it", d)
		}
		if err := ownedPrivate(fi); err != nil {
			return fmt.Errorf("the console's directory %s: %w", d, err)
		}
	}
	return nil
}

// A Found is a server found in the directory: Path is the address to
// dial, a socket's path or (on Linux) an abstract address, "@…".
type Found struct {
	PID  int
	Path string
}

// Discover lists the servers in dir, lowest pid first: their sockets,
// and the files that name their abstract addresses. One whose server is
// gone is removed.
func Discover(dir string) ([]Found, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []Found
	for _, e := range ents {
		pid, addr, ok := serverEntry(dir, e)
		if !ok {
			continue
		}
		if !alive(pid) {
			os.Remove(filepath.Join(dir, e.Name()))
			continue
		}
		out = append(out, Found{PID: pid, Path: addr})
	}
	slices.SortFunc(out, func(a, b Found) int { return a.PID - b.PID })
	return out, nil
}

// serverEntry reads a directory entry as a server's: PID.sock, a socket
// at that path, or PID.addr, a file of this user's that holds an
// abstract address.
func serverEntry(dir string, e os.DirEntry) (pid int, addr string, ok bool) {
	path := filepath.Join(dir, e.Name())
	if s, found := strings.CutSuffix(e.Name(), sockSuffix); found && e.Type()&os.ModeSocket != 0 {
		pid, ok = serverPID(s)
		return pid, path, ok
	}
	s, found := strings.CutSuffix(e.Name(), addrSuffix)
	if !found || !e.Type().IsRegular() {
		return 0, "", false
	}
	if pid, ok = serverPID(s); !ok {
		return 0, "", false
	}
	b, err := os.ReadFile(path)
	if err != nil || len(b) > 200 || !strings.HasPrefix(string(b), abstractPrefix) {
		return 0, "", false
	}
	return pid, string(b), true
}

// serverPID is the pid a name gives, if it is one.
func serverPID(s string) (int, bool) {
	pid, err := strconv.Atoi(s)
	return pid, err == nil && pid > 0
}

// isServer reports whether dir names a server of pid.
func isServer(dir string, pid int) bool {
	for _, suffix := range []string{sockSuffix, addrSuffix} {
		if _, err := os.Lstat(filepath.Join(dir, strconv.Itoa(pid)+suffix)); err == nil {
			return true
		}
	}
	return false
}

// listen listens on this process's socket in dir, replacing one a dead
// process with the same pid left. It returns the listener, the address
// to dial and the file in dir that names it.
func listen(dir string) (ln net.Listener, addr, file string, err error) {
	if err := privateDir(dir); err != nil {
		return nil, "", "", err
	}
	return listenIn(dir)
}
