//go:build !unix

package rules

import "os"

// linkCount is 1 where the system's stat has no link count to read.
func linkCount(os.FileInfo) uint64 { return 1 }
