package rules

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestNextRule: the rules a part tries through the letter index are
// exactly those mayName lets through, in order, for every word key.
func TestNextRule(t *testing.T) {
	keyChoices := []byte{0, 'a', 'g', 'r', 'z', '.', '1', 0x80}
	wordKeys := []byte{0, anyKey, '.', '1', 0x80, 'A'}
	for k := byte('a'); k <= 'z'; k++ {
		wordKeys = append(wordKeys, k)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 2, 13, 63, 64, 65, 100} {
		for range 20 {
			c := &checker{keys: make([]byte, n)}
			for i := range c.keys {
				c.keys[i] = keyChoices[rng.IntN(len(keyChoices))]
			}
			c.indexLetters()
			if (c.letterRules != nil) != (n <= 64) {
				t.Fatalf("%d rules: index made %v", n, c.letterRules != nil)
			}
			for _, wk := range wordKeys {
				var want, got []int
				for i, rk := range c.keys {
					if mayName(rk, wk) {
						want = append(want, i)
					}
				}
				for i := c.nextRule(wk, 0); i < len(c.keys); i = c.nextRule(wk, i+1) {
					got = append(got, i)
				}
				if !slices.Equal(got, want) {
					t.Fatalf("keys %q, word key %q: tried %v, want %v", c.keys, wk, got, want)
				}
			}
		}
	}
}
