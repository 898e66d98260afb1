package ops

import (
	"bytes"
	"math"
	"slices"
	"strconv"
	"strings"
)

// contentType is that of Prometheus' text exposition format, the one
// every Prometheus server and scraper reads.
const contentType = "text/plain; version=0.0.4; charset=utf-8"

// A family is one metric as the text format writes it: a HELP line, a
// TYPE line and its series.
type family struct {
	name, help string
	typ        string   // counter, gauge, histogram or summary
	labels     []string // the label names, the same for every series
	series     []series
}

// A series is one set of label values (in the order of the family's
// labels) and what was measured for it.
type series struct {
	values []string
	value  float64 // a counter's or a gauge's
	// points are a histogram's buckets, at each upper bound but +Inf
	// with the count of observations up to it, or a summary's quantiles.
	points []point
	sum    float64
	count  uint64
}

type point struct{ at, v float64 }

// writeText writes the families the way Prometheus' own client library
// does, so a scrape reads the same either way: families sorted by name,
// empty ones left out, labels sorted by name, series by their values.
func writeText(b *bytes.Buffer, fams []family) {
	slices.SortFunc(fams, func(x, y family) int { return strings.Compare(x.name, y.name) })
	for _, f := range fams {
		if len(f.series) == 0 {
			continue
		}
		order := sortLabels(f)
		b.WriteString("# HELP ")
		b.WriteString(f.name)
		b.WriteByte(' ')
		writeEscaped(b, f.help, false)
		b.WriteString("\n# TYPE ")
		b.WriteString(f.name)
		b.WriteByte(' ')
		b.WriteString(f.typ)
		b.WriteByte('\n')
		for _, s := range f.series {
			seriesWriter{b: b, f: f, order: order, s: s}.write()
		}
	}
}

// sortLabels returns the indexes of f's labels in the order of their
// names, and sorts f's series by their values in that order.
func sortLabels(f family) []int {
	order := make([]int, len(f.labels))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(i, j int) int { return strings.Compare(f.labels[i], f.labels[j]) })
	slices.SortFunc(f.series, func(x, y series) int {
		for _, i := range order {
			if c := strings.Compare(x.values[i], y.values[i]); c != 0 {
				return c
			}
		}
		return 0
	})
	return order
}

// A seriesWriter writes the samples of one series of a family, its
// labels in order.
type seriesWriter struct {
	b     *bytes.Buffer
	f     family
	order []int
	s     series
}

// write writes the series' samples as its family's type has them.
func (w seriesWriter) write() {
	switch w.f.typ {
	case "histogram":
		for _, p := range w.s.points {
			w.sample("_bucket", "le", p.at, p.v)
		}
		w.sample("_bucket", "le", math.Inf(1), float64(w.s.count))
	case "summary":
		for _, p := range w.s.points {
			w.sample("", "quantile", p.at, p.v)
		}
	default:
		w.sample("", "", 0, w.s.value)
		return
	}
	w.sample("_sum", "", 0, w.s.sum)
	w.sample("_count", "", 0, float64(w.s.count))
}

// sample writes one sample line: the family's name with suffix, the
// series' labels and, when extra is set, the label extra with the value
// at, then v.
func (w seriesWriter) sample(suffix, extra string, at, v float64) {
	b := w.b
	b.WriteString(w.f.name)
	b.WriteString(suffix)
	sep := byte('{')
	for _, i := range w.order {
		b.WriteByte(sep)
		b.WriteString(w.f.labels[i])
		b.WriteString(`="`)
		writeEscaped(b, w.s.values[i], true)
		b.WriteByte('"')
		sep = ','
	}
	if extra != "" {
		b.WriteByte(sep)
		b.WriteString(extra)
		b.WriteString(`="`)
		writeFloat(b, at)
		b.WriteByte('"')
		sep = ','
	}
	if sep == ',' {
		b.WriteByte('}')
	}
	b.WriteByte(' ')
	writeFloat(b, v)
	b.WriteByte('\n')
}

// writeEscaped writes s with backslashes and line feeds escaped, and in
// a label value double quotes too. The format is UTF-8: ranging over s
// turns each byte that is not into U+FFFD.
func writeEscaped(b *bytes.Buffer, s string, quoted bool) {
	for _, r := range s {
		switch {
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '"' && quoted:
			b.WriteString(`\"`)
		default:
			b.WriteRune(r)
		}
	}
}

// writeFloat writes v as Prometheus' client library does: the shortest
// decimal that reads back as v, and the format's names for the infinities
// and NaN.
func writeFloat(b *bytes.Buffer, v float64) {
	switch {
	case math.IsNaN(v):
		b.WriteString("NaN")
	case math.IsInf(v, 1):
		b.WriteString("+Inf")
	case math.IsInf(v, -1):
		b.WriteString("-Inf")
	default:
		b.Write(strconv.AppendFloat(b.AvailableBuffer(), v, 'g', -1, 64))
	}
}
