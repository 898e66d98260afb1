package shell

import (
	"fmt"
	"os"
	"os/exec"
)

// gitBash are where Git for Windows puts its bash when it is not on PATH.
var gitBash = []string{
	`C:\Program Files\Git\bin\bash.exe`,
	`C:\Program Files (x86)\Git\bin\bash.exe`,
}

// lookShell finds the shell on PATH, or Git for Windows' bash where it
// installs it; Windows has no bash of its own.
func lookShell(name string) (string, error) {
	path, err := exec.LookPath(name)
	if err == nil {
		return path, nil
	}
	if name == "bash" {
		for _, p := range gitBash {
			if _, serr := os.Stat(p); serr == nil {
				return p, nil
			}
		}
		return "", fmt.Errorf("the bash tool needs bash.exe, and none is on PATH or in Git for Windows' folder: install Git for Windows (https://gitforwindows.org) or set shell in the config to a bash.exe")
	}
	return "", fmt.Errorf("cannot run the shell %q: %w (set shell in the config)", name, err)
}
