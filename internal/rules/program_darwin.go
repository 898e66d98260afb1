package rules

import "strings"

// programName is the name wrappers, shells and interpreters are known
// by. macOS's file system ignores case by default: SUDO and Bash run
// sudo and bash.
func programName(base string) string { return strings.ToLower(base) }
