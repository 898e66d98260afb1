//go:build darwin || freebsd || netbsd

package files

import "syscall"

func ctimeOf(st *syscall.Stat_t) int64 { return st.Ctimespec.Nano() }
