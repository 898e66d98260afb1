package output

import "testing"

// BenchmarkShapeHash measures the hash of a line's shape, which a scan of
// the shapes of a stream computes for every line.
func BenchmarkShapeHash(b *testing.B) {
	lines := [][]byte{
		[]byte("2026-01-02T03:04:05Z INFO  server: request handled path=/api/v1/items status=200 dur=3ms"),
		[]byte("ok  \tgithub.com/example/pkg/sub\t0.123s"),
		[]byte("commit 3f2a9c1e8b7d6f5a4c3b2a1908f7e6d5c4b3a291 merged by deploy-bot into main"),
		[]byte("1048576"),
		[]byte("    at com.example.service.Handler.process(Handler.java:214)"),
	}
	n := 0
	for _, l := range lines {
		n += len(l)
	}
	b.SetBytes(int64(n))
	b.ReportAllocs()
	var sink uint64
	for b.Loop() {
		for _, l := range lines {
			h, _ := shapeHash(l)
			sink ^= h
		}
	}
	_ = sink
}
