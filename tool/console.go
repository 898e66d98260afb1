package tool

import "time"

// A JobWatch is a background job as the person's console shows it.
type JobWatch struct {
	PID     int    `json:"pid"`
	Command string `json:"command"`
	State   string `json:"state"`
	TTY     bool   `json:"tty"`
	// Output is the end of the job's sanitized output (stdout, then
	// stderr when it is apart), at most the bytes asked for.
	Output string `json:"output"`
	// Screen is the terminal's screen, rows as text, for a tty job
	// whose emulator runs.
	Screen []string `json:"screen,omitempty"`
}

// A SecretPrompt is an open secret prompt as the console shows it: a
// program of a job waits for a password, which the person types on the
// page.
type SecretPrompt struct {
	ID      string `json:"id"`
	Title   string `json:"title"`
	Command string `json:"command"`
	Cwd     string `json:"cwd"`
	// SecretDetails are the prompt as the job's result describes it
	// (prompt, program, verified); their Expires, a string, is left
	// empty: Expires below is the page's time, the one shown.
	SecretDetails
	// Says, for a verified prompt, says in spillway's own words who
	// asks and for what; Why says why the program is not verified, and
	// Warning what the page warns of such a prompt.
	Says    string    `json:"says,omitempty"`
	Warning string    `json:"warning,omitempty"`
	Why     string    `json:"why,omitempty"`
	Expires time.Time `json:"expires"`
}
