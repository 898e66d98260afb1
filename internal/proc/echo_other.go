//go:build !linux && !darwin && !freebsd

package proc

import "os"

// SecretMode: elsewhere the terminal's settings are not read, so no
// prompt is known to ask for a secret.
func SecretMode(f *os.File) bool { return false }
