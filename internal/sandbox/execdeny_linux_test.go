//go:build linux && !spillway_portable

package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// denyRm are the rules of d with every file rm is found as denied at
// exec, under each set of layers this machine offers (with and without
// the session sandbox's namespaces).
func denyRm(t *testing.T, d dirs) map[string]*Rules {
	t.Helper()
	requireLandlock(t, FilesABI)
	progs := ResolvePrograms([]string{"rm"}, os.Getenv("PATH"))
	if len(progs[0].Files) == 0 {
		t.Skip("no rm here")
	}
	out := map[string]*Rules{}
	full := d.rules(false)
	full.DenyExec = progs[0].Files
	out[full.Layers.String()] = full
	if full.Layers&Namespaces != 0 {
		fl := *full
		fl.Layers = floor(false)
		out[fl.Layers.String()] = &fl
	}
	return out
}

// Every route to a denied program's file fails, and the victim it would
// remove survives.
func TestDenyExecHoldsOnEveryRoute(t *testing.T) {
	d := makeDirs(t)
	routes := map[string]string{
		"path":        "/bin/rm -f victim",
		"bare name":   "rm -f victim",
		"usr path":    "/usr/bin/rm -f victim",
		"copy":        "cp /bin/rm ./r && ./r -f victim",
		"cat copy":    "cat /bin/rm > r2; chmod +x r2; ./r2 -f victim",
		"ld.so":       "/lib64/ld-linux-x86-64.so.2 /bin/rm -f victim",
		"shebang":     "printf '#!/bin/rm -f\\n' > s; chmod +x s; ./s victim",
		"proc fd":     "exec 7</bin/rm && /proc/self/fd/7 -f victim",
		"python exec": `python3 -c 'import os; os.execv("/bin/rm", ["rm", "-f", "victim"])'`,
		"perl exec":   `perl -e 'exec "/bin/rm", "-f", "victim"'`,
		"python fdexec": `python3 -c '
import os
fd = os.open("/usr/bin/rm", os.O_PATH)
os.execve(fd, ["rm", "-f", "victim"], {})'`,
		"python memfd": `python3 -c '
import os
src = open("/bin/rm", "rb").read()
fd = os.memfd_create("x")
os.write(fd, src)
os.execve(fd, ["rm", "-f", "victim"], {})'`,
		"script file": "printf 'import subprocess\\nsubprocess.run([\"/bin/rm\", \"-f\", \"victim\"])\\n' > s.py; python3 s.py",
	}
	if bb, err := exec.LookPath("busybox"); err == nil {
		routes["busybox"] = bb + " rm -f victim"
	}
	for layers, rules := range denyRm(t, d) {
		for name, script := range routes {
			t.Run(layers+"/"+name, func(t *testing.T) {
				victim := filepath.Join(d.root, "victim")
				if err := os.WriteFile(victim, []byte("keep"), 0o644); err != nil {
					t.Fatal(err)
				}
				r := bash(t, rules, d.root, script)
				if !exists(victim) {
					t.Fatalf("%s removed the victim (exit %d, stderr %q)", script, r.exit, r.stderr)
				}
			})
		}
	}
}

// What the sandbox grants around a denied file still works: the other
// programs of its directory, listing it, reading the rest of the file
// system, writing in the root.
func TestDenyExecKeepsTheRest(t *testing.T) {
	d := makeDirs(t)
	for layers, rules := range denyRm(t, d) {
		t.Run(layers, func(t *testing.T) {
			r := bash(t, rules, d.root, "ls /usr/bin | grep -qx rm && /usr/bin/ls / >/dev/null && cat /etc/passwd >/dev/null && echo ok > f && cat f && python3 -c 'print(1)' && /bin/true")
			if r.exit != 0 || r.stdout != "ok\n1\n" {
				t.Fatalf("exit %d, stdout %q, stderr %q", r.exit, r.stdout, r.stderr)
			}
		})
	}
}

// Not blocked, by design: code that removes the file itself, with no
// denied program, is held only by the writable set.
func TestDenyExecDoesNotBlockTheSameEffect(t *testing.T) {
	d := makeDirs(t)
	for layers, rules := range denyRm(t, d) {
		t.Run(layers, func(t *testing.T) {
			victim := filepath.Join(d.root, "victim")
			if err := os.WriteFile(victim, []byte("keep"), 0o644); err != nil {
				t.Fatal(err)
			}
			r := bash(t, rules, d.root, `python3 -c 'import os; os.remove("victim")'`)
			if r.exit != 0 || exists(victim) {
				t.Fatalf("python's os.remove did not remove the victim: exit %d, %q", r.exit, r.stderr)
			}
		})
	}
}

// Without the denial the same routes do remove the file: the tests above
// can fail.
func TestDenyExecRoutesWorkWithoutIt(t *testing.T) {
	d := makeDirs(t)
	for layers, rules := range denyRm(t, d) {
		rules.DenyExec = nil
		t.Run(layers, func(t *testing.T) {
			for _, script := range []string{"/lib64/ld-linux-x86-64.so.2 /bin/rm -f victim", "cp /bin/rm ./r && ./r -f victim", `perl -e 'exec "/bin/rm", "-f", "victim"'`} {
				victim := filepath.Join(d.root, "victim")
				os.WriteFile(victim, []byte("keep"), 0o644)
				if r := bash(t, rules, d.root, script); exists(victim) {
					t.Errorf("%s without the denial left the victim: exit %d %q", script, r.exit, r.stderr)
				}
			}
		})
	}
}

func TestComplement(t *testing.T) {
	base := t.TempDir()
	for _, p := range []string{"bin", "lib/x", "opt"} {
		os.MkdirAll(filepath.Join(base, p), 0o755)
	}
	for _, f := range []string{"bin/rm", "bin/ls", "top"} {
		os.WriteFile(filepath.Join(base, f), nil, 0o755)
	}
	os.Symlink("bin/rm", filepath.Join(base, "link"))
	dirs, files, listed, err := complement([]string{filepath.Join(base, "bin/rm")})
	if err != nil {
		t.Fatal(err)
	}
	has := func(l []string, p string) bool {
		for _, x := range l {
			if x == p {
				return true
			}
		}
		return false
	}
	for _, p := range []string{filepath.Join(base, "bin/rm"), filepath.Join(base, "link"), filepath.Join(base, "bin"), base} {
		if has(dirs, p) || has(files, p) {
			t.Errorf("%s is granted", p)
		}
	}
	for _, p := range []string{filepath.Join(base, "lib"), filepath.Join(base, "opt")} {
		if !has(dirs, p) {
			t.Errorf("%s is not granted", p)
		}
	}
	for _, p := range []string{filepath.Join(base, "bin/ls"), filepath.Join(base, "top")} {
		if !has(files, p) {
			t.Errorf("%s is not granted", p)
		}
	}
	if !has(listed, "/") || !has(listed, filepath.Join(base, "bin")) {
		t.Errorf("listed %v", listed)
	}
	if _, _, _, err := complement([]string{"rel/rm"}); err == nil {
		t.Error("a relative path was accepted")
	}
}

func TestResolvePrograms(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "busybox"), nil, 0o755)
	os.Symlink("busybox", filepath.Join(dir, "rm"))
	os.WriteFile(filepath.Join(dir, "python3.12"), nil, 0o755)
	os.Symlink("python3.12", filepath.Join(dir, "python3"))
	os.WriteFile(filepath.Join(dir, "noexec"), nil, 0o644)
	got := ResolvePrograms([]string{"rm", "python3", "noexec"}, dir)
	real, _ := filepath.EvalSymlinks(dir)
	if got[0].Name != "rm" || len(got[0].Skipped) != 1 || contains(got[0].Files, filepath.Join(real, "busybox")) {
		t.Errorf("rm as busybox: %+v", got[0])
	}
	if !contains(got[1].Files, filepath.Join(real, "python3.12")) {
		t.Errorf("python3: %+v", got[1])
	}
	if len(got[2].Files) != 0 {
		t.Errorf("a file that is not executable: %+v", got[2])
	}
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}
