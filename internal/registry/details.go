package registry

// DetailDoc describes a field of the tools' details by its JSON name
// ("exit_code"); ok is false for a field it does not know.
func DetailDoc(name string) (doc string, ok bool) {
	doc, ok = detailDocs[name]
	return doc, ok
}

// detailDocs describe the fields of the tools' details, by JSON name, for
// the output schemas and docs/tools.md.
var detailDocs = map[string]string{
	// common
	"truncation":         "What was left out of the text. truncated is true when anything was.",
	"truncated":          "True when anything at all was left out.",
	"truncated_by":       "The limit that cut: lines, bytes, tokens (max_tokens), line_chars (only long lines were shortened), or empty.",
	"total_lines":        "Lines in the whole output or file.",
	"total_bytes":        "Bytes in the whole output.",
	"output_lines":       "Lines shown.",
	"output_bytes":       "Bytes shown.",
	"lines_cut":          "Lines shortened because they were too long.",
	"first_line_partial": "Only the beginning of the first line is shown: it is longer than the whole byte budget.",
	"last_line_partial":  "Only the end of the last line is shown: it is longer than the whole byte budget.",
	"next":               "The calls that show what was left out, each {\"tool\": name, ...its parameters}; following them, and the next calls their results give, reaches every byte. For a command that waits for a secret: {\"tool\": \"relay_to_user\", \"url\", \"message\"} (give the user that address; it is no tool), then the check_pid call that shows what follows.",
	"char_offset":        "When one line is shown in part: how many of its characters come before the part shown.",
	"tokens":             "Estimated tokens of the result's text as the model reads it (docs/tokens.md): counted on the high side, about 1.1–1.5 times what OpenAI's tokenizers count.",
	// bash
	"exit_code":           "Exit code of the command; null while it runs.",
	"signal":              "Signal that killed the command, if any.",
	"timed_out":           "The timeout passed and the command moved to the background.",
	"backgrounded":        "The command runs on as a background job: use check_pid or kill_pid with pid.",
	"running":             "The command (or a child it left) is still running.",
	"pid":                 "Process (group) id of the command, for check_pid and kill_pid.",
	"duration_ms":         "Milliseconds the command has run.",
	"history_id":          "Id of the call in the history: the history tool shows its output again with other limits, without running it.",
	"cached":              "The call was answered from the cache (a recent run of the same listed command, same directory and environment): nothing ran.",
	"cache_age_ms":        "How old the cached result is, in milliseconds.",
	"stdout":              "Details of standard output.",
	"stderr":              "Details of standard error.",
	"full_output_path":    "File holding the whole stream, when anything was cut.",
	"spill_capped":        "The spill file reached its size cap; later output was not saved.",
	"binary":              "The stream is binary: the text only says how big it is.",
	"waiting_for_input":   "The command seems to wait for input (it is blocked reading its terminal or stdin): answer with write_stdin.",
	"waiting_for_secret":  "The command waits for a secret (a password prompt: its terminal does not echo). The user answers it on the page secret.url, never you: give them the address.",
	"secret":              "The secret prompt the command waits at, and the one-time page where the user answers it.",
	"prompt":              "The prompt: the last line the command wrote.",
	"url":                 "The one-time page (loopback) where the user answers the prompt; the answer goes to the command's terminal and never to you.",
	"expires":             "When the page closes unanswered (RFC 3339); a later look opens a new one.",
	"secret_url":          "For a job waiting for secret: the one-time page where the user answers its prompt.",
	"spill_error":         "Why the full output could not be saved, when it could not.",
	"diff_with":           "History id of the earlier run a diff_with call compared its output with.",
	"diff_with_exit_code": "Exit code of that earlier run.",
	"failures":            "Lines among those cut that look like failures (compiler errors, failed tests, panics, tracebacks, package manager errors), as the text shows them between head and tail: [{stream, line, text}], line numbered in the stream's full output.",
	// read
	"path":        "The path that was read or searched.",
	"kind":        "text or image.",
	"mime_type":   "Detected MIME type.",
	"offset":      "First line shown, 1-based.",
	"lines_shown": "Lines shown.",
	// grep, find, ls
	"match_count":          "Matching lines found (at most limit).",
	"file_count":           "Files with at least one match.",
	"match_limit_reached":  "The limit stopped the search; more matches may exist.",
	"count":                "Results returned.",
	"result_limit_reached": "The limit stopped the search; more results may exist.",
	"entry_limit_reached":  "The directory has more entries than the limit.",
	"skipped":              "Paths that could not be read (at most five).",
	// jobs
	"jobs":  "The background commands, oldest first.",
	"state": "running, waiting for input, waiting for secret (a password prompt the user answers at secret_url), or exited.",
	"input": "tty (a terminal), stdin (an open pipe), closed (a pipe whose end was sent), or empty (/dev/null).",
	// history
	"records":  "The recorded bash calls, oldest first.",
	"sessions": "The named bash sessions: cwd and the variables their commands exported.",
	"shown":    "The recorded call shown again, and which lines of each stream were shown.",
}
