package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spillway-dev/spillway/internal/hermetic"
	"github.com/spillway-dev/spillway/internal/sandbox"
)

// Attacks on spillway as an agent (or another local user) would run them,
// each through the built binary. Every one of them got through before its
// fix; the bounded waits only catch hangs.

var attackBin struct {
	once sync.Once
	path string
	err  error
	out  []byte
}

// TestMain removes the binary the attack tests built.
func TestMain(m *testing.M) {
	done := hermetic.Setup()
	code := m.Run()
	if attackBin.path != "" {
		os.RemoveAll(filepath.Dir(attackBin.path))
	}
	done()
	os.Exit(code)
}

// attackCLI returns the binary, built once per test run, with a TMPDIR of
// the test's own.
func attackCLI(t *testing.T) bashCLI {
	t.Helper()
	attackBin.once.Do(func() {
		dir, err := os.MkdirTemp("", "spillway-attack-bin")
		if err != nil {
			attackBin.err = err
			return
		}
		attackBin.path = filepath.Join(dir, "spillway")
		attackBin.out, attackBin.err = exec.Command("go", "build", "-o", attackBin.path, ".").CombinedOutput()
	})
	if attackBin.err != nil {
		t.Fatalf("go build: %v\n%s", attackBin.err, attackBin.out)
	}
	tmp := t.TempDir()
	return bashCLI{bin: attackBin.path, env: append(os.Environ(), "TMPDIR="+tmp), tmp: tmp}
}

// hangLimit is how long a call that should return at once may take before
// the test calls it a hang.
const hangLimit = 60 * time.Second

// runBounded runs the binary in dir ("" for the test's) and fails the
// test if it has not exited within hangLimit.
func (c bashCLI) runBounded(t *testing.T, dir string, args ...string) cliRun {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hangLimit)
	defer cancel()
	cmd := exec.CommandContext(ctx, c.bin, args...)
	cmd.Dir, cmd.Env = dir, c.env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.WaitDelay = time.Second
	start := time.Now()
	err := cmd.Run()
	r := cliRun{stdout: out.String(), stderr: errb.String(), took: time.Since(start)}
	if ctx.Err() != nil {
		t.Fatalf("spillway %q hung (killed after %v)", args, hangLimit)
	}
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		r.status = exit.ExitCode()
	default:
		t.Fatalf("%v: %v", args, err)
	}
	return r
}

// A FIFO in the place of an ignore file — the walked directory's, an
// ancestor's, or .git/info/exclude — is skipped, never waited on.
func TestAttackFIFOIgnoreFiles(t *testing.T) {
	c := attackCLI(t)
	repo := t.TempDir()
	for _, d := range []string{"sub/deeper", ".git/info"} {
		os.MkdirAll(filepath.Join(repo, d), 0o755)
	}
	os.WriteFile(filepath.Join(repo, "sub/deeper/a.txt"), []byte("hello\n"), 0o644)
	for _, f := range []string{".gitignore", ".ignore", ".git/info/exclude", "sub/.gitignore", "sub/deeper/.ignore"} {
		if err := mkfifo(filepath.Join(repo, f)); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{
		{"--root", repo, "grep", "hello", "sub"},
		{"--root", repo, "grep", "hello", "sub/deeper"},
		{"grep", "hello"},
		{"find", "*.txt"},
		{"--root", repo, "find", "*.txt", "sub/deeper"},
	} {
		r := c.runBounded(t, repo, args...)
		if r.status != 0 || !strings.Contains(r.stdout, "a.txt") {
			t.Errorf("spillway %q: status %d, stdout %q, stderr %q", args, r.status, r.stdout, r.stderr)
		}
	}
}

// A "regular" file whose reads wait for data (/proc/kmsg, readable by
// root only) is given up on with a clear error.
func TestAttackReadProcKmsg(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("/proc/kmsg is readable by root only")
	}
	c := attackCLI(t)
	r := c.runBounded(t, t.TempDir(), "read", "/proc/kmsg")
	if r.status != 1 || !strings.Contains(r.stdout, "not an ordinary file") {
		t.Errorf("read /proc/kmsg: status %d, stdout %q, stderr %q", r.status, r.stdout, r.stderr)
	}
}

func needSandbox(t *testing.T) {
	t.Helper()
	if ok, abi, err := sandbox.Status(); !ok || abi < sandbox.FilesABI {
		t.Skipf("Landlock ABI %d here (%v); the sandbox needs %d", abi, err, sandbox.FilesABI)
	}
}

// attackTree makes a root and, outside it, a directory holding a secret.
func attackTree(t *testing.T) (root, outside string) {
	root, outside = t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret"), []byte("the secret\n"), 0o600)
	return root, outside
}

// refusedOutside checks that nothing reached outside: no new file there,
// and the read of its secret refused.
func refusedOutside(t *testing.T, c bashCLI, root, outside string) {
	t.Helper()
	r := c.runBounded(t, "", "--root", root, "--sandbox", "bash", "seq 1 100000; touch "+outside+"/x")
	// Refused by Landlock (EACCES) or the namespaces' read-only mount.
	if _, stderr, _ := strings.Cut(r.stdout, "stderr:"); !strings.Contains(stderr, "Permission denied") && !strings.Contains(stderr, "Read-only file system") {
		t.Errorf("touch outside under the sandbox: %q", stderr)
	}
	r = c.runBounded(t, "", "--root", root, "read", filepath.Join(outside, "secret"))
	if r.status != 1 || strings.Contains(r.stdout, "the secret") {
		t.Errorf("read of the secret outside the root: status %d, %q", r.status, r.stdout)
	}
	ents, _ := os.ReadDir(outside)
	if len(ents) != 1 {
		t.Errorf("%d entries outside the root, want only the secret", len(ents))
	}
}

// A sandboxed one-shot command cannot plant a symlink as the CLI's spill
// directory ($TMPDIR/spillway-<uid>/cli), and one planted all the same is
// neither used, exempted by --root, nor made writable.
func TestAttackCLISpillDirSymlink(t *testing.T) {
	needSandbox(t)
	c := attackCLI(t)
	root, outside := attackTree(t)
	userDir := filepath.Join(c.tmp, "spillway-"+strconv.Itoa(os.Geteuid()))
	r := c.runBounded(t, "", "--root", root, "--sandbox", "bash",
		"mv "+userDir+" "+userDir+".old; mkdir -p "+userDir+" && ln -s "+outside+" "+userDir+"/cli")
	if _, err := os.Lstat(filepath.Join(userDir, "cli")); err == nil {
		t.Errorf("a sandboxed command planted the CLI spill directory: %q", r.stdout)
	}
	refusedOutside(t, c, root, outside)

	// Planted all the same, by this user.
	os.RemoveAll(userDir)
	os.MkdirAll(userDir, 0o700)
	if err := os.Symlink(outside, filepath.Join(userDir, "cli")); err != nil {
		t.Fatal(err)
	}
	r = c.runBounded(t, "", "--root", root, "bash", "seq 1 100000")
	if !strings.Contains(r.stdout, "Full output could not be saved: ") || !strings.Contains(r.stdout, "is a symlink") {
		t.Errorf("spill through a planted symlink: %q", r.stdout[max(0, len(r.stdout)-400):])
	}
	refusedOutside(t, c, root, outside)
}

// Another local user prepares $TMPDIR/spillway-<root's uid>: a 0777
// directory of theirs with cli -> outside, or a symlink to a directory
// (as /etc/ssl). The CLI does not use it (the temp directory is shared:
// its spills go to root's own directories), nothing is created through
// it, and it is neither exempted nor writable.
func TestAttackForeignSpillDir(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to make files of another user")
	}
	needSandbox(t)
	c := attackCLI(t)
	own, _ := c.userDirs(t)
	root, outside := attackTree(t)
	userDir := filepath.Join(c.tmp, "spillway-0")
	os.Chmod(c.tmp, 0o1777)
	os.Mkdir(userDir, 0o777)
	os.Chmod(userDir, 0o777)
	os.Symlink(outside, filepath.Join(userDir, "cli"))
	os.Lchown(filepath.Join(userDir, "cli"), 12345, 12345)
	os.Chown(userDir, 12345, 12345)
	r := c.runBounded(t, "", "--root", root, "bash", "seq 1 100000")
	if !strings.Contains(r.stdout, "Full output: "+filepath.Join(own, "spillway", "cli")+"/") {
		t.Errorf("spill beside a foreign directory: %q", r.stdout[max(0, len(r.stdout)-400):])
	}
	refusedOutside(t, c, root, outside)

	// spillway-0 -> a directory elsewhere: nothing is made in it.
	os.RemoveAll(userDir)
	os.Symlink(outside, userDir)
	os.Lchown(userDir, 12345, 12345)
	r = c.runBounded(t, "", "--root", root, "bash", "seq 1 100000")
	if !strings.Contains(r.stdout, "Full output: "+filepath.Join(own, "spillway", "cli")+"/") {
		t.Errorf("spill beside a symlinked spillway-0: %q", r.stdout[max(0, len(r.stdout)-400):])
	}
	if _, err := os.Lstat(filepath.Join(outside, "cli")); err == nil {
		t.Error("cli was created through the symlink")
	}
	refusedOutside(t, c, root, outside)
}

// TestAttackCLISpillDirSquatted: another local user made
// /tmp/spillway-<uid> first (a plain directory of theirs), and every CLI
// call of this user then said "Full output could not be saved". In a
// temp directory others may write in, the CLI spills into the user's
// runtime directory, or else the user's cache directory.
func TestAttackCLISpillDirSquatted(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to make a directory of another user")
	}
	c := attackCLI(t)
	os.Chmod(c.tmp, 0o1777) // as /tmp
	squat := filepath.Join(c.tmp, "spillway-"+strconv.Itoa(os.Geteuid()))
	if err := os.Mkdir(squat, 0o755); err != nil {
		t.Fatal(err)
	}
	os.Chown(squat, 12345, 12345)
	for _, where := range []string{"runtime", "cache"} {
		own, cache := c.userDirs(t)
		if where == "cache" {
			c.env = append(c.env, "XDG_RUNTIME_DIR=") // none: the cache directory
			own = cache
		}
		r := c.runBounded(t, "", "bash", "seq 1 100000")
		_, path, ok := strings.Cut(r.stdout, "Full output: ")
		path, _, _ = strings.Cut(path, ". ")
		if !ok || !strings.HasPrefix(path, filepath.Join(own, "spillway", "cli")+"/") {
			t.Fatalf("%s: the CLI did not save its output in the user's own directory: %q", where, r.stdout[max(0, len(r.stdout)-400):])
		}
		if b, err := os.ReadFile(path); err != nil || !bytes.HasSuffix(b, []byte("\n100000\n")) {
			t.Errorf("%s: the saved output: %v, %d bytes", where, err, len(b))
		}
		if ents, _ := os.ReadDir(squat); len(ents) != 0 {
			t.Errorf("%s: the CLI made %d entries in the squatted directory", where, len(ents))
		}
	}
}

// userDirs gives the CLI a private runtime directory and a cache
// directory of the test's own, and returns them: the CLI keeps its spill
// files in one of them when the temp directory is shared.
func (c *bashCLI) userDirs(t *testing.T) (runtime, cache string) {
	runtime, cache = t.TempDir(), t.TempDir()
	os.Chmod(runtime, 0o700)
	c.env = append(c.env, "XDG_RUNTIME_DIR="+runtime, "XDG_CACHE_HOME="+cache)
	return runtime, cache
}
