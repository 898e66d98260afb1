//go:build !darwin && !windows

package rules

// ManagedDirDefault is where Claude Code reads an administrator's
// managed settings files on this system.
const ManagedDirDefault = "/etc/claude-code"

// managedPlists are macOS's managed-preferences files: none here.
func managedPlists() []string { return nil }

func (im *importer) plist(string) {}
