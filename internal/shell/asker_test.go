package shell

import (
	"io/fs"
	"strings"
	"testing"

	"github.com/spillway-dev/spillway/internal/proc"
)

// The verdicts on who reads a terminal, from what is known of the
// readers: only the system's program is verified.
func TestVerifyAsker(t *testing.T) {
	sys := func(path string, mode fs.FileMode) proc.ExecFile {
		return proc.ExecFile{Path: path, UID: 0, Mode: mode, DirsSafe: true}
	}
	libc := sys("/usr/lib/x86_64-linux-gnu/libc.so.6", 0o755)
	sudo := proc.Reader{PID: 10, Name: "sudo", Exe: "/usr/bin/sudo", Files: []proc.ExecFile{sys("/usr/bin/sudo", 0o755|fs.ModeSetuid), libc}}
	ssh := proc.Reader{PID: 11, Name: "ssh", Exe: "/usr/bin/ssh", Files: []proc.ExecFile{sys("/usr/bin/ssh", 0o755), libc}}
	trust := SecretTrust{Trusted: []string{"ssh"}, Writable: []string{"/work/proj", "/tmp/spill"}}
	with := func(r proc.Reader, f func(*proc.Reader)) proc.Reader {
		r.Files = append([]proc.ExecFile(nil), r.Files...)
		f(&r)
		return r
	}
	cases := []struct {
		name    string
		readers []proc.Reader
		root    bool
		trust   SecretTrust
		ok      bool
		why     string
	}{
		{"the system's sudo", []proc.Reader{sudo}, false, trust, true, ""},
		{"a trusted ssh", []proc.Reader{ssh}, false, trust, true, ""},
		{"sudo hidden, set-uid root", []proc.Reader{{PID: 12, Name: "sudo", Hidden: true, SetUIDRoot: true}}, false, trust, true, ""},
		{"a hidden process that is not set-uid", []proc.Reader{{PID: 12, Name: "sudo", Hidden: true}}, false, trust, false, "not a set-user-ID program of root's"},
		{"a script named sudo", []proc.Reader{{PID: 13, Name: "sudo", Exe: "/usr/bin/bash", Files: []proc.ExecFile{sys("/usr/bin/bash", 0o755)}}}, false, trust, false, "a script named sudo run by /usr/bin/bash"},
		{"a binary named sudo in the workspace", []proc.Reader{with(sudo, func(r *proc.Reader) {
			r.Exe = "/work/proj/bin/sudo"
			r.Files[0] = proc.ExecFile{Path: r.Exe, UID: 1000, Mode: 0o755, DirsSafe: false}
		})}, false, trust, false, "is not a set-user-ID program of root's"},
		{"a root-owned sudo in a writable directory", []proc.Reader{with(sudo, func(r *proc.Reader) {
			r.Exe = "/work/proj/bin/sudo"
			r.Files[0] = sys(r.Exe, 0o755|fs.ModeSetuid)
		})}, false, trust, false, "which the session's commands may write"},
		{"sudo without its set-uid bit", []proc.Reader{with(sudo, func(r *proc.Reader) { r.Files[0].Mode = 0o755 })}, false, trust, false, "not a set-user-ID program"},
		{"ssh with a preloaded library", []proc.Reader{with(ssh, func(r *proc.Reader) {
			r.Files = append(r.Files, proc.ExecFile{Path: "/work/proj/evil.so", UID: 1000, Mode: 0o644})
		})}, false, trust, false, "a library it runs, /work/proj/evil.so"},
		{"ssh in a directory others may write", []proc.Reader{with(ssh, func(r *proc.Reader) { r.Files[0].DirsSafe = false })}, false, trust, false, "in a directory that others"},
		{"ssh writable by its group", []proc.Reader{with(ssh, func(r *proc.Reader) { r.Files[0].Mode = 0o775 })}, false, trust, false, "may be written by others"},
		{"a traced ssh", []proc.Reader{with(ssh, func(r *proc.Reader) { r.Traced = true })}, false, trust, false, "traces it"},
		{"ssh not trusted", []proc.Reader{ssh}, false, SecretTrust{}, false, "nor a program named in secrets.trusted"},
		{"python's getpass", []proc.Reader{{PID: 14, Name: "python3", Exe: "/usr/bin/python3.11", Files: []proc.ExecFile{sys("/usr/bin/python3.11", 0o755)}}}, false, trust, false, "interpreter"},
		{"a second reader from the workspace", []proc.Reader{sudo, {PID: 15, Name: "cat", Exe: "/work/proj/cat", Files: []proc.ExecFile{{Path: "/work/proj/cat", UID: 1000, Mode: 0o755}}}}, false, trust, false, "cat is not"},
		{"root without the sandbox", []proc.Reader{sudo}, true, trust, false, "runs as root without --sandbox"},
		{"root in the sandbox", []proc.Reader{sudo}, true, SecretTrust{Writable: trust.Writable, Sandboxed: true}, true, ""},
		{"no reader found", nil, false, trust, false, "could not be found"},
	}
	for _, c := range cases {
		a := c.trust.verify(c.readers, true, "/work/proj", c.root)
		if a.Verified != c.ok || !strings.Contains(a.Why, c.why) {
			t.Errorf("%s: verified %v (%q), want %v (%q)", c.name, a.Verified, a.Why, c.ok, c.why)
		}
	}
}
