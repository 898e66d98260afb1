//go:build !unix

package spillway

// linkCount knows no link count on this system.
func linkCount(string) uint64 { return 0 }

type fileID struct{ dev, ino uint64 }

func idOf(string) (fileID, bool) { return fileID{}, false }
