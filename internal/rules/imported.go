package rules

import (
	"fmt"
	"strings"
)

// A FileKind is what a file rule decides: reading a file, editing it, or
// writing it whole.
type FileKind int

const (
	FileRead FileKind = iota
	FileEdit
	FileWrite
)

func (k FileKind) String() string {
	switch k {
	case FileRead:
		return "read"
	case FileEdit:
		return "edit"
	case FileWrite:
		return "write"
	}
	return "unknown"
}

// fileKinds are Claude Code's file tools by the names its entries use.
var fileKinds = map[string]FileKind{"Read": FileRead, "Edit": FileEdit, "Write": FileWrite}

// IsFileEntry reports whether a rule entry is a file rule: Read, Edit or
// Write, alone or with a (pattern).
func IsFileEntry(s string) bool {
	tool, spec, hasSpec := strings.Cut(strings.TrimSpace(s), "(")
	_, ok := fileKinds[strings.TrimSpace(tool)]
	return ok && (!hasSpec || strings.HasSuffix(strings.TrimSpace(spec), ")"))
}

// A FileRule is a Read(…), Edit(…) or Write(…) entry of a settings
// file, carried to the file tools as written: Pattern is the entry's
// specifier in Claude Code's gitignore-style syntax ("./secrets/**",
// "~/.ssh/**", "//etc/passwd"), relative to the file it came from, and
// empty for every file. As in Claude Code, an Edit rule decides every
// tool that changes a file (edit, write, apply_patch), and a Write rule
// those that write one whole. An import failure of a file that could
// hold such entries gives one rule of each kind for every file, with
// decision Ask and Failure saying why.
type FileRule struct {
	Kind    FileKind
	Pattern string
	// Base is the directory a relative Pattern is read from: the
	// project for a project's settings file, the home for the person's
	// (Claude Code reads "/x" from the settings file's project and "x"
	// anywhere under it; "//x" is the absolute path /x, "~/x" under the
	// home).
	Base     string
	Decision Decision
	// Source is where the entry is written, "FILE:LINE".
	Source string
	// Text is the entry as written ("Read(./.env)").
	Text string
	// Failure, when set, is the import failure this rule stands for.
	Failure string
	// Justification, on a suspended allow entry (SuspendedFiles), is the
	// whole reason a decision gives when the entry would have allowed
	// the file.
	Justification string
}

// What became of an entry spillway does not hold as written.
const (
	// Dropped: an allow entry spillway cannot hold exactly, left out.
	Dropped = "dropped"
	// Widened: a deny or ask entry held on a larger set of commands
	// (Held), Also saying what that adds.
	Widened = "widened"
	// HeldExact: an allow entry that is a whole input, held as exactly
	// that input (Pattern.Exact).
	HeldExact = "exact"
	// Suspended: a project's allow entry, not counted until the person
	// trusts the project.
	Suspended = "suspended"
)

// A Note is an entry of a rules file that spillway reads the stricter
// way, or leaves out, and why: shown at start, by spillway rules list
// and counted by spillway doctor.
type Note struct {
	// Source is where the entry is written, "FILE:LINE".
	Source string
	// Entry is the entry as written.
	Entry string
	// Action is Dropped, Widened, HeldExact or Suspended.
	Action string
	// Held is the rule held instead, for Widened.
	Held string
	// Why says why the entry is not held as written.
	Why string
	// Also says, for Widened, what is now denied or asked that the
	// entry's own tool would not.
	Also string
}

func (n Note) String() string {
	s := fmt.Sprintf("%s: %s %s: %s", n.Source, n.Entry, n.Action, n.Why)
	if n.Held != "" {
		s += "; held as " + n.Held
	}
	if n.Also != "" {
		s += "; " + n.Also
	}
	return s
}

// Imported is what an import read: the rules in force, the file rules,
// the notes on entries not held as written, the files that could not be
// read or evaluated (import failures), and the files read.
type Imported struct {
	Rules     []Rule
	FileRules []FileRule
	Notes     []Note
	// Suspended are the project's allow rules not in force until the
	// person trusts it (SuspendedRule), for Set.Suspended.
	Suspended []Rule
	// SuspendedFiles are the project's allow file rules (Read, Edit,
	// Write entries) not in force until the person trusts it
	// (SuspendedFileRule).
	SuspendedFiles []FileRule
	// Failures are the import failures: each also stands as an ask rule
	// for every command in Rules (and for file tools in FileRules when
	// the file could hold file entries).
	Failures []*FileError
	// Read lists the files read, in order.
	Read []string
	// ManagedOnly is set when an administrator's settings say
	// allowManagedPermissionRulesOnly: only their allow entries count.
	ManagedOnly bool
	// Managed lists the administrator's files read.
	Managed []string
}
