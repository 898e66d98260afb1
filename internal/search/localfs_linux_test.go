//go:build linux && !spillway_portable

package search

import "testing"

// TestLocalMounts: raw system calls only where the root and every mount
// below it are local file systems.
func TestLocalMounts(t *testing.T) {
	const info = `22 1 8:1 / / rw,relatime - ext4 /dev/sda1 rw
30 22 0:25 / /home rw - nfs4 server:/home rw
31 22 0:26 / /srv/data rw - xfs /dev/sdb1 rw
32 31 0:27 / /srv/data/remote rw - fuse.sshfs host: rw
33 22 0:28 / /work\040tree rw - tmpfs tmpfs rw
34 22 0:29 / /mnt/over rw - nfs srv:/x rw
35 22 0:30 / /mnt/over rw - ext4 /dev/sdc1 rw
`
	cases := []struct {
		root string
		want bool
	}{
		{"/usr/local/go/src", true},   // on ext4
		{"/home/me/project", false},   // on nfs4
		{"/srv/data/x", true},         // xfs, nothing below
		{"/srv/data", false},          // an sshfs mount below
		{"/work tree/a", true},        // an escaped space
		{"/", false},                  // nfs mounts below
		{"/mnt/over/a", true},         // the later mount on /mnt/over hides the nfs one
		{"/srv/data/remote/a", false}, // inside the sshfs mount
	}
	for _, c := range cases {
		if got := localMounts(info, c.root); got != c.want {
			t.Errorf("localMounts(%q) = %v, want %v", c.root, got, c.want)
		}
	}
	if localMounts("", "/x") {
		t.Error("no mountinfo: want false")
	}
}
