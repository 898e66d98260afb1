package golden

import "math"

// estimateTokens is spillway's token estimate (output/tokens.go, described
// in docs/tokens.md), copied rather than imported so that the corpus does
// not depend on the Go API. The corpus uses it only to carry a reported
// count across a replacement: see tokenAdjuster.
func estimateTokens(b string) int {
	const (
		tkOther = iota
		tkCont
		tkLower
		tkUpper
		tkDigit
		tkSpace
		tkNewline
		tkPunct
	)
	class := func(c byte) uint8 {
		switch {
		case c >= 'a' && c <= 'z':
			return tkLower
		case c >= 'A' && c <= 'Z':
			return tkUpper
		case c >= '0' && c <= '9':
			return tkDigit
		case c == ' ' || c == '\t':
			return tkSpace
		case c == '\n' || c == '\r':
			return tkNewline
		case c < 0x80:
			return tkPunct
		case c < 0xC0:
			return tkCont
		default:
			return tkOther
		}
	}
	const (
		lettersPerToken  = 4
		capitalsPerToken = 2
		digitsPerToken   = 3
		spacesPerToken   = 8
		punctPerToken    = 2
		repeatPerToken   = 8
		otherExtraEvery  = 4
	)
	var (
		n          int
		prev       byte
		cls        uint8
		run, rep   int
		mixed, any bool
	)
	for i := 0; i < len(b); i++ {
		ch := b[i]
		k := class(ch)
		if k == tkCont {
			if any && cls == tkOther {
				continue
			}
			k = tkOther
		}
		same := any && k == cls
		if k == tkLower && cls == tkUpper && any && run == 0 {
			same = true
		}
		switch {
		case !same:
			letter := k == tkLower || k == tkUpper
			mixed = letter && (cls == tkDigit || mixed && cls <= tkDigit && cls >= tkLower)
			run, rep = 0, 0
		case k == tkPunct && ch == prev:
			rep++
		default:
			run, rep = run+1, 0
		}
		if k == tkOther {
			n++
			if ch >= 0xF0 || run%otherExtraEvery == otherExtraEvery-1 {
				n++
			}
			prev, cls, any = ch, k, true
			continue
		}
		pos, per, at := run, 1, 0
		switch k {
		case tkLower:
			per = lettersPerToken
			if mixed {
				per = capitalsPerToken
			}
		case tkUpper:
			per = capitalsPerToken
		case tkDigit:
			per = digitsPerToken
		case tkSpace:
			per, at = spacesPerToken, 1
		case tkNewline:
			per = math.MaxInt
		case tkPunct:
			per = punctPerToken
			if rep > 0 {
				pos, per = rep, repeatPerToken
			}
		}
		if pos%per == at {
			n++
		}
		prev, cls, any = ch, k, true
	}
	return n
}
