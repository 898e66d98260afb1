//go:build !unix

package rules

import "errors"

func mkfifo(string) error { return errors.ErrUnsupported }
