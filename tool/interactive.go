package tool

import "time"

// WriteStdinInput is what write_stdin sends to a running job, and how
// long it waits for the answer: the tool's parameters, named by their
// json tags (docs/tools.md gives defaults and bounds).
type WriteStdinInput struct {
	// PID is the job's pid (BashDetails.PID).
	PID int `json:"pid" min:"1" doc:"Pid of the background command, as bash returned it."`
	// Input is text sent as it is, before Keys. On a terminal a "\n" is
	// sent as Enter ("\r"), as a keyboard does.
	Input string `json:"input,omitempty" doc:"Text to send as typed; a newline is Enter."`
	// Keys are named keys sent after Input, in order: "Enter", "Tab",
	// "Esc", "Up", "Ctrl-C", "Ctrl-D" … (docs/tools.md lists them).
	Keys []string `json:"keys,omitempty" doc:"Named keys to send after input, e.g. [\"Enter\"], [\"Ctrl-C\"], [\"Up\", \"Enter\"]."`
	// CloseStdin ends the input after Input and Keys: a stdin pipe is
	// closed, so the job reads end of file; a terminal gets Ctrl-D.
	CloseStdin bool `json:"close_stdin,omitempty" doc:"End the command's input after sending the rest (end of file)."`
	// AllowModelSecret lets Input reach a job that waits for a secret
	// (BashDetails.WaitsSecret), which is refused otherwise: a secret
	// typed by the model passes through its context, its client's
	// transcript and its provider. Set it only for a test secret the
	// model was given; a person answers a real one on the page
	// BashDetails.Secret names.
	AllowModelSecret bool `json:"allow_model_secret,omitempty" doc:"Send input to a command that waits for a secret (a password prompt; its terminal does not echo). Without it such input is refused: the user answers on the page the result names. Only for a test secret you were given."`
	// Timeout is how long to wait for the job's answer; zero is 2 s (a
	// call by name gets the config key write_wait_ms), and at most 55 s
	// is waited. The call returns earlier when the job waits for input
	// again or ends, or when the screen its program holds has been still
	// for 100 ms.
	Timeout time.Duration `json:"timeout,omitempty" min:"1" ceiling:"check_wait_ms" default:"write_wait_ms" doc:"Most milliseconds to wait for the answer; the call returns as soon as the command waits for input again or ends, or its screen has been still for 100 ms."`
	// Cols and Rows, when above zero, resize the job's terminal first:
	// the program gets SIGWINCH and redraws.
	Cols int `json:"cols,omitempty" min:"min_cols" max:"max_cols" doc:"Resize the command's terminal to this many columns (it gets SIGWINCH and redraws)."`
	Rows int `json:"rows,omitempty" min:"min_rows" max:"max_rows" doc:"Resize the command's terminal to this many rows (it gets SIGWINCH and redraws)."`
	// Screen is as for check_pid: "changes" or "full".
	Screen string `json:"screen,omitempty" enum:"changes,full" default:"changes" doc:"For a program that holds a terminal's screen: \"changes\" shows the rows changed since the last look, numbered; \"full\" shows every row."`
}
