//go:build !linux && !darwin && !freebsd

package shell

import "os"

// secretMode: elsewhere the terminal's settings are not read, so no
// prompt is known to ask for a secret.
func secretMode(f *os.File) bool { return false }
