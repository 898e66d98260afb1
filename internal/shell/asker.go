package shell

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spillway-dev/spillway/internal/policy"
	"github.com/spillway-dev/spillway/internal/proc"
)

// Who asks for a secret: whether a job waits for one is known from its
// terminal alone (echo off), so any program can put up a prompt that
// looks like sudo's. The program that reads the terminal is found (the
// foreground process group's member blocked reading it) and verified:
// the page and the result say whether it is the system's program or one
// the session could have made, and SecretTrust.Refuse opens no page for
// the latter.

// setUIDAskers are the set-user-ID programs whose password prompts are
// the system's: they ask for the person's own password, or another
// user's, to act as root or as that user.
var setUIDAskers = []string{"sudo", "su", "passwd", "doas"}

// SecretTrust says which programs a secret prompt is verified for.
type SecretTrust struct {
	// Trusted names the programs, besides the set-user-ID sudo, su,
	// passwd and doas, that may ask.
	Trusted []string
	// Refuse: a prompt that is not verified gets no page.
	Refuse bool
	// Writable are the directories the session's commands may write (its
	// root, spill and temp directories); the job's cwd is added.
	Writable []string
	// Sandboxed: the commands write only there. Otherwise the session's
	// user may write anywhere it owns, and as root anywhere.
	Sandboxed bool
}

// An asker is the program that reads a terminal, as a page and a
// result name it.
type asker struct {
	// Program is its executable's path, or its name when the path cannot
	// be read.
	Program  string
	Verified bool
	// Why, when not verified, says why, for the person and the model.
	Why string
	// readers are the processes that read the terminal when it was
	// asked (none when they could not be learnt): the answer goes to
	// them or nowhere.
	readers []proc.Reader
	// known: the readers could be learnt (Linux).
	known bool
}

// verify finds who reads the job's terminal and verifies it.
func (j *job) verifyAsker(trust SecretTrust, cwd string) asker {
	if j.input == nil || !j.input.tty {
		return asker{Why: "the command has no terminal"}
	}
	readers, ok := proc.TerminalReaders(j.input.f, j.input.link)
	a := trust.verify(readers, ok, cwd, os.Geteuid() == 0)
	a.readers, a.known = readers, ok
	return a
}

// verify decides for readers (the processes that read the terminal;
// known says they could be learnt), for a session whose user is root
// or not.
func (t SecretTrust) verify(readers []proc.Reader, known bool, cwd string, root bool) asker {
	if !known || len(readers) == 0 {
		return asker{Why: "the program that reads the terminal could not be found"}
	}
	var first asker
	for i, r := range readers {
		a := t.verifyOne(r, cwd, root)
		if !a.Verified {
			return a // one reader the session may have made is enough
		}
		if i == 0 {
			first = a
		}
	}
	return first
}

// verifyOne decides for one reader.
func (t SecretTrust) verifyOne(r proc.Reader, cwd string, root bool) asker {
	name := r.Name
	a := asker{Program: r.Name}
	if r.Exe != "" {
		name, a.Program = filepath.Base(r.Exe), r.Exe
	}
	setUID := slices.Contains(setUIDAskers, name)
	switch {
	case r.Traced:
		a.Why = "another process traces it, and can read what it is given"
	case r.Exe != "" && !sameName(r.Name, name) && !policy.Interpreter(r.Name):
		a.Why = fmt.Sprintf("it is a script named %s run by %s", r.Name, r.Exe)
	case policy.Interpreter(name):
		a.Why = "it is an interpreter (" + name + "), which asks whatever the script it runs asks"
	case !setUID && !slices.Contains(t.Trusted, name):
		a.Why = fmt.Sprintf("%s is not the set-user-ID sudo, su, passwd or doas, nor a program named in secrets.trusted", name)
	case r.Hidden:
		// Its executable cannot be read: it runs as another user. Only
		// the kernel, executing a set-user-ID file of root's, makes a
		// process of the session's user run as root, and only root can
		// make such a file: that is the system's program.
		if !r.SetUIDRoot {
			a.Why = "its executable cannot be read, and it is not a set-user-ID program of root's"
		} else if !setUID {
			a.Why = name + " runs set-user-ID root, which the system's " + name + " does not"
		} else {
			a.Verified = true
		}
	case root && !t.Sandboxed:
		a.Why = "the session runs as root without --sandbox, so a command could have replaced any program"
	default:
		a.Why = t.filesWhy(r, cwd, setUID)
		a.Verified = a.Why == ""
	}
	return a
}

// filesWhy checks the files the reader runs code from: each root's,
// writable by nobody else, in directories likewise, outside every
// directory the session may write; the executable of a set-user-ID
// asker set-user-ID root. It returns what is wrong, or "".
func (t SecretTrust) filesWhy(r proc.Reader, cwd string, setUID bool) string {
	if len(r.Files) == 0 {
		return "the files it runs could not be read"
	}
	if exe := r.Files[0]; setUID && (exe.Mode&fs.ModeSetuid == 0 || exe.UID != 0) {
		return exe.Path + " is not a set-user-ID program of root's"
	}
	writable := append(slices.Clone(t.Writable), cwd)
	for _, f := range r.Files {
		what := "its executable " + f.Path
		if f.Path != r.Files[0].Path {
			what = "a library it runs, " + f.Path + ","
		}
		switch {
		case f.UID != 0:
			return what + " is not root's"
		case f.Mode.Perm()&0o022 != 0:
			return what + " may be written by others than root"
		case !f.DirsSafe:
			return what + " is in a directory that others than root may write"
		}
		for _, w := range writable {
			if w != "" && within(f.Path, w) {
				return what + " is in " + w + ", which the session's commands may write"
			}
		}
	}
	return ""
}

// sameName reports whether comm, a process's command name (cut to 15
// bytes by the kernel), is name: a script's command name is the
// script's, not its interpreter's.
func sameName(comm, name string) bool {
	if len(name) > 15 {
		name = name[:15]
	}
	return comm == name
}

// within reports whether path is dir or under it.
func within(path, dir string) bool {
	dir = filepath.Clean(dir)
	return path == dir || strings.HasPrefix(path, strings.TrimSuffix(dir, "/")+"/")
}
