//go:build unix && !linux && !darwin

package proc

import (
	"bufio"
	"bytes"
	"fmt"
	"hash/fnv"
	"os/exec"
	"strconv"
	"strings"
)

// readTable reads the process table through ps(1), which every BSD has;
// their sysctl layouts differ and golang.org/x/sys does not describe them.
func readTable() ([]procEntry, error) {
	out, err := exec.Command("ps", "-ax", "-o", "pid=,ppid=,pgid=,state=,lstart=").Output()
	if err != nil {
		return nil, fmt.Errorf("cannot read the process table with ps: %w", err)
	}
	var tab []procEntry
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 5 {
			continue
		}
		pid, err1 := strconv.Atoi(f[0])
		ppid, err2 := strconv.Atoi(f[1])
		pgid, err3 := strconv.Atoi(f[2])
		if err1 != nil || err2 != nil || err3 != nil {
			continue
		}
		h := fnv.New64a()
		h.Write([]byte(strings.Join(f[4:], " ")))
		tab = append(tab, procEntry{pid: pid, ppid: ppid, pgid: pgid, live: !strings.HasPrefix(f[3], "Z"), start: h.Sum64()})
	}
	return tab, nil
}
