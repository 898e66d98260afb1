package rules

// ManagedDirDefault is where Claude Code reads an administrator's
// managed settings files on this system.
const ManagedDirDefault = `C:\Program Files\ClaudeCode`

// managedPlists are macOS's managed-preferences files: none here. (The
// registry policy HKLM\SOFTWARE\Policies\ClaudeCode is not read.)
func managedPlists() []string { return nil }

func (im *importer) plist(string) {}
