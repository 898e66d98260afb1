package shell

import "github.com/spillway-dev/spillway/output"

// A Page is what one result shows of a job: the window of each stream
// since the last look, how the job stands, and notes for the model. The
// shell fills it in; Config.Render lays it out as the result's text.
type Page struct {
	// Lead are bracketed lines before the sections: what happened
	// since the last look that the output does not show.
	Lead   []string
	Stdout output.Result
	Stderr *output.Result // nil when stderr is merged into stdout
	// Screen, when set, is shown in place of stdout: the screen of a
	// job on a terminal (its stream is in the spill file).
	Screen string
	// Empty is said when neither stream has anything to show:
	// "(no output)", or "(no new output)" for a later look.
	Empty string
	// Exit is how the shell ended, nil while it runs: the status line
	// ("exit code: 0").
	Exit *Exit
	// Notes are bracketed lines after the status: how to continue.
	Notes []string
}
