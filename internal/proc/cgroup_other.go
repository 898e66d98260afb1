//go:build !linux

package proc

import (
	"os/exec"
	"syscall"
	"time"
)

// CgroupStatus says that sessions' commands do not run in cgroups of
// their own: only Linux has them.
func CgroupStatus() (inUse bool, why string) { return false, "cgroups are Linux's" }

// A Cgroup is never made here.
type Cgroup struct{}

// NewCgroup returns nil: no cgroups here.
func NewCgroup() *Cgroup { return nil }

func (*Cgroup) Populated() bool              { return false }
func (*Cgroup) Signal(syscall.Signal)        {}
func (*Cgroup) End(time.Duration) bool       { return true }
func (*Cgroup) CPU() time.Duration           { return 0 }
func (*Cgroup) Remove()                      {}
func (*Cgroup) Kill()                        {}
func (g *Group) InCgroup(*Cgroup)            {}
func (g *Group) Cgroup() *Cgroup             { return nil }
func (g *Group) intoCgroup(*exec.Cmd) func() { return func() {} }

// CgroupsCPU returns 0 and false: no cgroups count CPU time here.
func CgroupsCPU() (time.Duration, bool) { return 0, false }
