//go:build linux

package mcpserver_test

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// attackUser is the unprivileged user the attacks that need one run as;
// the test makes it when it runs as root (as CI does).
const attackUser = "spillway-attack"

// unprivileged returns the uid and gid of attackUser, making the user if
// need be; it skips the test when it cannot.
func unprivileged(t *testing.T) (uid, gid int) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root, to run spillway as an unprivileged user")
	}
	u, err := user.Lookup(attackUser)
	if err != nil {
		out, err := exec.Command("useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", attackUser).CombinedOutput()
		if err != nil {
			t.Skipf("cannot make the user %s: %v %s", attackUser, err, out)
		}
		if u, err = user.Lookup(attackUser); err != nil {
			t.Fatal(err)
		}
	}
	uid, _ = strconv.Atoi(u.Uid)
	gid, _ = strconv.Atoi(u.Gid)
	return uid, gid
}

// userDir makes a directory that the user uid owns, outside the test's
// private temp directory (which others cannot enter).
func userDir(t *testing.T, uid, gid int) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "spillway-user-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// userTasks counts the live tasks (threads included) of uid.
func userTasks(uid int) int {
	n := 0
	for _, pid := range allPids() {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
		if err != nil {
			continue
		}
		var owner, threads int
		for _, l := range strings.Split(string(b), "\n") {
			if f := strings.Fields(l); len(f) >= 2 {
				switch f[0] {
				case "Uid:":
					owner, _ = strconv.Atoi(f[1])
				case "Threads:":
					threads, _ = strconv.Atoi(f[1])
				}
			}
		}
		if owner == uid {
			n += threads
		}
	}
	return n
}

// userZombies counts the processes of uid that have ended and wait to be
// reaped.
func userZombies(uid int) int {
	n := 0
	for _, pid := range allPids() {
		st, ok := readProcStat(pid)
		if !ok || st.state != 'Z' {
			continue
		}
		if fi, err := os.Stat("/proc/" + strconv.Itoa(pid)); err == nil && fi.Sys().(*syscall.Stat_t).Uid == uint32(uid) {
			n++
		}
	}
	return n
}

// TestAttackTaskFloodKeepsServerUp: under `ulimit -u 300`, a job that
// starts 400 background sleeps took every task the user may have; the Go
// runtime of `spillway serve` failed to make a thread ("fatal error:
// newosproc") and every session died with it. Whether the runtime needs a
// thread just then is a matter of timing; that the job took the last
// tasks is not, and is what the test holds: the job is capped below the
// user's limit, the server stays up and another session's ls answers (the
// time it took is logged).
func TestAttackTaskFloodKeepsServerUp(t *testing.T) {
	t.Parallel() // it waits on bash's fork retries more than it works
	uid, gid := unprivileged(t)
	for _, sandboxed := range []bool{true, false} {
		t.Run(map[bool]string{false: "plain", true: "sandbox"}[sandboxed], func(t *testing.T) {
			if sandboxed {
				sandboxLayers(t)
			}
			base := userDir(t, uid, gid)
			self := filepath.Join(base, "spillway")
			data, err := os.ReadFile(bin)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(self, data, 0o755); err != nil {
				t.Fatal(err)
			}
			root, tmp := filepath.Join(base, "root"), filepath.Join(base, "tmp")
			for _, d := range []string{root, tmp} {
				os.Mkdir(d, 0o755)
				os.Chown(d, uid, gid)
			}
			args := "serve --listen 127.0.0.1:0 --no-token --log-level warn --root " + root
			if sandboxed {
				args += " --sandbox --no-network"
			}
			cmd := exec.Command("bash", "-c", `ulimit -u 300 && exec "$0" `+args, self)
			cmd.Env = []string{"PATH=/usr/local/bin:/usr/bin:/bin", "TMPDIR=" + tmp, "HOME=" + base, "GOMAXPROCS=16"}
			cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, Setpgid: true}
			pr, pw := io.Pipe()
			stderr := &lockedBuffer{}
			cmd.Stderr = io.MultiWriter(stderr, pw)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan struct{})
			go func() { cmd.Wait(); pw.Close(); close(exited) }()
			t.Cleanup(func() {
				syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
				<-exited
				// Whatever of the user's the server left.
				exec.Command("pkill", "-KILL", "-u", strconv.Itoa(uid)).Run()
				checkStderr(t, "spillway serve", stderr.String())
			})
			found := make(chan string, 1)
			go func() {
				sc := bufio.NewScanner(pr)
				for sc.Scan() {
					if _, url, ok := strings.Cut(sc.Text(), "serving MCP at "); ok {
						found <- url
					}
				}
			}()
			var url string
			select {
			case url = <-found:
			case <-exited:
				t.Fatalf("spillway serve ended at start:\n%s", stderr)
			case <-time.After(hangGuard):
				t.Fatalf("spillway serve did not start:\n%s", stderr)
			}

			a := connectHTTP(t, url, nil, nil, false)
			b := connectHTTP(t, url, nil, nil, false)
			res := call(t, a, "bash", map[string]any{"command": "for i in $(seq 400); do sleep 120 & done; wait", "run_in_background": true})
			pid := int(field(details(t, res), "pid").(float64))
			// Meanwhile the other session keeps the server busy starting
			// commands, each of which a thread of the server waits on.
			stop := make(chan struct{})
			var busy sync.WaitGroup
			for range 8 {
				busy.Go(func() {
					for {
						select {
						case <-stop:
							return
						case <-exited:
							return
						default:
						}
						b.CallTool(testContext(t), &mcp.CallToolParams{Name: "bash", Arguments: map[string]any{"command": "sleep 0.2"}})
					}
				})
			}
			defer busy.Wait()
			defer close(stop)
			// The job forks until fork fails (bash then retries, with
			// waits of 1, 2, 4 … s).
			waitFor(t, "the job to run out of tasks", func() bool {
				select {
				case <-exited:
					t.Fatalf("the server died under the flood:\n%s", stderr)
				default:
				}
				out := text(call(t, a, "bash", map[string]any{"check_pid": pid}))
				return strings.Contains(out, "Resource temporarily unavailable")
			})
			time.Sleep(time.Second) // the pressure goes on at the peak
			sleeps := 0
			for _, p := range sleepers("120") {
				if st, err := os.Stat("/proc/" + strconv.Itoa(p)); err == nil && st.Sys().(*syscall.Stat_t).Uid == uint32(uid) {
					sleeps++
				}
			}
			t.Logf("at the flood's peak: %d sleeps, %d tasks of the user (limit 300)", sleeps, userTasks(uid))
			// The job is held below the user's limit, less what is kept
			// for the server: it never takes the server's last tasks.
			if sleeps > 300-64 {
				t.Errorf("the job started %d processes under a limit of 300: nothing is left for the server", sleeps)
			}
			start := time.Now()
			ls := call(t, b, "ls", map[string]any{"path": root})
			took := time.Since(start)
			t.Logf("another session's ls during the flood answered in %v", took)
			if ls.IsError {
				t.Errorf("ls during the flood: %s", text(ls))
			}
			select {
			case <-exited:
				t.Fatalf("the server died under the flood:\n%s", stderr)
			default:
			}
			if strings.Contains(stderr.String(), "fatal error") {
				t.Errorf("the server's runtime failed:\n%s", stderr)
			}
			// Once the flood is killed, bash works for every session again.
			call(t, a, "bash", map[string]any{"kill_pid": pid})
			// Killed is not yet gone: on a loaded machine the kernel takes
			// a while to tear down hundreds of processes, and the killed
			// sleeps, orphans once their shell is gone, are zombies until
			// init reaps them. A zombie still counts against the user's
			// limit, so until init has reaped them the user has no task
			// to spare (seen: 60 zombies, 239 tasks of the user).
			waitFor(t, "the flood's processes to end and be reaped", func() bool {
				for _, p := range sleepers("120") {
					if st, err := os.Stat("/proc/" + strconv.Itoa(p)); err == nil && st.Sys().(*syscall.Stat_t).Uid == uint32(uid) {
						return false
					}
				}
				return userZombies(uid) == 0
			})
			if out := text(call(t, b, "bash", map[string]any{"command": "sleep 0.1 & wait; echo alive"})); !strings.Contains(out, "alive") {
				t.Errorf("after the flood: %s", out)
			}
		})
	}
}
