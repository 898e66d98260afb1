//go:build linux || openbsd || dragonfly || solaris

package files

import "syscall"

func ctimeOf(st *syscall.Stat_t) int64 { return st.Ctim.Nano() }
