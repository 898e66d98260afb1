package spillway

import "fmt"

// toolError names the tool in an error, as every tool's errors do.
func toolError(tool string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: %w", tool, err)
}
