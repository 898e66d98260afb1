//go:build linux && !spillway_portable

package shell

// watchParent is false on Linux: the shell gets SIGKILL from the kernel
// when the server dies (Pdeathsig).
const watchParent = false
