package proc

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// TerminalReaders returns the processes that read the terminal whose
// master is master and whose slave is link (/dev/pts/N): the members of
// its foreground process group that are blocked reading it, or asleep
// where this process cannot see what they wait for (a set-user-ID
// program). ok is false when the foreground group cannot be learnt.
func TerminalReaders(master *os.File, link string) (readers []Reader, ok bool) {
	c, err := master.SyscallConn()
	if err != nil {
		return nil, false
	}
	pgrp := -1
	c.Control(func(fd uintptr) {
		if n, err := unix.IoctlGetInt(int(fd), unix.TIOCGPGRP); err == nil {
			pgrp = n
		}
	})
	if pgrp <= 0 {
		return nil, false
	}
	eachProc(func(pid int) bool {
		st, ok := readStat(pid)
		if !ok || st.pgrp != pgrp || st.state != 'S' {
			return true
		}
		_, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/syscall")
		if hidden := os.IsPermission(err); hidden || readsInput(pid, link) {
			r := inspect(pid)
			r.Start = st.start
			readers = append(readers, r)
		}
		return true
	})
	return readers, true
}

// inspect learns what a process runs.
func inspect(pid int) Reader {
	dir := "/proc/" + strconv.Itoa(pid)
	r := Reader{PID: pid}
	if b, err := os.ReadFile(dir + "/comm"); err == nil {
		r.Name = strings.TrimSuffix(string(b), "\n")
	}
	if b, err := os.ReadFile(dir + "/status"); err == nil {
		uids := statusField(b, "Uid:")
		r.SetUIDRoot = len(uids) >= 2 && uids[0] != "0" && uids[1] == "0"
		if t := statusField(b, "TracerPid:"); len(t) == 1 && t[0] != "0" {
			r.Traced = true
		}
	}
	exe, err := os.Readlink(dir + "/exe")
	if err != nil {
		r.Hidden = true
		return r
	}
	r.Exe = exe
	// Through /proc/PID/root, the paths resolve as the process sees them:
	// in its own mount namespace, under the sandbox.
	root := dir + "/root"
	r.Files = append(r.Files, execFile(root, exe, dir+"/exe"))
	seen := map[string]bool{exe: true}
	f, err := os.Open(dir + "/maps")
	if err != nil {
		r.Hidden = true
		return r
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// address perms offset dev inode path
		fields := strings.Fields(sc.Text())
		if len(fields) < 6 || !strings.Contains(fields[1], "x") || !strings.HasPrefix(fields[5], "/") {
			continue
		}
		p := strings.Join(fields[5:], " ")
		if seen[p] {
			continue
		}
		seen[p] = true
		r.Files = append(r.Files, execFile(root, p, root+p))
	}
	return r
}

// statusField returns the values of a line of /proc/PID/status.
func statusField(status []byte, name string) []string {
	for line := range bytes.SplitSeq(status, []byte("\n")) {
		if v, ok := bytes.CutPrefix(line, []byte(name)); ok {
			return strings.Fields(string(v))
		}
	}
	return nil
}

// execFile describes the file at path (as the process sees it, under
// root), stat'ed through at.
func execFile(root, path, at string) ExecFile {
	e := ExecFile{Path: path, UID: ^uint32(0)}
	fi, err := os.Stat(at)
	if err != nil {
		return e
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		e.UID = st.Uid
	}
	e.Mode = fi.Mode()
	e.DirsSafe = true
	for d := filepath.Dir(path); ; d = filepath.Dir(d) {
		fi, err := os.Stat(root + d)
		if err != nil {
			e.DirsSafe = false
			break
		}
		st, ok := fi.Sys().(*syscall.Stat_t)
		if !ok || st.Uid != 0 || fi.Mode().Perm()&0o022 != 0 {
			e.DirsSafe = false
			break
		}
		if d == "/" || d == "." {
			break
		}
	}
	return e
}

// Alive reports whether the process pid that started at start still
// runs (is not a zombie).
func Alive(pid int, start uint64) bool {
	st, ok := readStat(pid)
	return ok && st.start == start && st.state != 'Z'
}
