package tool

// A JobInfo is one background job in a jobs listing.
type JobInfo struct {
	PID     int      `json:"pid" doc:"Process (group) id of the command, for check_pid and kill_pid."`
	Command string   `json:"command"`
	Args    []string `json:"args,omitempty"`
	// State is "running", "waiting for input", "waiting for secret" (a
	// password prompt, which the person answers on spillway's page) or
	// "exited" (ExitCode and Signal say how). A job whose shell exited
	// while processes it started still run is "running", with its
	// shell's exit code.
	State    string `json:"state" doc:"running, waiting for input, waiting for secret (a password prompt the person answers on spillway's page, never you), or exited."`
	ExitCode *int   `json:"exit_code" doc:"Exit code of the command; null while it runs."`
	Signal   string `json:"signal,omitempty" doc:"Signal that killed the command, if any."`
	// Input is "tty" (a terminal), "stdin" (a pipe still open), "closed"
	// (a pipe it was sent the end of) or "" (/dev/null).
	Input string `json:"input,omitempty" doc:"tty (a terminal), stdin (an open pipe), closed (a pipe whose end was sent), or empty (/dev/null)."`
	// DurationMS is the time in milliseconds from the start to the
	// shell's exit, or so far.
	DurationMS int64        `json:"duration_ms" doc:"Milliseconds the command has run."`
	Stdout     StreamRecord `json:"stdout" doc:"Details of standard output."`
	Stderr     StreamRecord `json:"stderr" doc:"Details of standard error."`
}
