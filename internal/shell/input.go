package shell

import (
	"fmt"
	"strings"
)

// CheckEnv reports an environment variable that cannot be set.
func CheckEnv(name, value string) error {
	if name == "" || strings.ContainsAny(name, "=\x00") {
		return fmt.Errorf("%q is not a variable name (no '=' or NUL, not empty)", name)
	}
	if strings.IndexByte(value, 0) >= 0 {
		return fmt.Errorf("the value of %s holds a NUL byte", name)
	}
	return nil
}

// The values of the screen parameter of check_pid and write_stdin.
const (
	ScreenChanges = "changes" // the rows changed since the last look (the default)
	ScreenFull    = "full"    // every row
)

// checkScreen checks the screen parameter.
func checkScreen(s string) error {
	switch s {
	case "", ScreenChanges, ScreenFull:
		return nil
	}
	return fmt.Errorf("screen %q: give %q for every row of a terminal's screen, or %q (the default) for the rows changed since the last look", s, ScreenFull, ScreenChanges)
}

// validPID checks the pid a job call names.
func validPID(pid int) error {
	if pid <= 0 {
		return fmt.Errorf("pid %d: give the positive pid a background command was given", pid)
	}
	return nil
}
