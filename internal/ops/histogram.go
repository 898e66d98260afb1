package ops

// durationBounds are the upper bounds of the call duration buckets: 1 ms
// and four times more each, to about a minute (0.001×4^k). A read takes
// milliseconds, a bash call up to its timeout (50 s under MCP).
var durationBounds = [...]float64{0.001, 0.004, 0.016, 0.064, 0.256, 1.024, 4.096, 16.384, 65.536}

// A histogram counts observations in durationBounds' buckets. Its owner
// guards it.
type histogram struct {
	counts [len(durationBounds) + 1]uint64 // per bucket, not cumulative; the last is +Inf's
	sum    float64
}

// observe counts v in the first bucket whose bound is at least v.
func (h *histogram) observe(v float64) {
	i := 0
	for i < len(durationBounds) && v > durationBounds[i] {
		i++
	}
	h.counts[i]++
	h.sum += v
}

// series returns h's buckets as the text format has them, cumulative.
func (h *histogram) series(values ...string) series {
	s := series{values: values, points: make([]point, len(durationBounds)), sum: h.sum}
	for i, bound := range durationBounds {
		s.count += h.counts[i]
		s.points[i] = point{bound, float64(s.count)}
	}
	s.count += h.counts[len(durationBounds)]
	return s
}
