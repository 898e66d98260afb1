//go:build !unix

package spillway

import "errors"

func mkfifo(string) error { return errors.ErrUnsupported }
