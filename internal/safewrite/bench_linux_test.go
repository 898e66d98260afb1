package safewrite

import (
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// diskWrites is what this process has had written to disk so far
// (/proc/self/io), or -1.
func diskWrites() int64 {
	b, _ := os.ReadFile("/proc/self/io")
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "write_bytes: "); ok {
			n, _ := strconv.ParseInt(v, 10, 64)
			return n
		}
	}
	return -1
}

// BenchmarkWrite100MB replaces a 100 MiB file whole: by rename (one
// name) and in place (two names: the old content goes to the sidecar
// first). disk-MB/op is what reached the disk per write. Run it with
// -benchtime=5x; docs/performance.md has the figures.
func BenchmarkWrite100MB(b *testing.B) {
	const size = 100 << 20
	content := make([]byte, size)
	for i := range content {
		content[i] = byte('a' + i%26)
	}
	fill := func(w io.Writer) error { _, err := w.Write(content); return err }
	for _, c := range []struct {
		name  string
		links bool
	}{{"rename", false}, {"in-place", true}} {
		b.Run(c.name, func(b *testing.B) {
			dir := b.TempDir()
			p := filepath.Join(dir, "f")
			if err := os.WriteFile(p, content, 0o644); err != nil {
				b.Fatal(err)
			}
			if c.links {
				if err := os.Link(p, filepath.Join(dir, "g")); err != nil {
					b.Fatal(err)
				}
			}
			r, err := os.OpenRoot(dir)
			if err != nil {
				b.Fatal(err)
			}
			defer r.Close()
			b.SetBytes(size)
			w0 := diskWrites()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				content[0] = byte('a' + i%26)
				res, err := Write(r, "f", fill)
				if err != nil || res.InPlace != c.links {
					b.Fatalf("%+v %v", res, err)
				}
			}
			b.StopTimer()
			b.ReportMetric(float64(diskWrites()-w0)/float64(b.N)/1e6, "disk-MB/op")
		})
	}
}
