//go:build aix

package files

import "syscall"

func ctimeOf(st *syscall.Stat_t) int64 { return int64(st.Ctim.Sec)*1e9 + int64(st.Ctim.Nsec) }
