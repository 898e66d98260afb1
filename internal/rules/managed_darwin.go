package rules

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"time"
)

// ManagedDirDefault is where Claude Code reads an administrator's
// managed settings files on this system.
const ManagedDirDefault = "/Library/Application Support/ClaudeCode"

// managedPlists are the managed-preferences files an MDM profile
// writes for Claude Code: the machine's, then this user's.
func managedPlists() []string {
	files := []string{"/Library/Managed Preferences/com.anthropic.claudecode.plist"}
	if u, err := user.Current(); err == nil {
		files = append(files, filepath.Join("/Library/Managed Preferences", u.Username, "com.anthropic.claudecode.plist"))
	}
	return files
}

// plist reads a managed-preferences file as managed settings: plutil
// turns it into JSON, whose keys are those of managed-settings.json.
func (im *importer) plist(f string) {
	if _, err := os.Lstat(f); err != nil {
		return
	}
	data, err := im.read(f)
	if err == errAbsent {
		return
	}
	if err == nil {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, "/usr/bin/plutil", "-convert", "json", "-o", "-", "--", f)
		data, err = cmd.Output()
		if err != nil {
			err = fmt.Errorf("plutil cannot read it as a property list: %v", err)
		}
	}
	if err != nil {
		im.fail(&FileError{File: f, Msg: err.Error()}, true)
		return
	}
	im.out.Read = append(im.out.Read, f)
	p, err := ParseClaude(f, data)
	if err != nil {
		im.fail(&FileError{File: f, Msg: err.Error()}, true)
		return
	}
	im.out.Managed = append(im.out.Managed, f)
	im.add(p, scopeManaged)
}
