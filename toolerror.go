package spillway

import (
	"errors"
	"fmt"

	"github.com/spillway-dev/spillway/internal/shell"
)

// toolError names the tool in an error, as every tool's errors do, and
// gives the toolset's ErrClosed for the shell's.
func toolError(tool string, err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, shell.ErrClosed) {
		err = ErrClosed
	}
	return fmt.Errorf("%s: %w", tool, err)
}
