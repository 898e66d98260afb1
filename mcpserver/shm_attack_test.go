//go:build linux

package mcpserver_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/spillway-dev/spillway/internal/sandbox"
)

// TestAttackServeSandboxSharedMemoryIsPrivate: under `serve --sandbox
// --no-network`, session A wrote 200 MB and a message in /dev/shm; session
// B of the same server read the message, and both stayed on the host after
// A was deleted.
func TestAttackServeSandboxSharedMemoryIsPrivate(t *testing.T) {
	if sandboxLayers(t)&sandbox.Namespaces == 0 {
		t.Skip("a private /dev/shm needs the namespaces layer, which this machine lacks")
	}
	root := filepath.Join(t.TempDir(), "root")
	os.Mkdir(root, 0o755)
	s := startHTTP(t, nil, "--root", root, "--sandbox", "--no-network")
	a := connectHTTP(t, s.url, nil, nil, false)
	b := connectHTTP(t, s.url, nil, nil, false)

	name := fmt.Sprintf("spillway-shm-attack-%d", os.Getpid())
	big, msg := "/dev/shm/"+name+"-big", "/dev/shm/"+name+"-msg"
	t.Cleanup(func() { os.Remove(big); os.Remove(msg) }) // what the old code left on the host

	out := text(call(t, a, "bash", map[string]any{"command": "echo message-from-a > " + msg + "; head -c 200M /dev/zero > " + big +
		"; echo size=$(stat -c %s " + big + "); echo ns=$(readlink /proc/self/ns/mnt)"}))
	size, ok := afterField(out, "size=")
	if !ok {
		t.Fatalf("session A's command did not run: %s", out)
	}
	n, _ := strconv.ParseInt(size, 10, 64)
	t.Logf("session A wrote %d bytes of 200 MiB in /dev/shm", n)
	if n >= 200<<20 {
		t.Errorf("session A wrote %d bytes in /dev/shm: it is not capped", n)
	}
	nsA, _ := afterField(out, "ns=")

	// A's later commands share its /dev/shm (Python's multiprocessing
	// needs that); B's do not.
	if out := text(call(t, a, "bash", map[string]any{"command": "cat " + msg})); !strings.Contains(out, "message-from-a") {
		t.Errorf("session A lost its own /dev/shm between two commands: %s", out)
	}
	out = text(call(t, b, "bash", map[string]any{"command": "cat " + msg + " 2>&1; echo seen=$(ls /dev/shm | grep -c " + name + "); echo done"}))
	if strings.Contains(out, "message-from-a") || !strings.Contains(out, "seen=0") {
		t.Errorf("session B read session A's /dev/shm:\n%s", out)
	}
	if !strings.Contains(out, "done") {
		t.Fatalf("session B's command did not run: %s", out)
	}
	if exists(big) || exists(msg) {
		t.Errorf("session A's /dev/shm files are on the host")
	}

	// DELETE: the session's mount namespace, and the tmpfs in it, go.
	a.Close()
	if !strings.HasPrefix(nsA, "mnt:[") {
		t.Fatalf("session A's mount namespace is %q", nsA)
	}
	waitFor(t, "session A's mount namespace to end", func() bool { return !mountNamespaceLives(nsA) })
	if exists(big) || exists(msg) {
		t.Errorf("session A's /dev/shm files stayed on the host after its DELETE")
	}
}

// afterField returns the word after prefix in out.
func afterField(out, prefix string) (string, bool) {
	_, rest, ok := strings.Cut(out, prefix)
	if !ok {
		return "", false
	}
	f := strings.Fields(rest)
	if len(f) == 0 {
		return "", false
	}
	return f[0], true
}

// mountNamespaceLives reports whether a process still holds the mount
// namespace ns ("mnt:[N]").
func mountNamespaceLives(ns string) bool {
	for _, pid := range allPids() {
		if l, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/ns/mnt"); err == nil && l == ns {
			return true
		}
	}
	return false
}
