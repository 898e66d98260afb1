package mcpserver_test

import "errors"

func mkfifo(string) error { return errors.ErrUnsupported }
