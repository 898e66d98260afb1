package search

import "bytes"

// A finder looks for one literal in a buffer. bytes.Index looks for the
// literal's first byte with IndexByte and compares at each hit; when that
// byte is common (an 'E', a 'f', a '('), it stops every few dozen bytes.
// A finder looks for the literal's rarest byte instead, by how often each
// byte occurs in source code and prose (byteRank), so that IndexByte runs
// long stretches between hits, and compares the whole literal around each
// hit. In text where that byte turns out common it hands the rest of the
// buffer to bytes.Index.
type finder struct {
	lit  []byte
	off  int  // index in lit of the rare byte
	rare byte // lit[off]
}

func newFinder(lit []byte) finder {
	f := finder{lit: lit}
	for i, c := range lit {
		if byteRank[c] < byteRank[f.rare] || i == 0 {
			f.off, f.rare = i, c
		}
	}
	return f
}

func newFinders(lits [][]byte) []finder {
	fs := make([]finder, len(lits))
	for i, l := range lits {
		fs[i] = newFinder(l)
	}
	return fs
}

// index returns the index of the first occurrence of the literal in b, or
// -1.
func (f *finder) index(b []byte) int {
	n := len(f.lit)
	switch n {
	case 0:
		return 0
	case 1:
		return bytes.IndexByte(b, f.rare)
	}
	last := len(b) - n // the last possible start
	fails := 0
	for i := 0; i <= last; {
		k := bytes.IndexByte(b[i+f.off:last+f.off+1], f.rare)
		if k < 0 {
			return -1
		}
		s := i + k
		if bytes.Equal(b[s:s+n], f.lit) {
			return s
		}
		i = s + 1
		// More than one false hit per 64 bytes: the byte is not rare
		// here.
		if fails++; fails > 8 && fails > i>>6 {
			if k := bytes.Index(b[i:], f.lit); k >= 0 {
				return i + k
			}
			return -1
		}
	}
	return -1
}

// byteRank orders the bytes by how often they occur in source code and
// text (Go, Python and JavaScript sources, their docs): 0 for the rarest,
// 255 for the most common (' '). Measured once, over 42 MB of the Go
// tree, a Python standard library and node modules; only the order
// matters, and any order finds every match.
var byteRank = [256]uint8{
	0, 1, 2, 3, 4, 5, 6, 7, 8, 242, 246, 9, 60, 81, 10, 11,
	12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27,
	255, 177, 231, 190, 164, 168, 175, 217, 233, 234, 197, 171, 237, 211, 238, 230,
	227, 221, 219, 199, 205, 193, 207, 185, 188, 183, 228, 195, 186, 229, 194, 163,
	162, 220, 187, 203, 202, 215, 189, 180, 176, 213, 160, 172, 204, 198, 201, 212,
	200, 167, 206, 216, 218, 184, 196, 178, 179, 166, 165, 192, 174, 191, 153, 224,
	182, 249, 226, 244, 243, 254, 240, 232, 235, 248, 181, 208, 245, 236, 251, 247,
	241, 170, 252, 250, 253, 239, 223, 214, 222, 225, 169, 210, 173, 209, 82, 52,
	154, 130, 131, 115, 113, 133, 122, 114, 144, 123, 117, 152, 121, 107, 125, 112,
	146, 105, 103, 119, 151, 150, 135, 104, 138, 149, 106, 110, 134, 132, 111, 100,
	136, 128, 109, 127, 145, 126, 129, 118, 124, 101, 91, 96, 95, 94, 92, 89,
	99, 97, 102, 90, 98, 85, 86, 137, 143, 141, 140, 139, 120, 148, 108, 147,
	28, 29, 142, 116, 73, 74, 62, 61, 51, 53, 50, 67, 56, 49, 72, 68,
	79, 76, 64, 57, 54, 63, 59, 66, 70, 69, 55, 58, 30, 31, 32, 33,
	78, 71, 155, 77, 88, 159, 161, 158, 157, 156, 75, 84, 93, 80, 65, 83,
	87, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48,
}
