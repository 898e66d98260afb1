//go:build !linux

package main

// notDumpable does nothing here. macOS lets a process of the same user
// read another's file descriptors only through task_for_pid, which
// needs the debugger entitlement or root.
func notDumpable() error { return nil }
