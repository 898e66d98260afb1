package sandbox

import (
	"fmt"
	"strings"
)

// SeatbeltDevices may be written by every sandboxed command on macOS, as
// the Linux sandbox allows its devices: `> /dev/null` is everywhere in
// shell scripts, and /dev/stdout and /dev/fd reopen the command's own
// output.
var SeatbeltDevices = []string{"/dev/null", "/dev/zero", "/dev/random", "/dev/urandom", "/dev/tty", "/dev/stdout", "/dev/stderr", "/dev/dtracehelper"}

// SeatbeltProfile returns the Seatbelt (SBPL) profile that confines a
// command on macOS under rules, and the sandbox-exec parameters ("-D
// NAME=VALUE") that name its writable directories. The directories reach
// the profile as parameters, never spliced into its text, so no path can
// change the profile's meaning; they must be real paths (symlinks
// resolved: macOS's /var and /tmp are symlinks into /private, and
// Seatbelt matches the resolved path).
//
// The profile allows what is not named (reading and executing anything,
// as on Linux), then denies every kind of write to the file system —
// content, creation, removal, renaming, mode, owner, times, flags and
// extended attributes — except under the writable directories and on the
// devices above; signals to any process outside the command's own
// sandbox (the server, other sessions' jobs); running or reading the
// files of DenyExec; and with NoNetwork every network operation, Unix
// sockets included.
//
// It is a pure function of rules, tested against golden files on every
// platform.
func SeatbeltProfile(rules Rules) (profile string, params []string) {
	var b strings.Builder
	b.WriteString(`(version 1)
; spillway --sandbox on macOS: read and execute anything, write only
; under the writable directories.
(allow default)

; Every write to the file system, metadata included, is denied ...
(deny file-write*)
; ... but under the writable directories,
`)
	n := 0
	for _, d := range rules.Writable {
		if d == "" {
			continue
		}
		name := fmt.Sprintf("WRITABLE_%d", n)
		fmt.Fprintf(&b, "(allow file-write* (subpath (param %q)))\n", name)
		params = append(params, "-D"+name+"="+d)
		n++
	}
	if n == 0 {
		b.WriteString("; (none)\n")
	}
	b.WriteString("; and on the devices every shell script writes to.\n(allow file-write*\n")
	for _, d := range SeatbeltDevices {
		fmt.Fprintf(&b, "  (literal %q)\n", d)
	}
	b.WriteString(`  (subpath "/dev/fd"))

; Signals reach only the command's own processes.
(deny signal)
(allow signal (target same-sandbox))
`)
	if len(rules.DenyExec) > 0 {
		// As on Linux, a program a deny rule names is neither run nor
		// read, so no route runs it: exec by any path, a copy, ld.so, a
		// script of it. Its metadata stays readable (ls, stat).
		b.WriteString("\n; The programs deny rules name: neither run nor read.\n")
		for i, f := range rules.DenyExec {
			name := fmt.Sprintf("DENY_%d", i)
			fmt.Fprintf(&b, "(deny process-exec* file-read-data (literal (param %q)))\n", name)
			params = append(params, "-D"+name+"="+f)
		}
	}
	if rules.NoNetwork {
		b.WriteString(`
; No network: no socket connects, binds or accepts, Unix ones included.
(deny network*)
`)
	}
	return b.String(), params
}
