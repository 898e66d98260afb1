//go:build !spillway_portable

package sandbox

import (
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"sync"

	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// abiVersion is the kernel's Landlock ABI; tests replace it.
var abiVersion = ll.LandlockGetABIVersion

// Status reports whether the kernel offers Landlock and at which ABI
// version; err says why it is not available.
func Status() (available bool, abi int, err error) {
	abi, err = abiVersion()
	if err != nil {
		return false, 0, fmt.Errorf("landlock is not supported by this kernel or not enabled at boot: %w", err)
	}
	if abi < 1 {
		return false, abi, errors.New("landlock is not enabled")
	}
	return true, abi, nil
}

// StatusLine describes the kernel's Landlock support and the layers a
// sandbox gets here, for `spillway version`:
//
//	landlock: available (ABI 7)
//	sandbox layers: landlock+scopes+namespaces; with --no-network: landlock+scopes+namespaces
func StatusLine() string {
	ok, abi, err := Status()
	if !ok {
		return "landlock: not available (" + err.Error() + ")\nsandbox layers: none (--sandbox refuses to start)"
	}
	line := fmt.Sprintf("landlock: available (ABI %d)\nsandbox layers: ", abi)
	for _, noNet := range []bool{false, true} {
		if noNet {
			line += "; with --no-network: "
		}
		ls, err := Check(Rules{NoNetwork: noNet}, Landlock)
		if err != nil {
			line += "none (" + err.Error() + ")"
		} else {
			line += ls.String()
		}
	}
	return line
}

// Check finds the layers a command gets on this machine under rules, and
// verifies with a trial run of the helper (this binary again) that they
// really hold. It fails, saying what is missing, when Landlock is not
// there or when a layer in min is not; the caller must then refuse to
// start. Set the returned layers in Rules.Layers for Wrap. The outcome is
// remembered for the process, so that a server making a toolset per
// session probes once.
func Check(rules Rules, min Layer) (Layer, error) {
	key := checkKey{noNetwork: rules.NoNetwork, min: min | Landlock}
	checked.Lock()
	defer checked.Unlock()
	if r, ok := checked.done[key]; ok {
		return r.layers, r.err
	}
	layers, err := choose(rules.NoNetwork, key.min)
	checked.done[key] = checkResult{layers, err}
	return layers, err
}

type checkKey struct {
	noNetwork bool
	min       Layer
}

type checkResult struct {
	layers Layer
	err    error
}

var checked = struct {
	sync.Mutex
	done map[checkKey]checkResult
}{done: map[checkKey]checkResult{}}

// choose takes every layer the kernel offers, and fails when one in min
// is missing.
func choose(noNetwork bool, min Layer) (Layer, error) {
	ok, abi, err := Status()
	if !ok {
		return 0, fmt.Errorf("the sandbox needs Landlock, which this kernel does not offer (%v); it needs Linux 6.2 or later with Landlock enabled (CONFIG_SECURITY_LANDLOCK=y, \"landlock\" in the lsm= boot list). Run without the sandbox only if unconfined commands are acceptable", err)
	}
	if abi < FilesABI {
		return 0, fmt.Errorf("the sandbox's file rules need Landlock ABI 3 (Linux 6.2), and this kernel offers ABI %d; upgrade the kernel or run without it", abi)
	}
	layers := Landlock
	why := map[Layer]string{}
	if abi >= ScopesABI {
		layers |= Scopes
	} else {
		why[Scopes] = fmt.Sprintf("scopes need Landlock ABI 6 (Linux 6.12); this kernel offers ABI %d", abi)
	}
	if err := probe(Rules{NoNetwork: noNetwork, Layers: layers | Namespaces}); err == nil {
		layers |= Namespaces
	} else {
		why[Namespaces] = "namespaces are not available here (" + err.Error() + "); containers often forbid unprivileged user namespaces (kernel.unprivileged_userns_clone, user.max_user_namespaces, AppArmor's restrict_unprivileged_userns)"
	}
	if noNetwork && layers&Namespaces == 0 {
		if abi < NetworkABI {
			return 0, fmt.Errorf("without namespaces, denying the network needs Landlock ABI 4 (Linux 6.7), and this kernel offers ABI %d; upgrade the kernel or run without --no-network", abi)
		}
		if !seccompSupported {
			return 0, fmt.Errorf("without namespaces, denying the network needs a seccomp filter, which spillway does not have for this architecture; run without --no-network")
		}
		layers |= Seccomp
	}
	switch {
	case layers&Seccomp != 0:
	case !seccompSupported:
		why[Seccomp] = "spillway has no seccomp filter for this architecture"
	case !noNetwork:
		why[Seccomp] = "the seccomp layer is the socket filter that denies the network when there are no namespaces, so it is used only with --no-network (the terminal filter is always on, and is not a layer --sandbox-min names)"
	default:
		why[Seccomp] = "the network namespace denies the network here, so the seccomp socket filter is not needed (it is used with --no-network only where namespaces are missing)"
	}
	if missing := min &^ layers; missing != 0 {
		var reasons []string
		for _, n := range layerNames {
			if missing&n.l != 0 && why[n.l] != "" {
				reasons = append(reasons, why[n.l])
			}
		}
		return 0, fmt.Errorf("the sandbox must have %v (--sandbox-min), and this machine lacks %v: %s", min, missing, strings.Join(reasons, "; "))
	}
	if err := probe(Rules{NoNetwork: noNetwork, Layers: layers}); err != nil {
		return 0, err
	}
	return layers, nil
}

// probeOK is what a probing helper prints once it has confined itself.
const probeOK = "sandbox ok\n"

// probe runs the helper with the rules up to the point where it would
// exec the command.
func probe(rules Rules) error {
	cmd := exec.Command("/bin/true") // not run: the helper stops before exec
	launch, err := wrapHelper(cmd, rules)
	if err != nil {
		return err
	}
	defer launch.Close()
	cmd.Args = append(cmd.Args[:2], append([]string{"-probe"}, cmd.Args[2:]...)...)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Start()
	launch.Started()
	if err == nil {
		err = cmd.Wait()
	}
	if err != nil || out.String() != probeOK {
		return fmt.Errorf("the sandbox helper does not work (%v: %q); a program that embeds spillway must call sandbox.MaybeRunHelper first thing in main", err, strings.TrimSpace(out.String()))
	}
	return nil
}
