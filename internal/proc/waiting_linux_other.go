//go:build linux && !amd64

package proc

// Newer architectures (arm64, riscv64, …) have only pselect6, ppoll and
// epoll_pwait; 386 and arm also have older forms, not told apart here.
func selectCall(int) bool { return false }
func pollCall(int) bool   { return false }
func epollCall(int) bool  { return false }
