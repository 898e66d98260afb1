//go:build !linux

package rules

import (
	"context"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// limitSelf does nothing where RLIMIT_AS is not enforced (macOS): the
// parent watches the child's resident size instead (watchChild).
func limitSelf(uint64) {}

// watchChild polls the child's resident size and kills it past limit
// more than it had at its first look. stop ends the watch and reports
// whether it killed the child.
func watchChild(ctx context.Context, p *os.Process, limit uint64) func() bool {
	var killed atomic.Bool
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(50 * time.Millisecond)
		defer t.Stop()
		base := uint64(0)
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
			}
			out, err := exec.Command("ps", "-o", "rss=", "-p", strconv.Itoa(p.Pid)).Output()
			if err != nil {
				continue
			}
			kb, err := strconv.ParseUint(strings.TrimSpace(string(out)), 10, 64)
			if err != nil {
				continue
			}
			if base == 0 {
				base = kb << 10
			}
			if kb<<10 > base+limit {
				killed.Store(true)
				p.Kill()
				return
			}
		}
	}()
	return func() bool { close(done); return killed.Load() }
}
