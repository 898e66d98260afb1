//go:build !unix

package files

import "os"

// openNoBlock opens path for reading.
func openNoBlock(path string) (*os.File, error) { return os.Open(path) }

// openDirNoBlock opens the directory path for listing.
func openDirNoBlock(path string) (*os.File, error) { return os.Open(path) }
