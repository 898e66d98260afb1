//go:build !unix

package shell

import "os"

// awaitReadable has no wait of its own where the poller cannot be asked:
// the read waits, holding its buffer.
func awaitReadable(*os.File) bool { return true }
