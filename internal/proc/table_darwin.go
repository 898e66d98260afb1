package proc

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// sZomb is a zombie's p_stat in darwin's struct extern_proc.
const sZomb = 5

// readTable reads the process table with sysctl kern.proc.all.
func readTable() ([]procEntry, error) {
	procs, err := unix.SysctlKinfoProcSlice("kern.proc.all")
	if err != nil {
		return nil, fmt.Errorf("cannot read the process table: %w", err)
	}
	tab := make([]procEntry, 0, len(procs))
	for i := range procs {
		p := &procs[i]
		st := p.Proc.P_starttime
		tab = append(tab, procEntry{
			pid:   int(p.Proc.P_pid),
			ppid:  int(p.Eproc.Ppid),
			pgid:  int(p.Eproc.Pgid),
			live:  p.Proc.P_stat != sZomb,
			start: uint64(st.Sec)*1e6 + uint64(st.Usec),
		})
	}
	return tab, nil
}
