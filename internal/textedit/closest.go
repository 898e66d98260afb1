package textedit

import (
	"bytes"
	"slices"
)

// maxClosestScan bounds the bytes searched for the closest lines.
const maxClosestScan = 64 << 20

// Closest returns the run of lines of text most like old (as many as old
// has, at most 5) and the first one's 1-based number; nil when text has
// no line like old at all. It reads at most the first 64 MiB of text.
func Closest(text, old []byte) ([]string, int) {
	if len(text) > maxClosestScan {
		text = text[:maxClosestScan]
	}
	want := splitLines(old)
	if len(want) == 0 {
		return nil, 0
	}
	if len(want) > 5 {
		want = want[:5]
	}
	lines := splitLines(text)
	if len(lines) == 0 {
		return nil, 0
	}
	wantGrams := make([][]uint16, len(want))
	for i, w := range want {
		wantGrams[i] = bigrams(bytes.TrimSpace(w), nil)
	}
	// The scores of the last k lines against each wanted line, in a ring:
	// the window that ends at line i starts at i-k+1.
	k := min(len(want), len(lines))
	ring := make([][]float64, k)
	for i := range ring {
		ring[i] = make([]float64, k)
	}
	var buf []uint16
	best, bestAt := -1.0, 0
	for i, l := range lines {
		buf = bigrams(bytes.TrimSpace(l), buf[:0])
		for j := 0; j < k; j++ {
			ring[i%k][j] = dice(wantGrams[j], buf)
		}
		start := i - k + 1
		if start < 0 {
			continue
		}
		s := 0.0
		for j := 0; j < k; j++ {
			s += ring[(start+j)%k][j]
		}
		if s > best {
			best, bestAt = s, start
		}
	}
	if best/float64(k) < 0.2 {
		return nil, 0
	}
	out := make([]string, k)
	for j := range out {
		out[j] = string(lines[bestAt+j])
	}
	return out, bestAt + 1
}

// splitLines splits b into lines without their ends; a final line end
// makes no empty line.
func splitLines(b []byte) [][]byte {
	if len(b) == 0 {
		return nil
	}
	b = bytes.TrimSuffix(b, []byte{'\n'})
	return bytes.Split(b, []byte{'\n'})
}

// bigrams appends the sorted byte pairs of b to buf.
func bigrams(b []byte, buf []uint16) []uint16 {
	for i := 0; i+1 < len(b); i++ {
		buf = append(buf, uint16(b[i])<<8|uint16(b[i+1]))
	}
	if len(b) == 1 {
		buf = append(buf, uint16(b[0]))
	}
	slices.Sort(buf)
	return buf
}

// dice is the Sørensen–Dice coefficient of two sorted multisets.
func dice(a, b []uint16) float64 {
	if len(a) == 0 && len(b) == 0 {
		return 1
	}
	common := 0
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] == b[j]:
			common++
			i++
			j++
		case a[i] < b[j]:
			i++
		default:
			j++
		}
	}
	return 2 * float64(common) / float64(len(a)+len(b))
}
