package proc

import "golang.org/x/sys/unix"

// blockedOnInput reports whether a process of group pgid is asleep
// reading its input. macOS has no /proc; its process table (sysctl
// kern.proc) gives each sleeping process's wait message, the word the
// kernel's sleep was given, as ps -o wchan shows it: "ttyin" for a
// terminal read, "piperd" for a pipe read. A poll or select ("select",
// "kqread") is not counted: it cannot be tied to the input. link is not
// needed: the job's group reads no other terminal or pipe that waits on
// us.
func blockedOnInput(pgid int, link string) bool {
	procs, err := unix.SysctlKinfoProcSlice("kern.proc.pgrp", pgid)
	if err != nil {
		return false
	}
	for _, p := range procs {
		switch unix.ByteSliceToString(p.Eproc.Wmesg[:]) {
		case "ttyin", "piperd":
			return true
		}
	}
	return false
}

// fionread is the ioctl that counts the bytes waiting to be read:
// FIONREAD, _IOR('f', 127, int) on the BSDs and macOS, which x/sys/unix
// does not name there.
const fionread = 0x4004667f
