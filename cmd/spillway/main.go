// Command spillway is the CLI and MCP server of spillway: tools for LLM
// coding agents whose results cannot flood the context.
package main

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"syscall"

	"github.com/spillway-dev/spillway"
	"github.com/spillway-dev/spillway/internal/sandbox"
)

func main() {
	spillway.MaybeRunSandboxHelper() // the --sandbox helper re-exec; returns unless argv[1] is its mode
	// Root's commands could push keystrokes into any terminal, the one
	// that started spillway included, sandboxed or not.
	if _, err := sandbox.DenyTerminalInjectionAsRoot(); err != nil && !errors.Is(err, errors.ErrUnsupported) && !errors.Is(err, syscall.ENOSYS) {
		fmt.Fprintln(os.Stderr, "spillway: warning: cannot deny root's commands TIOCSTI on terminals:", err)
	}
	serveDebugVars()
	err := newRootCmd().Execute()
	var exit exitError
	var failed failure
	switch {
	case err == nil:
	case errors.As(err, &exit):
		os.Exit(int(exit))
	default:
		// Library errors already name spillway; say it once.
		fmt.Fprintln(os.Stderr, "spillway:", strings.TrimPrefix(err.Error(), "spillway: "))
		if errors.As(err, &failed) {
			os.Exit(1)
		}
		os.Exit(2) // bad usage
	}
}

// exitError carries an exit status out of a command that already printed
// its result: 1 for a result with is_error.
type exitError int

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", int(e)) }
