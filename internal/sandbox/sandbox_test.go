//go:build linux && !spillway_portable

package sandbox

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spillway-dev/spillway/internal/hermetic"
)

// TestMain lets the test binary act as the sandbox helper (Wrap starts
// /proc/self/exe) and as a child that tries to bind a TCP port.
func TestMain(m *testing.M) {
	MaybeRunHelper()
	switch os.Getenv("SANDBOX_TEST_CHILD") {
	case "bind":
		os.Exit(bindChild())
	case "connect":
		os.Exit(connectChild())
	}
	hermetic.Main(m)
}

// bindChild tries to listen on a plain-TCP loopback port (Landlock does not
// cover Multipath TCP, the default of Go's net.Listen).
func bindChild() int {
	var lc net.ListenConfig
	lc.SetMultipathTCP(false)
	l, err := lc.Listen(context.Background(), "tcp4", "127.0.0.1:0")
	if err != nil {
		fmt.Println("bind failed:", err)
		return 1
	}
	l.Close()
	fmt.Println("bind ok")
	return 0
}

func requireLandlock(t *testing.T, abi int) {
	t.Helper()
	ok, got, err := Status()
	if !ok {
		t.Skipf("Landlock is not available here: %v", err)
	}
	if got < abi {
		t.Skipf("Landlock ABI %d here, the test needs %d", got, abi)
	}
}

// dirs makes the sandbox's writable directories and one outside them, each
// holding a file "existing" with "old".
type dirs struct{ root, spill, tmp, outside string }

func makeDirs(t *testing.T) dirs {
	base := t.TempDir()
	d := dirs{
		root:    filepath.Join(base, "root"),
		spill:   filepath.Join(base, "spillway-1-abc"),
		tmp:     filepath.Join(base, "tmp"),
		outside: filepath.Join(base, "outside"),
	}
	for _, p := range []string{d.root, d.spill, d.tmp, d.outside} {
		if err := os.Mkdir(p, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(p, "existing"), []byte("old\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return d
}

// denied reports whether stderr says a write was refused: by Landlock
// (EACCES) or by the read-only mount of the namespaces (EROFS).
func denied(stderr string) bool {
	return strings.Contains(stderr, "Permission denied") || strings.Contains(stderr, "Read-only file system")
}

// floor are the layers where namespaces are not available.
func floor(noNetwork bool) Layer {
	ls, _ := Check(Rules{NoNetwork: noNetwork}, Landlock)
	return ls&^Namespaces | map[bool]Layer{true: Seccomp}[noNetwork]
}

// rules are the rules over d with every layer this machine offers.
func (d dirs) rules(noNetwork bool) *Rules {
	layers, _ := Check(Rules{NoNetwork: noNetwork}, Landlock)
	return &Rules{Writable: []string{d.root, d.spill, d.tmp}, NoNetwork: noNetwork, Layers: layers}
}

type run struct {
	stdout, stderr string
	exit           int
	pid            int
}

// bash runs script with bash -c in dir, under rules (nil: unsandboxed).
func bash(t *testing.T, rules *Rules, dir, script string, env ...string) run {
	t.Helper()
	cmd := exec.Command("bash", "-c", script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return start(t, cmd, rules)
}

func start(t *testing.T, cmd *exec.Cmd, rules *Rules) run {
	t.Helper()
	launch := &Launch{}
	if rules != nil {
		var err error
		if launch, err = Wrap(cmd, *rules); err != nil {
			return refused(t, err)
		}
	}
	defer launch.Close()
	if launch.Start != nil {
		return startInSession(t, cmd, launch)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Start()
	launch.Started()
	if err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-time.After(time.Minute):
		syscall.Kill(-pid, syscall.SIGKILL)
		t.Fatal("the command hung")
	}
	r := run{stdout: stdout.String(), stderr: stderr.String(), pid: pid}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		r.exit = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return r
}

func content(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		return "<" + err.Error() + ">"
	}
	return string(b)
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

func TestTouchOutsideTheRootFailsInsideSucceeds(t *testing.T) {
	requireLandlock(t, FilesABI)
	d := makeDirs(t)

	r := bash(t, d.rules(false), d.root, `touch "$OUT/new"`, "OUT="+d.outside)
	if r.exit == 0 || !denied(r.stderr) || exists(d.outside+"/new") {
		t.Errorf("touch outside: exit %d, stderr %q, file made: %v; want it denied", r.exit, r.stderr, exists(d.outside+"/new"))
	}
	for _, dir := range []string{d.root, d.spill, d.tmp} {
		r := bash(t, d.rules(false), d.root, `touch "$DIR/new" && mkdir "$DIR/sub" && echo data > "$DIR/sub/f"`, "DIR="+dir)
		if r.exit != 0 || content(t, dir+"/sub/f") != "data\n" {
			t.Errorf("writing under %s: exit %d, stderr %q", dir, r.exit, r.stderr)
		}
	}
	// The same command unsandboxed succeeds: the denial is the sandbox's.
	if r := bash(t, nil, d.root, `touch "$OUT/new"`, "OUT="+d.outside); r.exit != 0 || !exists(d.outside+"/new") {
		t.Fatalf("unsandboxed touch outside failed: %q", r.stderr)
	}
	// The restriction is the command's, not this process's.
	if err := os.WriteFile(d.outside+"/by-the-server", nil, 0o644); err != nil {
		t.Fatalf("the server itself got restricted: %v", err)
	}
}

// TestEveryKindOfWriteOutsideIsDenied: writes, truncation, appends,
// removal, renames and directories outside the writable directories all
// fail, and nothing outside changes; reading and executing still work.
func TestEveryKindOfWriteOutsideIsDenied(t *testing.T) {
	requireLandlock(t, FilesABI)
	d := makeDirs(t)
	existing := d.outside + "/existing"
	for _, script := range []string{
		`echo new > "$OUT/existing"`,
		`: > "$OUT/existing"`, // O_TRUNC
		`echo more >> "$OUT/existing"`,
		`truncate -s 0 "$OUT/existing"`,
		`rm "$OUT/existing"`,
		`mv "$OUT/existing" "$OUT/moved"`,
		`mv "$OUT/existing" ./stolen`,
		`mv ./existing "$OUT/planted"`,
		`mkdir "$OUT/dir"`,
		`ln -s /etc/passwd "$OUT/link"`,
		`ln -s "$OUT/existing" ./link && echo new > ./link`, // through a symlink made inside
		`mkfifo "$OUT/fifo"`,
	} {
		r := bash(t, d.rules(false), d.root, script, "OUT="+d.outside)
		if r.exit == 0 {
			t.Errorf("%s: succeeded under the sandbox", script)
		}
		if got := content(t, existing); got != "old\n" {
			t.Fatalf("%s: the outside file now holds %q", script, got)
		}
		entries, _ := os.ReadDir(d.outside)
		if len(entries) != 1 {
			t.Fatalf("%s: the outside directory now holds %d entries", script, len(entries))
		}
	}
	r := bash(t, d.rules(false), d.root, `cat "$OUT/existing" && ls / > /dev/null && echo hi > /dev/null && echo err > /dev/stderr && /bin/true`, "OUT="+d.outside)
	if r.exit != 0 || r.stdout != "old\n" || r.stderr != "err\n" {
		t.Errorf("reading and executing: exit %d, stdout %q, stderr %q", r.exit, r.stdout, r.stderr)
	}
}

// TestRenamesInsideWork: moving files between directories of the root and
// the temp directory (what git, editors and package managers do) works.
func TestRenamesInsideWork(t *testing.T) {
	requireLandlock(t, FilesABI)
	d := makeDirs(t)
	r := bash(t, d.rules(false), d.root, `mkdir -p a b && echo x > a/f && mv a/f b/f && ln b/f b/g && mv "$TMPD/existing" b/from-tmp && rm -r a`, "TMPD="+d.tmp)
	if r.exit != 0 || content(t, d.root+"/b/from-tmp") != "old\n" {
		t.Fatalf("renames inside: exit %d, stderr %q", r.exit, r.stderr)
	}
}

func TestMissingWritableDirectoryIsLeftOut(t *testing.T) {
	requireLandlock(t, FilesABI)
	d := makeDirs(t)
	rules := d.rules(false)
	rules.Writable = append(rules.Writable, d.root+"/not-yet")
	if r := bash(t, rules, d.root, `touch ok && ! touch "$OUT/x"`, "OUT="+d.outside); r.exit != 0 {
		t.Fatalf("exit %d, stderr %q", r.exit, r.stderr)
	}
}

// TestWrapKeepsTheProcess: without namespaces, the helper execs the
// command in its own process, so the pid, process group, directory and
// environment are the ones the caller set. With them, the shell is pid 2
// of its namespace (the helper is its init), and sees no other process.
func TestWrapKeepsTheProcess(t *testing.T) {
	requireLandlock(t, FilesABI)
	d := makeDirs(t)
	rules := d.rules(false)
	rules.Layers = floor(false)
	r := bash(t, rules, d.root, `echo "$$ $(cut -d' ' -f5 /proc/$$/stat) $PWD $EXTRA"`, "EXTRA=yes")
	want := fmt.Sprintf("%d %d %s yes\n", r.pid, r.pid, d.root)
	if r.exit != 0 || r.stdout != want {
		t.Fatalf("got %q (stderr %q), want %q", r.stdout, r.stderr, want)
	}
	if rules = d.rules(false); rules.Layers&Namespaces == 0 {
		t.Skip("no namespaces here")
	}
	r = bash(t, rules, d.root, `echo "$PWD $EXTRA"; ps -e -o comm= > ps.out; sort ps.out | tr '\n' ' '`, "EXTRA=yes")
	// "exe": the helper, started as /proc/self/exe.
	if want := d.root + " yes\nbash exe ps "; r.exit != 0 || r.stdout != want {
		t.Fatalf("with namespaces: got %q (stderr %q), want %q: the helper as init and the command's own processes, nothing else", r.stdout, r.stderr, want)
	}
}

func TestNoNetworkDeniesTCP(t *testing.T) {
	requireLandlock(t, NetworkABI)
	d := makeDirs(t)
	l, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go acceptAndClose(l)
	port := strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
	connect := `exec 3<>/dev/tcp/127.0.0.1/` + port + ` && echo connected`

	bind := func(rules *Rules) run {
		cmd := exec.Command(os.Args[0])
		cmd.Env = append(os.Environ(), "SANDBOX_TEST_CHILD=bind")
		return start(t, cmd, rules)
	}
	// Where namespaces are not available: Landlock denies TCP, seccomp
	// every socket but a Unix one, before Landlock sees it.
	rules := d.rules(true)
	rules.Layers = floor(true)
	if r := bash(t, rules, d.root, connect); r.exit == 0 || strings.Contains(r.stdout, "connected") || !strings.Contains(r.stderr, "Address family not supported") {
		t.Errorf("floor with no-network: exit %d, stdout %q, stderr %q; want the socket denied", r.exit, r.stdout, r.stderr)
	}
	if r := bind(rules); r.exit == 0 || !strings.Contains(r.stdout, "address family not supported") {
		t.Errorf("floor, bind with no-network: exit %d, %q; want it denied", r.exit, r.stdout)
	}
	rules.Layers &^= Seccomp
	if r := bind(rules); r.exit == 0 || !strings.Contains(r.stdout, "permission denied") {
		t.Errorf("Landlock alone, bind with no-network: exit %d, %q; want it denied", r.exit, r.stdout)
	}
	// With namespaces: a network namespace of its own, with a loopback
	// that reaches nothing outside.
	if rules = d.rules(true); rules.Layers&Namespaces != 0 {
		if r := bash(t, rules, d.root, connect); r.exit == 0 || strings.Contains(r.stdout, "connected") || !strings.Contains(r.stderr, "Connection refused") {
			t.Errorf("namespaces with no-network: exit %d, stdout %q, stderr %q; want the connect refused", r.exit, r.stdout, r.stderr)
		}
		if r := bind(rules); r.exit != 0 {
			t.Errorf("namespaces, bind on the private loopback: exit %d, %q", r.exit, r.stdout)
		}
	}
	if r := bash(t, d.rules(false), d.root, connect); r.exit != 0 {
		t.Errorf("sandboxed with the network allowed: exit %d, stderr %q", r.exit, r.stderr)
	}
	if r := bash(t, nil, d.root, connect); r.exit != 0 {
		t.Errorf("unsandboxed: exit %d, stderr %q", r.exit, r.stderr)
	}
	if r := bind(d.rules(false)); r.exit != 0 {
		t.Errorf("bind with the network allowed: exit %d, %q", r.exit, r.stdout)
	}
}

func TestHelperFailsClosed(t *testing.T) {
	requireLandlock(t, FilesABI)
	d := makeDirs(t)
	// A writable directory that cannot be checked: the command must not run.
	rules := d.rules(false)
	rules.Writable = append(rules.Writable, d.root+"/existing/sub")
	r := bash(t, rules, d.root, `touch ran`)
	if r.exit != ExitHelperFailed || exists(d.root+"/ran") || !strings.Contains(r.stderr, "was not run") {
		t.Errorf("exit %d, stderr %q, ran: %v", r.exit, r.stderr, exists(d.root+"/ran"))
	}
	cmd := exec.Command("/bin/true")
	cmd.Path = d.root + "/no-such-program"
	cmd.Args = []string{"no-such-program"}
	if r := start(t, cmd, d.rules(false)); r.exit != 127 || !strings.Contains(r.stderr, "no-such-program") {
		t.Errorf("missing program: exit %d, stderr %q", r.exit, r.stderr)
	}
}

func TestCheck(t *testing.T) {
	requireLandlock(t, NetworkABI)
	if _, err := Check(Rules{NoNetwork: true}, Landlock); err != nil {
		t.Fatalf("Check: %v", err)
	}

	defer func(old func() (int, error)) { abiVersion = old }(abiVersion)
	// Forget the checks: each case below must probe again.
	forget := func() {
		checked.Lock()
		clear(checked.done)
		checked.Unlock()
	}
	defer forget()
	abiVersion = func() (int, error) { return 0, syscall.ENOSYS }
	forget()
	if _, err := Check(Rules{}, Landlock); err == nil || !strings.Contains(err.Error(), "needs Landlock") {
		t.Errorf("no Landlock: %v", err)
	}
	if ok, _, _ := Status(); ok || !strings.HasPrefix(StatusLine(), "landlock: not available") {
		t.Errorf("Status says available: %s", StatusLine())
	}
	abiVersion = func() (int, error) { return 3, nil }
	forget()
	if ls, err := Check(Rules{}, Landlock); err != nil || ls&Scopes != 0 {
		t.Errorf("ABI 3: %v %v", ls, err)
	}
	if _, err := Check(Rules{}, Landlock|Scopes); err == nil || !strings.Contains(err.Error(), "ABI 6") {
		t.Errorf("ABI 3 with scopes required: %v", err)
	}
	// A layer that is missing is named with its reason, never an empty one.
	if _, err := Check(Rules{}, Landlock|Seccomp); err == nil || !strings.Contains(err.Error(), "only with --no-network") {
		t.Errorf("seccomp required without --no-network: %v", err)
	}
	abiVersion = func() (int, error) { return 2, nil }
	forget()
	if _, err := Check(Rules{}, Landlock); err == nil || !strings.Contains(err.Error(), "ABI 3") {
		t.Errorf("ABI 2: %v", err)
	}
	abiVersion = func() (int, error) { return 7, nil }
	forget()
	if got := StatusLine(); !strings.HasPrefix(got, "landlock: available (ABI 7)\nsandbox layers: landlock+scopes") {
		t.Errorf("StatusLine = %q", got)
	}
}

func TestParseLayers(t *testing.T) {
	for in, want := range map[string]Layer{"": Landlock, "namespaces": Landlock | Namespaces, "Scopes+seccomp": Landlock | Scopes | Seccomp, "landlock, namespaces": Landlock | Namespaces} {
		if got, err := ParseLayers(in); err != nil || got != want {
			t.Errorf("ParseLayers(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	if _, err := ParseLayers("bwrap"); err == nil || !strings.Contains(err.Error(), "landlock, scopes, namespaces and seccomp") {
		t.Errorf("unknown layer: %v", err)
	}
}

func TestWrapRefusesAStartedCommand(t *testing.T) {
	cmd := exec.Command("/bin/true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	if _, err := Wrap(cmd, Rules{}); err == nil {
		t.Fatal("Wrap of a started command succeeded")
	}
}

func TestParseHelperArgs(t *testing.T) {
	h, err := parseHelperArgs([]string{"-w", "/a", "-deny-tcp", "-w", "/b", "-env-fd", "4", "-ns", "-uid", "7", "--", "/bin/bash", "bash", "-c", "x"})
	if err != nil || h.probe || !h.denyTCP || !h.ns || h.envFD != 4 || h.uid != 7 || h.statusFD != -1 || strings.Join(h.writable, ",") != "/a,/b" || strings.Join(h.argv, " ") != "/bin/bash bash -c x" {
		t.Fatalf("got %+v %v", h, err)
	}
	for _, bad := range [][]string{{"-w"}, {"-x", "--", "/bin/sh", "sh"}, {"-w", "/a"}, {"--", "/bin/sh"}, {"-env-fd", "x", "--", "/bin/sh", "sh"}} {
		if _, err := parseHelperArgs(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// refused is the run of a command the sandbox would not start, as a
// shell reports it: 127 when the program is missing, 126 otherwise.
func refused(t *testing.T, err error) run {
	t.Helper()
	if errors.Is(err, syscall.ENOENT) {
		return run{exit: 127, stderr: err.Error()}
	}
	return run{exit: ExitHelperFailed, stderr: err.Error()}
}

// startInSession runs cmd, wrapped into launch, through its session
// sandbox: its output through pipes, its exit status from launch.Status.
func startInSession(t *testing.T, cmd *exec.Cmd, launch *Launch) run {
	t.Helper()
	var outs [2]*os.File
	var bufs [2]bytes.Buffer
	read := make(chan struct{}, 2)
	for i := range outs {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		outs[i] = w
		go func() {
			bufs[i].ReadFrom(r)
			read <- struct{}{}
		}()
	}
	cmd.Stdout, cmd.Stderr = outs[0], outs[1]
	pid, err := launch.Start()
	launch.Started()
	outs[0].Close()
	outs[1].Close()
	if err != nil {
		return refused(t, err)
	}
	var b [5]byte
	done := make(chan error, 1)
	go func() {
		_, err := io.ReadFull(launch.Status, b[:])
		done <- err
	}()
	select {
	case err = <-done:
	case <-time.After(time.Minute):
		syscall.Kill(-pid, syscall.SIGKILL)
		t.Fatal("the command hung")
	}
	if err != nil || b[0] != StatusStarted {
		t.Fatalf("status %q: %v", b, err)
	}
	<-read
	<-read
	ws := syscall.WaitStatus(binary.NativeEndian.Uint32(b[1:]))
	r := run{stdout: bufs[0].String(), stderr: bufs[1].String(), pid: pid, exit: ws.ExitStatus()}
	if ws.Signaled() {
		r.exit = 128 + int(ws.Signal())
	}
	return r
}

// connectChild connects to the Unix socket SANDBOX_TEST_ADDR.
func connectChild() int {
	c, err := net.Dial("unix", os.Getenv("SANDBOX_TEST_ADDR"))
	if err != nil {
		fmt.Println("connect failed:", err)
		return 1
	}
	c.Close()
	fmt.Println("connect ok")
	return 0
}

// A sandboxed command cannot connect to an abstract Unix socket made
// outside its sandbox, with the network allowed or not and with or
// without namespaces: the person's console listens on one, and no file
// permission guards it from a command of the same user that forked,
// left its ancestry and cleared its environment.
func TestAbstractSocketScoped(t *testing.T) {
	requireLandlock(t, ScopesABI)
	addr := "@spillway-sandbox-test-" + strconv.Itoa(os.Getpid())
	l, err := net.Listen("unix", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go acceptAndClose(l)
	d := makeDirs(t)
	connect := func(rules *Rules) run {
		cmd := exec.Command(os.Args[0])
		cmd.Env = append(os.Environ(), "SANDBOX_TEST_CHILD=connect", "SANDBOX_TEST_ADDR="+addr)
		return start(t, cmd, rules)
	}
	if r := connect(nil); r.exit != 0 || !strings.Contains(r.stdout, "connect ok") {
		t.Fatalf("unsandboxed: exit %d, %q", r.exit, r.stdout)
	}
	floorRules := d.rules(false)
	floorRules.Layers = floor(false)
	for name, rules := range map[string]*Rules{"floor": floorRules, "every layer": d.rules(false), "no network": d.rules(true)} {
		if r := connect(rules); r.exit == 0 || strings.Contains(r.stdout, "connect ok") {
			t.Errorf("%s (layers %v): exit %d, %q; want the connect refused", name, rules.Layers, r.exit, r.stdout)
		}
	}
}

// acceptAndClose answers every connection to l by closing it, until l
// is closed: a peer that connects learns only that it could.
func acceptAndClose(l net.Listener) {
	for {
		c, err := l.Accept()
		if err != nil {
			return
		}
		c.Close()
	}
}

// TestLinkFromOutsideIsDenied: a sandboxed command cannot give a file
// outside the writable directories a name inside them — ln, cp -l, or
// ln -L through /proc/self/fd of a descriptor it opened for reading —
// with Landlock alone (the refer right is granted only under the
// writable directories, and a link from elsewhere needs it at the
// source too) as with every layer. So under --sandbox a hard link in the
// root to a file outside it is made by someone else (the person, an
// unsandboxed process), never by the model's commands, and read of such
// a link shows nothing the link's maker could not read.
func TestLinkFromOutsideIsDenied(t *testing.T) {
	requireLandlock(t, FilesABI)
	d := makeDirs(t)
	scripts := []string{
		`ln "$OUT/existing" ./hl`,
		`cp -l "$OUT/existing" ./hl`,
		`ln -L /proc/self/fd/3 ./hl 3<"$OUT/existing"`,
	}
	for _, layers := range []Layer{Landlock, d.rules(false).Layers} {
		rules := d.rules(false)
		rules.Layers = layers
		for _, script := range scripts {
			r := bash(t, rules, d.root, script, "OUT="+d.outside)
			if r.exit == 0 || exists(d.root+"/hl") {
				t.Errorf("%s, layers %s: made a link to the outside file (exit %d, stderr %q)", script, layers, r.exit, r.stderr)
			}
			t.Logf("%s, layers %s: %s", script, layers, strings.TrimSpace(r.stderr))
			os.Remove(d.root + "/hl")
		}
	}
	// Unsandboxed, the same commands make the link: the denial is the
	// sandbox's.
	for _, script := range scripts {
		if r := bash(t, nil, d.root, script, "OUT="+d.outside); r.exit != 0 || !exists(d.root+"/hl") {
			t.Fatalf("%s unsandboxed: exit %d, stderr %q", script, r.exit, r.stderr)
		}
		os.Remove(d.root + "/hl")
	}
}
