//go:build !darwin

package rules

// programName is the name wrappers, shells and interpreters are known
// by: the base name as it is, since the file system tells case apart.
func programName(base string) string { return base }
