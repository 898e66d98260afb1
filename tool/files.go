package tool

import (
	"errors"
	"time"

	"github.com/spillway-dev/spillway/output"
)

// WriteInput creates or replaces a file whole: the write tool's
// parameters, named by their json tags (docs/tools.md).
type WriteInput struct {
	// Path is the file to write, relative to the toolset's Cwd.
	Path string `json:"path" cli:"positional" doc:"The file to create or replace (absolute, or relative to the session's working directory). Missing parent directories are made."`
	// Content is the file's whole new content.
	Content string `json:"content" doc:"The file's whole new content."`
	// ExpectedSHA256 is the hash of the file being replaced, needed when
	// this session has not read it.
	ExpectedSHA256 string `json:"expected_sha256,omitempty" doc:"SHA-256 (hex) of the file you mean to replace. Needed only to replace an existing file this session has not read; a file that no longer has this hash is not replaced."`
}

// EditOp is one replacement of an edit.
type EditOp struct {
	OldString  string `json:"old_string" doc:"The exact text to replace."`
	NewString  string `json:"new_string" doc:"The text to put in its place."`
	ReplaceAll bool   `json:"replace_all,omitempty" doc:"Replace every occurrence instead of exactly one."`
}

// EditInput replaces exact strings in a file: the edit tool's
// parameters, named by their json tags (docs/tools.md).
type EditInput struct {
	// Path is the file to edit, relative to the toolset's Cwd.
	Path string `json:"path" cli:"positional" doc:"The file to edit (absolute, or relative to the session's working directory)."`
	// OldString is the exact text to replace; with NewString and
	// ReplaceAll, the one edit of a call without Edits.
	OldString string `json:"old_string,omitempty" doc:"The exact text to replace: it must occur exactly once unless replace_all is set. Line ends (\\r\\n or \\n) and a byte order mark do not matter."`
	// NewString is the text put in its place.
	NewString string `json:"new_string,omitempty" doc:"The text to put in its place (its line ends become the file's)."`
	// ReplaceAll replaces every occurrence of OldString.
	ReplaceAll bool `json:"replace_all,omitempty" doc:"Replace every occurrence of old_string instead of exactly one."`
	// Edits are several replacements applied in order, all or none.
	Edits []EditOp `json:"edits,omitempty" doc:"Several replacements, applied in order (each to the result of those before), all or none; instead of old_string/new_string."`
}

// Validate is edit's own check: one edit (old_string, new_string,
// replace_all) or a list of them (edits), not both.
func (in EditInput) Validate() error {
	if len(in.Edits) > 0 && (in.OldString != "" || in.NewString != "" || in.ReplaceAll) {
		return errors.New("give either old_string and new_string (with replace_all) or edits, not both")
	}
	if len(in.Edits) == 0 && in.OldString == "" {
		return errors.New("old_string is empty: give the exact text to replace, or edits (to create a file or replace it whole, use write)")
	}
	return nil
}

// ApplyPatchInput is a patch in Codex's format: the apply_patch tool's
// parameter.
type ApplyPatchInput struct {
	// Input is the whole patch, *** Begin Patch to *** End Patch.
	Input string `json:"input" cli:"positional" doc:"The patch, from \x60*** Begin Patch\x60 to \x60*** End Patch\x60, with \x60*** Add File: PATH\x60 (lines starting with +), \x60*** Delete File: PATH\x60, \x60*** Update File: PATH\x60 (optionally \x60*** Move to: PATH\x60) with \x60@@\x60 chunks of context ( ), removed (-) and added (+) lines, and \x60*** End of File\x60 for a change at the end."`
}

// FileChange is what one file of a patch went through.
type FileChange struct {
	Path         string `json:"path" doc:"The file (for a move, where it was)."`
	MovedTo      string `json:"moved_to,omitempty" doc:"Where a moved file went."`
	Op           string `json:"op" doc:"create, update, delete or move."`
	Added        int64  `json:"added" doc:"Lines added."`
	Removed      int64  `json:"removed" doc:"Lines removed."`
	BytesBefore  int64  `json:"bytes_before" doc:"Size before the change (0 for a new file)."`
	BytesAfter   int64  `json:"bytes_after" doc:"Size after the change (0 for a deleted file)."`
	SHA256Before string `json:"sha256_before,omitempty" doc:"SHA-256 of the content before (none for a new file)."`
	SHA256After  string `json:"sha256_after,omitempty" doc:"SHA-256 of the content after (none for a deleted file)."`
}

// FileChangeDetails are the structured details of an edit, write or
// apply_patch result. The diff is the result's text, cut like any output.
type FileChangeDetails struct {
	// Path is the file changed (edit, write).
	Path string `json:"path,omitempty" doc:"The file changed (edit, write)."`
	// Files are the files a patch changed, in patch order.
	Files        []FileChange `json:"files,omitempty" doc:"The files a patch changed, each with op, path, added, removed, bytes_before, bytes_after and the hashes."`
	Op           string       `json:"op,omitempty" doc:"create or update (edit, write)."`
	Added        int64        `json:"added" doc:"Lines added (all files)."`
	Removed      int64        `json:"removed" doc:"Lines removed (all files)."`
	BytesBefore  int64        `json:"bytes_before" doc:"Size before the change (all files)."`
	BytesAfter   int64        `json:"bytes_after" doc:"Size after the change (all files)."`
	SHA256Before string       `json:"sha256_before,omitempty" doc:"SHA-256 of the file before (edit, write; none for a new file)."`
	SHA256After  string       `json:"sha256_after,omitempty" doc:"SHA-256 of the file after (edit, write)."`
	// Change is the journal number of the change: history shows it again
	// and undoes it.
	Change int `json:"change,omitempty" doc:"The change's number in the session's journal: \x60history\x60 with \x60change\x60 shows it again, with \x60undo\x60 undoes it while the file still holds what it wrote."`
	// Notes say what could not be kept (an owner, an attribute).
	Notes []string `json:"notes,omitempty" doc:"What could not be kept (an owner, an extended attribute), or how the file was written."`
	// Truncation says what was left out of the diff.
	Truncation output.Truncation `json:"truncation" doc:"What was left out of the diff. truncated is true when anything was."`
	// FullOutputPath is the spill file that holds the whole diff.
	FullOutputPath string `json:"full_output_path,omitempty" doc:"File holding the whole diff, when it was cut."`
	// Next holds the read of the rest of the diff.
	Next []output.Call `json:"next,omitempty" doc:"The calls that show what was left out of the diff."`
	// Tokens estimates the tokens of the result's text.
	Tokens int `json:"tokens" doc:"Estimated tokens of the result's text as the model reads it (docs/tokens.md)."`
}

// A FileChangeRecord is one file change of the session's journal, as the
// history listing shows it.
type FileChangeRecord struct {
	Change int       `json:"change" doc:"The change's number: history change and undo take it."`
	Tool   string    `json:"tool" doc:"edit, write, apply_patch or undo."`
	At     time.Time `json:"at"`
	Paths  []string  `json:"paths" doc:"The files it changed."`
}
