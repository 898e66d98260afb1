package main

import "golang.org/x/sys/unix"

// notDumpable makes this process non-dumpable (PR_SET_DUMPABLE 0): the
// kernel then lets no process of the same user without CAP_SYS_PTRACE
// open its /proc/PID/fd/*, environ, mem or maps, attach to it or take a
// core of it. A command the server runs is such a process: without it,
// an unsandboxed command read the server's stderr log and environment
// through /proc/$PPID. Commands themselves are dumpable again, as every
// execve of an ordinary program makes a process.
func notDumpable() error { return unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0) }
