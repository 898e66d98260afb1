// Package proc follows the processes of a job: it starts a command in a
// process group and session of its own, finds every process that belongs
// to the job or holds its pipes (children that left the group included),
// sees whether one of them waits for input, signals them all, and, through
// a watcher process, kills them when the server dies.
//
// It knows processes, pipes and terminals as the kernel shows them; what
// a job wrote, its history and how it is rendered are internal/shell's.
// The kernel answers differently on each system: Linux's /proc names the
// holders of a pipe; elsewhere (and on Linux with -tags
// spillway_portable, so that CI runs it) the process table and an
// environment mark stand in for it; Windows has only the shell's tree.
package proc
