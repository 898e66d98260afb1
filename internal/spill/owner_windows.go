package spill

import (
	"os"
	"path/filepath"
	"strings"
)

// oNoFollow is not needed on Windows: os.Root does not follow a symlink
// out of the directory.
const oNoFollow = 0

// ownerUID has no meaning on Windows, where the temp directory is the
// user's own.
func ownerUID(os.FileInfo) (int, bool) { return 0, false }

// lock: Windows has no advisory lock on a directory. A directory being
// made (still under its temporary name) is its maker's; any other is
// taken to be in use, so the sweep removes nothing on Windows.
func (d *privateDir) lock() (bool, error) {
	return strings.HasPrefix(filepath.Base(d.path), ".spillway-new-"), nil
}
