package proc

import "io/fs"

// A Reader is a process that reads a terminal: the one a secret typed
// there goes to. What is known of it is what its verification needs:
// which file it runs, who owns that file and the directories above it,
// which other files it runs code from, and whether another process
// watches it.
type Reader struct {
	PID int
	// Start is when it started (clock ticks after boot): with PID, it
	// names the process, which a reused pid does not.
	Start uint64
	// Name is the name it was started by (its command name), which for a
	// script is the script's, not its interpreter's.
	Name string
	// Exe is the path of its executable as it sees it; "" when Hidden.
	Exe string
	// Hidden: its executable and memory cannot be read by this process:
	// it runs as another user, as a set-user-ID program does.
	Hidden bool
	// SetUIDRoot: it runs as root (effective user 0) for another user
	// (its real user): only a set-user-ID file of root's made it so.
	SetUIDRoot bool
	// Traced: another process traces it (ptrace), and so may read its
	// memory.
	Traced bool
	// Files are the files it runs code from: its executable first, then
	// every other file mapped executable (its libraries, and a library
	// preloaded from anywhere). Unknown when Hidden.
	Files []ExecFile
}

// An ExecFile is a file a process runs code from.
type ExecFile struct {
	// Path is where the process sees it.
	Path string
	// UID owns it, Mode is its type and permissions.
	UID  uint32
	Mode fs.FileMode
	// DirsSafe: every directory above it is root's, and no other user
	// may write it (no group or other write bit).
	DirsSafe bool
}

// Same reports whether r and o are the same process running the same
// program.
func (r Reader) Same(o Reader) bool {
	return r.PID == o.PID && r.Start == o.Start && r.Exe == o.Exe && r.Name == o.Name
}
