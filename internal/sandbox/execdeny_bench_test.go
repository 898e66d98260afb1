//go:build linux && !spillway_portable

package sandbox

import (
	"io"
	"os"
	"os/exec"
	"slices"
	"syscall"
	"testing"
	"time"
)

// The price of denying rm at exec on `bash -c true`: p50 of runs with
// and without the denial, taken in turns in one run so that the load
// weighs on both alike. In a session sandbox the rules are built once,
// when its zygote starts; without namespaces each command's helper
// builds them (it lists every directory on the way to each denied file).
//
//	go test -run '^$' -bench DenyExec -benchtime 1x ./internal/sandbox/
func BenchmarkDenyExec(b *testing.B) {
	if ok, abi, _ := Status(); !ok || abi < FilesABI {
		b.Skip("no Landlock here")
	}
	files := ResolvePrograms([]string{"rm"}, os.Getenv("PATH"))[0].Files
	full, _ := Check(Rules{}, Landlock)
	modes := map[string]Layer{"helper": full &^ Namespaces}
	if full&Namespaces != 0 {
		modes["session"] = full
	}
	for name, layers := range modes {
		b.Run(name, func(b *testing.B) {
			plain := Rules{Writable: []string{b.TempDir()}, Layers: layers}
			deny := Rules{Writable: []string{b.TempDir()}, Layers: layers, DenyExec: files}
			const n = 60
			var without, with []time.Duration
			for range b.N {
				for i := 0; i < n; i++ {
					without = append(without, timeTrue(b, plain))
					with = append(with, timeTrue(b, deny))
				}
			}
			p0, p1 := p50(without), p50(with)
			b.ReportMetric(float64(p0)/1e6, "p50-ms-without")
			b.ReportMetric(float64(p1)/1e6, "p50-ms-with")
			b.ReportMetric(float64(p1)/float64(p0), "ratio")
		})
	}
}

func p50(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}

// timeTrue runs `bash -c true` under rules, to its end.
func timeTrue(b *testing.B, rules Rules) time.Duration {
	t0 := time.Now()
	cmd := exec.Command("bash", "-c", "true")
	cmd.Dir = "/"
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	l, err := Wrap(cmd, rules)
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	if l.Start != nil {
		_, err = l.Start()
		l.Started()
		if err != nil {
			b.Fatal(err)
		}
		// The started byte, then the shell's wait status.
		var st [5]byte
		if _, err := io.ReadFull(l.Status, st[:]); err != nil || st[0] != StatusStarted {
			b.Fatalf("status %q: %v", st, err)
		}
		return time.Since(t0)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	l.Started()
	if err := cmd.Wait(); err != nil {
		b.Fatal(err)
	}
	return time.Since(t0)
}
