//go:build !linux

package main

// scrubEnviron does nothing here: only Linux shows a process's first
// environment block to others (/proc/PID/environ) through a file the
// process can rewrite.
func scrubEnviron(string) error { return nil }
