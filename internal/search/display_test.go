package search

import "testing"

// A matched line is one line of the file: escape sequences that move a
// terminal's cursor are stripped from it, and never break it or erase it.
func TestDisplayLineIgnoresCursorMovement(t *testing.T) {
	got, cut := displayLine(hit{text: []byte("abc\x1b[1Axyz\x1b[2K\x1b[5Gq")}, 100)
	if got != "abcxyzq" || cut {
		t.Fatalf("displayLine = %q (cut %v)", got, cut)
	}
}
