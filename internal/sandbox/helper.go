package sandbox

import (
	"errors"
	"fmt"
	"os"
	"syscall"

	"github.com/landlock-lsm/go-landlock/landlock"
)

// MaybeRunHelper runs the sandbox helper and never returns when the binary
// was started as one (argv[1] == HelperArg); otherwise it returns at once.
// Call it first thing in main (and in TestMain of tests that use Wrap).
func MaybeRunHelper() {
	if len(os.Args) < 2 || os.Args[1] != HelperArg {
		return
	}
	os.Exit(runHelper(os.Args[2:]))
}

// runHelper restricts the process with the rules in args and execs the
// command after "--". It returns only on failure, with the exit status.
func runHelper(args []string) int {
	rules, probe, argv, err := parseHelperArgs(args)
	if err != nil {
		fmt.Fprintf(os.Stderr, "spillway sandbox: %v\n", err)
		return ExitHelperFailed
	}
	if err := restrict(rules); err != nil {
		fmt.Fprintf(os.Stderr, "spillway sandbox: cannot restrict the command, so it was not run: %v\n", err)
		return ExitHelperFailed
	}
	if probe {
		fmt.Print(probeOK)
		return 0
	}
	err = syscall.Exec(argv[0], argv[1:], os.Environ())
	fmt.Fprintf(os.Stderr, "spillway sandbox: cannot run %s: %v\n", argv[0], err)
	if errors.Is(err, syscall.ENOENT) {
		return 127
	}
	return ExitHelperFailed
}

// parseHelperArgs reads "[-probe] [-w DIR]... [-no-network] -- PATH ARGV0
// ARGS...", as Wrap writes them.
func parseHelperArgs(args []string) (rules Rules, probe bool, argv []string, err error) {
	for i := 0; i < len(args); i++ {
		switch a := args[i]; a {
		case "-probe":
			probe = true
		case "-no-network":
			rules.NoNetwork = true
		case "-w":
			if i+1 >= len(args) {
				return rules, false, nil, errors.New("-w needs a directory")
			}
			i++
			rules.Writable = append(rules.Writable, args[i])
		case "--":
			argv = args[i+1:]
			if len(argv) < 2 && !probe {
				return rules, false, nil, errors.New("no command after --")
			}
			return rules, probe, argv, nil
		default:
			return rules, false, nil, fmt.Errorf("unknown helper argument %q", a)
		}
	}
	return rules, false, nil, errors.New("no -- before the command")
}

// restrict applies the rules to this process (all its threads) and to
// everything it will exec, in Landlock's strict mode.
func restrict(rules Rules) error {
	cfg := landlock.Config{HandledAccessFS: landlock.V3.HandledAccessFS}
	if rules.NoNetwork {
		// Handled with no rule that allows a port: every TCP bind and
		// connect is denied.
		cfg.HandledAccessNet = landlock.V4.HandledAccessNet
	}
	var writable []string
	for _, d := range rules.Writable {
		if _, err := os.Stat(d); err == nil {
			writable = append(writable, d)
		} else if !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("writable directory %s: %w", d, err)
		}
	}
	return cfg.Restrict(
		landlock.RODirs("/"),
		landlock.RWDirs(writable...).WithRefer(),
		landlock.RWDirs(sharedMemory).WithRefer().IgnoreIfMissing(),
		landlock.RWFiles(devices...).IgnoreIfMissing(),
	)
}
