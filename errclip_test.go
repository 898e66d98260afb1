package spillway

import (
	"errors"
	"io/fs"
	"strings"
	"testing"
	"unicode/utf8"
)

// clipError shortens every long input an error quotes, as given or
// escaped, never splits a character, and keeps the error's identity.
func TestClipError(t *testing.T) {
	long := strings.Repeat("é", 3000) + "\x01end"
	err := &fs.PathError{Op: "open", Path: "/x/" + long, Err: fs.ErrNotExist}
	got := clipError(err, long)
	if len(got.Error()) > 2*maxQuoted+100 || !utf8.ValidString(got.Error()) || !strings.Contains(got.Error(), "bytes left out") {
		t.Errorf("clipped to %d bytes: %q", len(got.Error()), got.Error())
	}
	if !errors.Is(got, fs.ErrNotExist) {
		t.Error("the clipped error lost its identity")
	}
	quoted := clipError(errors.New("bad "+strings.Repeat("\t", 500)+" "+`"`+strings.Repeat(`\t`, 500)+`"`), strings.Repeat("\t", 500))
	if len(quoted.Error()) > 2*maxQuoted+100 {
		t.Errorf("the %%q form was not clipped: %d bytes", len(quoted.Error()))
	}
	if short := errors.New("short"); clipError(short, "x") != short {
		t.Error("a short error was changed")
	}
	if huge := clipError(errors.New(strings.Repeat("x ", 1<<20))); len(huge.Error()) > maxError+100 {
		t.Errorf("an error quoting no known input is %d bytes", len(huge.Error()))
	}
}
