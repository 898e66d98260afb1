package output

import (
	"bytes"
	"encoding/binary"
	"math/bits"
)

// Byte scans of the hot path. The standard library's bytes.IndexByte and
// bytes.Count are vectorised; bytes.LastIndexByte and utf8.RuneCount are
// not, and a 64 KiB chunk of one long line would cost a byte-at-a-time
// loop. These do the same work in blocks.

// lastBlock is the span lastIndexByte checks with the vectorised
// bytes.IndexByte before it scans backwards byte by byte.
const lastBlock = 1024

// lastIndexByte is bytes.LastIndexByte, but it scans backwards only within
// the last block that holds c: at most lastBlock bytes byte by byte.
func lastIndexByte(b []byte, c byte) int {
	if len(b) <= 64 {
		return bytes.LastIndexByte(b, c)
	}
	for end := len(b); end > 0; end -= lastBlock {
		start := max(0, end-lastBlock)
		if bytes.IndexByte(b[start:end], c) >= 0 {
			return start + bytes.LastIndexByte(b[start:end], c)
		}
	}
	return -1
}

// runeCount counts the characters of b, which must be valid UTF-8: every
// byte that is not a continuation byte (10xxxxxx) starts one.
func runeCount(b []byte) int {
	n := len(b)
	cont := 0
	i := 0
	for ; i+8 <= len(b); i += 8 {
		w := binary.LittleEndian.Uint64(b[i:])
		// A continuation byte has bit 7 set and bit 6 clear.
		cont += bits.OnesCount64(w & ^(w << 1) & hi)
	}
	for ; i < len(b); i++ {
		if b[i]&0xc0 == 0x80 {
			cont++
		}
	}
	return n - cont
}
