package search

import "syscall"

func asNobody() *syscall.SysProcAttr { return nil }
