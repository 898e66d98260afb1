//go:build linux && !spillway_portable

package search

import (
	"os"
	"path/filepath"
	"strings"
)

// localFS are the file systems whose calls answer from memory or a local
// disk: a raw system call on them does not block for long.
var localFS = map[string]bool{
	"ext2": true, "ext3": true, "ext4": true, "xfs": true, "btrfs": true,
	"tmpfs": true, "ramfs": true, "overlay": true, "zfs": true, "f2fs": true,
	"bcachefs": true, "jfs": true, "reiserfs": true, "vfat": true,
	"exfat": true, "squashfs": true, "erofs": true, "iso9660": true,
}

// localTree reports whether root and every mount below it are local file
// systems, by /proc/self/mountinfo. When in doubt (no mountinfo, a path
// that does not resolve), it says no.
func localTree(root string) bool {
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		return false
	}
	data, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return false
	}
	return localMounts(string(data), real)
}

// localMounts is localTree over the text of a mountinfo file.
func localMounts(mountinfo, root string) bool {
	best, bestType := -1, ""
	for line := range strings.Lines(mountinfo) {
		// "36 35 98:0 /mnt1 /mnt/parent rw,noatime master:1 - ext3 /dev/root rw"
		pre, post, ok := strings.Cut(line, " - ")
		fields, typ := strings.Fields(pre), strings.Fields(post)
		if !ok || len(fields) < 5 || len(typ) < 1 {
			continue
		}
		mnt := unescapeMount(fields[4])
		switch {
		case strings.HasPrefix(mnt, root+"/") || (root == "/" && mnt != "/"):
			// A mount below the root: the walk may enter it.
			if !localFS[typ[0]] {
				return false
			}
		case mnt == root || mnt == "/" || strings.HasPrefix(root, mnt+"/"):
			// A mount that holds the root: the deepest one counts.
			if len(mnt) >= best { // the last of mounts on one point is the one seen
				best, bestType = len(mnt), typ[0]
			}
		}
	}
	return best >= 0 && localFS[bestType]
}

// unescapeMount undoes mountinfo's octal escapes (\040 for a space, …).
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if c, ok := octal(s[i+1 : i+4]); ok {
				b.WriteByte(c)
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func octal(s string) (byte, bool) {
	var v int
	for i := 0; i < 3; i++ {
		if s[i] < '0' || s[i] > '7' {
			return 0, false
		}
		v = v*8 + int(s[i]-'0')
	}
	return byte(v), v < 256
}
