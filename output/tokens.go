package output

import "math"

// Token estimates.
//
// Models budget their context in tokens, and no tokenizer is shared by all
// of them (Claude's is not public). The estimate below is cheap (one table
// look-up a byte, no allocation), deterministic, and streams: a TokenCounter
// fed a text in any number of pieces counts what EstimateTokens counts for
// the whole. It follows the way byte-pair tokenizers split text before they
// merge (letters, digits, punctuation, whitespace and other characters each
// form their own pieces) and charges each piece on the high side, so that a
// budget in estimated tokens is an upper bound more often than not:
// docs/tokens.md gives the ratios measured against two public tokenizers.

// A byte's class for the estimate.
const (
	tkOther   = iota // a byte that starts a non-ASCII character
	tkCont           // a UTF-8 continuation byte: part of the character before
	tkLower          // a-z
	tkUpper          // A-Z
	tkDigit          // 0-9
	tkSpace          // space, tab
	tkNewline        // '\n', '\r'
	tkPunct          // other printable ASCII, and control bytes
)

// tokenClass maps each byte to its class.
var tokenClass = func() (t [256]uint8) {
	for i := range t {
		c := byte(i)
		switch {
		case c >= 'a' && c <= 'z':
			t[i] = tkLower
		case c >= 'A' && c <= 'Z':
			t[i] = tkUpper
		case c >= '0' && c <= '9':
			t[i] = tkDigit
		case c == ' ' || c == '\t':
			t[i] = tkSpace
		case c == '\n' || c == '\r':
			t[i] = tkNewline
		case c < 0x80:
			t[i] = tkPunct
		case c < 0xC0:
			t[i] = tkCont
		default:
			t[i] = tkOther
		}
	}
	return t
}()

// How many bytes of a run of one class one token is charged for. A run of n
// letters costs ceil(n/lettersPerToken) tokens, and so on; the figures are
// below what the public tokenizers reach on ordinary words and numbers, so
// that the estimate errs high.
const (
	lettersPerToken  = 4 // a word, or one part of a camelCase name
	capitalsPerToken = 2 // capitals in a row, and letters in a hash or base64
	digitsPerToken   = 3 // the tokenizers split numbers into groups of three
	spacesPerToken   = 8 // indentation: a lone space joins the next word, free
	punctPerToken    = 2 // mixed punctuation: "){", "\":", ");"
	repeatPerToken   = 8 // a rule of one punctuation byte: "-----", "===="
	otherExtraEvery  = 4 // non-ASCII characters: one more token every 4
)

// A TokenCounter estimates the tokens of a text written to it in pieces.
// The zero value is ready; it never fails and never allocates.
type TokenCounter struct {
	n     int64
	prev  byte  // the last byte written
	cls   uint8 // its class
	run   int   // the last byte's position in its run, from 0
	mixed bool  // the current letters follow a digit
	rep   int   // times the last punctuation byte was repeated in a row
	any   bool  // something was written
}

// Write adds b to the count. It always returns len(b), nil.
func (c *TokenCounter) Write(b []byte) (int, error) {
	countTokens(c, b)
	return len(b), nil
}

// WriteString is Write for a string.
func (c *TokenCounter) WriteString(s string) (int, error) {
	countTokens(c, s)
	return len(s), nil
}

// countTokens adds b to c's count.
func countTokens[T string | []byte](c *TokenCounter, b T) {
	n, prev, cls, run, rep, mixed, any := c.n, c.prev, c.cls, c.run, c.rep, c.mixed, c.any
	for i := 0; i < len(b); i++ {
		ch := b[i]
		k := tokenClass[ch]
		if k == tkCont {
			if any && cls == tkOther {
				// Part of the character before.
				continue
			}
			// A stray byte, not part of a character: a token.
			k = tkOther
		}
		switch {
		case !sameRun(k, cls, run, any):
			mixed = lettersAfterDigit(k, cls, mixed)
			run, rep = 0, 0
		case k == tkPunct && ch == prev:
			rep++
		default:
			run, rep = run+1, 0
		}
		if k == tkOther {
			n += otherTokens(ch, run)
		} else if costsToken(k, run, rep, mixed) {
			n++
		}
		prev, cls, any = ch, k, true
	}
	c.n, c.prev, c.cls, c.run, c.rep, c.mixed, c.any = n, prev, cls, run, rep, mixed, any
}

// sameRun reports whether a byte of class k goes on the run of the byte
// before it (of class cls, at position run of its run; any is false for
// the first byte). "Word": a capital and the lower-case letters after it
// are one word.
func sameRun(k, cls uint8, run int, any bool) bool {
	return any && (k == cls || k == tkLower && cls == tkUpper && run == 0)
}

// lettersAfterDigit reports whether a new run of class k, after a byte of
// class cls, is letters of a hash, base64 or a generated name rather than
// words: letters straight after a digit, and the letters of the same word
// after them (mixed says the letters before were such). The vocabularies
// hold few such pieces.
func lettersAfterDigit(k, cls uint8, mixed bool) bool {
	letter := k == tkLower || k == tkUpper
	return letter && (cls == tkDigit || mixed && cls <= tkDigit && cls >= tkLower)
}

// otherTokens is what a non-ASCII character costs, at position run of its
// run: one token a character at least (CJK, accented letters), and one
// more every few characters in a run: the tokenizers spell many of them
// in two or three byte tokens. A four-byte character (emoji, rare CJK)
// takes two.
func otherTokens(ch byte, run int) int64 {
	if ch >= 0xF0 || run%otherExtraEvery == otherExtraEvery-1 {
		return 2
	}
	return 1
}

// tokenEvery is, for each class of ASCII byte, how many bytes of a run of
// it one token is charged for (non-ASCII characters are charged by
// otherTokens).
var tokenEvery = [...]int{
	tkLower: lettersPerToken,
	// Capitals in a row are rarer in the vocabularies than lower case:
	// acronyms, constants, base64.
	tkUpper: capitalsPerToken,
	tkDigit: digitsPerToken,
	// A lone space is part of the word after it (see costsToken); a
	// longer run is indentation or alignment.
	tkSpace:   spacesPerToken,
	tkNewline: math.MaxInt,
	// Punctuation pairs up ("){", "\":", ");"); a rule of one byte
	// repeated is cheaper still (see costsToken).
	tkPunct: punctPerToken,
}

// costsToken reports whether the byte of ASCII class k at position run of
// its run costs a token; rep is how many times a punctuation byte was
// repeated in a row, and mixed says letters are of a hash (see
// lettersAfterDigit). The byte at position pos of its run costs a token
// when pos%per == at.
func costsToken(k uint8, run, rep int, mixed bool) bool {
	pos, per, at := run, tokenEvery[k], 0
	switch {
	case k == tkLower && mixed:
		per = capitalsPerToken
	case k == tkSpace:
		at = 1
	case k == tkPunct && rep > 0:
		pos, per = rep, repeatPerToken
	}
	return pos%per == at
}

// Tokens is the estimate of everything written so far.
func (c *TokenCounter) Tokens() int64 { return c.n }

// Reset forgets everything written.
func (c *TokenCounter) Reset() { *c = TokenCounter{} }

// EstimateTokens estimates how many tokens a model's tokenizer makes of b.
// It errs high: see TokenCounter.
func EstimateTokens(b []byte) int {
	var c TokenCounter
	countTokens(&c, b)
	return int(c.n)
}

// EstimateTokensString is EstimateTokens for a string.
func EstimateTokensString(s string) int {
	var c TokenCounter
	countTokens(&c, s)
	return int(c.n)
}
