//go:build unix

package shell

import (
	"fmt"
	"os/exec"
)

// lookShell finds the shell on PATH.
func lookShell(name string) (string, error) {
	path, err := exec.LookPath(name)
	if err != nil {
		return "", fmt.Errorf("cannot run the shell %q: %w (set shell in the config)", name, err)
	}
	return path, nil
}
