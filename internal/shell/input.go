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
