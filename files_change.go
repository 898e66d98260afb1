package spillway

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/spillway-dev/spillway/internal/codexpatch"
	"github.com/spillway-dev/spillway/internal/confine"
	"github.com/spillway-dev/spillway/internal/filechange"
	"github.com/spillway-dev/spillway/internal/registry"
	"github.com/spillway-dev/spillway/internal/render"
	"github.com/spillway-dev/spillway/internal/safewrite"
	"github.com/spillway-dev/spillway/internal/spill"
	"github.com/spillway-dev/spillway/internal/textedit"
	"github.com/spillway-dev/spillway/output"
	"github.com/spillway-dev/spillway/tool"
)

// WriteInput, EditInput and ApplyPatchInput are the inputs of the write,
// edit and apply_patch tools (package tool); FileChangeDetails their
// details.
type (
	WriteInput        = tool.WriteInput
	EditInput         = tool.EditInput
	ApplyPatchInput   = tool.ApplyPatchInput
	FileChangeDetails = tool.FileChangeDetails
)

// fileTools is what a Toolset keeps for edit, write and apply_patch: the
// engine's session, the directories they may write in, and the hashes of
// the files read, so that a read is only hashed again when the file
// changed.
type fileTools struct {
	changes *filechange.Session
	root    *confine.Root // nil: no root
	tmp     string        // the sandbox's private temp directory ("" without)

	mu     sync.Mutex
	hashed map[string]fileStamp
}

type fileStamp struct {
	size, mtime, ino, ctime int64
	sum                     string
}

// newFileTools readies the file tools of t: they write under root (nil:
// anywhere) and in tmp (the sandboxed commands' temp), never in a spill
// directory.
func (t *Toolset) newFileTools(root *confine.Root, tmp string) {
	ft := &fileTools{root: root, tmp: tmp, hashed: map[string]fileStamp{}}
	if root != nil && tmp != "" {
		ft.root = root.With(func() (string, fs.FileInfo) {
			fi, err := os.Lstat(tmp)
			if err != nil {
				return "", nil
			}
			return tmp, fi
		})
	}
	ft.changes = filechange.New(filechange.Config{
		Cwd:     t.cwd,
		Resolve: func(p string) (filechange.Location, error) { return t.changeLocation(p) },
		Journal: func(name string) (io.WriteCloser, string, error) {
			f, err := t.spill.Create(name)
			if err != nil {
				return nil, "", err
			}
			return f, f.Path(), nil
		},
	})
	t.fileTools = ft
}

// changeLocation finds where a file tool may write path: under the root
// or the sandbox's temp, never in a spill directory.
func (t *Toolset) changeLocation(p string) (filechange.Location, error) {
	ft := t.fileTools
	abs := p
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(t.cwd, abs)
	}
	var real string
	if ft.root != nil {
		r, err := ft.root.Resolve("", abs)
		if err != nil {
			return filechange.Location{}, err
		}
		real = r
	} else {
		r, err := realPath(abs)
		if err != nil {
			return filechange.Location{}, err
		}
		real = r
	}
	inTmp := ft.tmp != "" && within(real, ft.tmp)
	for _, s := range []*spill.Store{t.spill, t.scratch} {
		if s != nil && s.Owns(real) && !inTmp {
			return filechange.Location{}, fmt.Errorf("%s is in the session's spill directory, which holds spillway's own output: the file tools do not write there", p)
		}
	}
	base := "/"
	switch {
	case inTmp:
		base = ft.tmp
	case ft.root != nil:
		base = ft.root.Dir()
	}
	rel, err := filepath.Rel(base, real)
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return filechange.Location{}, fmt.Errorf("%s resolves outside %s", p, base)
	}
	return filechange.Location{Base: base, Rel: rel}, nil
}

// within reports whether path is dir or lies under it.
func within(path, dir string) bool {
	return path == dir || strings.HasPrefix(path, strings.TrimSuffix(dir, "/")+"/")
}

// realPath follows the symlinks of the part of p that exists.
func realPath(p string) (string, error) {
	r, err := filepath.EvalSymlinks(p)
	if err == nil {
		return r, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	dir, base := filepath.Split(filepath.Clean(p))
	if dir == "/" || dir == "" {
		return filepath.Clean(p), nil
	}
	d, err := realPath(filepath.Clean(dir))
	if err != nil {
		return "", err
	}
	return filepath.Join(d, base), nil
}

// noteRead records that the session saw the file at path (a read of any
// part of it), by the hash of its content: edit, write and apply_patch
// then refuse to overwrite it if it changes. The hash is computed again
// only when the file's size, times or inode changed. It returns a
// notice when the file's last in-place write was interrupted (its
// sidecar is beside it): what was read may be a mix of new and old.
func (t *Toolset) noteRead(path string) (notice string) {
	ft := t.fileTools
	if ft == nil {
		return ""
	}
	loc, err := t.changeLocation(path)
	if err != nil {
		return ""
	}
	real := loc.Real()
	f, err := os.Open(real)
	if err != nil {
		return ""
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return ""
	}
	if linkCount(real) > 1 {
		if side, ok := safewrite.Sidecar(fi); ok {
			side = filepath.Join(filepath.Dir(real), side)
			if _, err := os.Lstat(side + ".json"); err == nil {
				notice = "[an in-place write of this file (it has hard links) was interrupted: what it holds may be part of the new content over the old. Its old content is whole in " + side + ".old; edit, write and apply_patch say what to do]"
			}
		}
	}
	st := fileStamp{size: fi.Size(), mtime: fi.ModTime().UnixNano()}
	st.ino, st.ctime = inodeAndCtime(fi)
	ft.mu.Lock()
	old, ok := ft.hashed[real]
	ft.mu.Unlock()
	if ok && old.size == st.size && old.mtime == st.mtime && old.ino == st.ino && old.ctime == st.ctime {
		ft.changes.Saw(real, old.sum, st.size)
		return notice
	}
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return notice
	}
	st.sum = hex.EncodeToString(h.Sum(nil))
	ft.mu.Lock()
	ft.hashed[real] = st
	ft.mu.Unlock()
	ft.changes.Saw(real, st.sum, st.size)
	return notice
}

// diffPipeline is the output pipeline a change's diff goes through: cut
// by the read policy's limits, spilled whole when cut.
func (t *Toolset) diffPipeline(toolName string) *output.Pipeline {
	lim := output.Limits{Strategy: output.Head, MaxLines: t.policy.Read.MaxLines, MaxBytes: t.policy.Read.MaxBytes, MaxLineChars: t.policy.Read.MaxLineChars, MaxTokens: t.policy.Read.MaxTokens}
	return output.New(output.Options{Limits: lim, Spill: t.spill.Opener(toolName, t.spill.NextSeq(), "diff")})
}

// changeText renders a change: a summary line, the diff (cut and
// spilled like any output) and notes; it fills d's truncation fields and
// returns the text and the diff shown.
func (t *Toolset) changeText(p *output.Pipeline, summary string, d *tool.FileChangeDetails) (string, string) {
	p.Close()
	res := p.Result()
	d.Truncation = res.Truncation
	d.FullOutputPath = res.FullOutputPath
	var b strings.Builder
	b.WriteString(summary)
	b.WriteByte('\n')
	text := res.Text()
	if text != "" {
		b.WriteString(text)
		if !strings.HasSuffix(text, "\n") {
			b.WriteByte('\n')
		}
	}
	if n := res.Notice("diff"); n != "" {
		b.WriteString(n + "\n")
	}
	for _, n := range d.Notes {
		b.WriteString("[" + n + "]\n")
	}
	return strings.TrimRight(b.String(), "\n"), text
}

// changeResult is the result of a change (changeText).
func (t *Toolset) changeResult(p *output.Pipeline, summary string, d tool.FileChangeDetails) Result[tool.FileChangeDetails] {
	text, diff := t.changeText(p, summary, &d)
	out := Result[tool.FileChangeDetails]{Details: d}
	out.Text = t.finish(text, &out.Details.Tokens, func() any { return out.Details }, render.Field{Name: "diff", Value: diff})
	return out
}

// Edit replaces exact strings in a file: old_string must occur exactly
// once unless replace_all is set, or edits gives several replacements,
// applied in order, all or none. The result is the diff.
func (t *Toolset) Edit(ctx context.Context, in tool.EditInput) (Result[tool.FileChangeDetails], error) {
	if err := check("edit", &in); err != nil {
		return Result[tool.FileChangeDetails]{}, err
	}
	if err := t.open(); err != nil {
		return Result[tool.FileChangeDetails]{}, err
	}
	var edits []textedit.Edit
	switch {
	case len(in.Edits) > 0:
		for _, e := range in.Edits {
			edits = append(edits, textedit.Edit(e))
		}
	default:
		edits = []textedit.Edit{{OldString: in.OldString, NewString: in.NewString, ReplaceAll: in.ReplaceAll}}
	}
	if r := t.decideFiles(ctx, "edit", []fileAccess{{path: in.Path, kind: "Edit"}}); r != nil {
		return *r, nil
	}
	p := t.diffPipeline("edit")
	ch, err := t.fileTools.changes.Edit(ctx, in.Path, edits, p)
	if err != nil {
		p.Close()
		return Result[tool.FileChangeDetails]{}, clipError(err, in.Path)
	}
	n := 0
	for _, e := range edits {
		if e.ReplaceAll {
			n = -1
		}
	}
	what := "Successfully replaced 1 occurrence"
	switch {
	case n < 0 || len(edits) > 1:
		what = fmt.Sprintf("Successfully applied %s", plural2(len(edits), "edit", "edits"))
	}
	summary := fmt.Sprintf("%s in %s (%s, %s).", what, in.Path, plural2(int(ch.Added), "line added", "lines added"), plural2(int(ch.Removed), "line removed", "lines removed"))
	return t.changeResult(p, summary, oneFile(ch)), nil
}

// Write creates a file or replaces it whole. Replacing an existing file
// the session has not read needs expected_sha256; a file the session saw
// that changed since is not replaced.
func (t *Toolset) Write(ctx context.Context, in tool.WriteInput) (Result[tool.FileChangeDetails], error) {
	if err := check("write", &in); err != nil {
		return Result[tool.FileChangeDetails]{}, err
	}
	if err := t.open(); err != nil {
		return Result[tool.FileChangeDetails]{}, err
	}
	if r := t.decideFiles(ctx, "write", []fileAccess{{path: in.Path, kind: "Write"}}); r != nil {
		return *r, nil
	}
	p := t.diffPipeline("write")
	ch, err := t.fileTools.changes.Write(ctx, in.Path, in.Content, in.ExpectedSHA256, p)
	if err != nil {
		p.Close()
		return Result[tool.FileChangeDetails]{}, clipError(err, in.Path)
	}
	what := "replaced"
	if ch.Op == "create" {
		what = "a new file"
	}
	summary := fmt.Sprintf("Successfully wrote %s to %s (%s: %s, %s).", output.FormatSize(ch.BytesAfter), in.Path, what, plural2(int(ch.Added), "line added", "lines added"), plural2(int(ch.Removed), "line removed", "lines removed"))
	return t.changeResult(p, summary, oneFile(ch)), nil
}

// ApplyPatch applies a patch in Codex's format to the files it names,
// all of them or none.
func (t *Toolset) ApplyPatch(ctx context.Context, in tool.ApplyPatchInput) (Result[tool.FileChangeDetails], error) {
	if err := check("apply_patch", &in); err != nil {
		return Result[tool.FileChangeDetails]{}, err
	}
	if err := t.open(); err != nil {
		return Result[tool.FileChangeDetails]{}, err
	}
	acc, err := patchAccesses(in.Input)
	if err != nil {
		return Result[tool.FileChangeDetails]{}, err
	}
	if r := t.decideFiles(ctx, "apply_patch", acc); r != nil {
		return *r, nil
	}
	p := t.diffPipeline("apply_patch")
	chs, err := t.fileTools.changes.ApplyPatch(ctx, in.Input, p)
	if err != nil {
		p.Close()
		return Result[tool.FileChangeDetails]{}, clipError(err)
	}
	d := tool.FileChangeDetails{}
	for _, ch := range chs {
		d.Files = append(d.Files, ch.FileChange)
		d.Added += ch.Added
		d.Removed += ch.Removed
		d.BytesBefore += ch.BytesBefore
		d.BytesAfter += ch.BytesAfter
		d.Change = ch.Journal
		d.Notes = append(d.Notes, ch.Notes...)
	}
	return t.changeResult(p, patchSummary(chs), d), nil
}

func oneFile(ch filechange.Change) tool.FileChangeDetails {
	return tool.FileChangeDetails{Path: ch.Path, Op: ch.Op, Added: ch.Added, Removed: ch.Removed, BytesBefore: ch.BytesBefore, BytesAfter: ch.BytesAfter,
		SHA256Before: ch.SHA256Before, SHA256After: ch.SHA256After, Change: ch.Journal, Notes: ch.Notes}
}

func plural2(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// The file tools' declarations: their parameters are the fields of their
// inputs (package tool), by their json tags.
var (
	editEntry = entry{Tool: registry.Tool{
		Name:     "edit",
		Title:    "Edit a file",
		Describe: describe(describeEdit),
		CLI: registry.CLI{
			Example: `  spillway edit main.go --old-string 'count := 0' --new-string 'count := 1'`,
		},
		Notes: fileToolsNotes + piTable,
	}, run: handle((*Toolset).Edit)}
	writeEntry = entry{Tool: registry.Tool{
		Name:     "write",
		Title:    "Write a file",
		Describe: describe(describeWrite),
		CLI: registry.CLI{
			Example: `  spillway write notes.txt --content 'first line'
  sum=$(sha256sum notes.txt | cut -d' ' -f1)
  spillway write notes.txt --content 'again' --expected-sha256 "$sum"`,
		},
	}, run: handle((*Toolset).Write)}
	applyPatchEntry = entry{Tool: registry.Tool{
		Name:     "apply_patch",
		Title:    "Apply a patch",
		Describe: describe(describeApplyPatch),
		CLI: registry.CLI{
			Long: `apply_patch applies INPUT, a patch in the format below, to the files it
names, all of them or none, and prints the diff of what it changed. Give
the patch as INPUT, or as - to read it from stdin (a file, a pipe or a
here-document); with no INPUT, a patch piped in is read as well.`,
			Example: `  spillway apply_patch - < change.patch
  spillway apply_patch "$(cat change.patch)"
  spillway apply_patch <<'EOF'
  *** Begin Patch
  *** Add File: hello.txt
  +hello
  *** End Patch
  EOF`,
			StdinArg: "the patch",
		},
		Notes: codexTable + clientsTranscript,
	}, run: handle((*Toolset).ApplyPatch)}
)

// fileChangeCommon is what the three file tools share, for a model.
func fileChangeCommon(p Policy) string {
	return fmt.Sprintf("The result is a unified diff of the change with line numbers (at most %d lines or %s; the whole diff is saved to a file the notice names). "+
		"A file this session has read or written that changed since (by content) is not overwritten: read it again first. "+
		"Line endings (CRLF stays CRLF), a UTF-8 byte order mark, a missing final newline, the file's mode and symlinks are kept; the write is atomic (a file with several hard links is written in place, its old content kept beside it until the write ends). "+
		"`history` with `change: N` (the result's `change`) shows a change again, with `undo: N` undoes it while the file still holds what it wrote.",
		p.Read.MaxLines, size(p.Read.MaxBytes))
}

func describeEdit(p Policy) string {
	return "Replace exact text in a file. `old_string` must occur exactly once (give enough surrounding lines to make it unique) unless `replace_all` is set; " +
		"`edits` applies several replacements in order, all or none. Matching is exact (whitespace included) except that `\\r\\n` and `\\n` are the same and a byte order mark is ignored. " +
		"When `old_string` is missing or ambiguous nothing changes and the error gives the line numbers of the matches or the closest lines of the file to copy from. " +
		"No earlier `read` is needed. " + fileChangeCommon(p)
}

func describeWrite(p Policy) string {
	return "Create a file, or replace one whole, with `content`; missing parent directories are made. " +
		"To replace an existing file, `read` it first in this session, or give its SHA-256 as `expected_sha256`. Prefer `edit` to change part of a file. " +
		fileChangeCommon(p)
}

func describeApplyPatch(p Policy) string {
	return "Apply a patch in Codex's apply_patch format to one or more files, all of them or none. " +
		"`input` is:\n*** Begin Patch\n*** Update File: path/to/file\n@@ optional line the change follows (a def or class)\n context line\n-removed line\n+added line\n*** Add File: new/file\n+its lines\n*** Delete File: old/file\n*** End Patch\n" +
		"`*** Move to: PATH` after `*** Update File:` renames the file; `*** End of File` ends a change that must match the end of the file. Give 3 lines of context around each change. " +
		"Context and removed lines are matched exactly, else ignoring surrounding whitespace or typographic quotes and dashes; kept lines stay as they are in the file. " +
		fileChangeCommon(p)
}

// fileChanges lists the journal's entries.
func (t *Toolset) fileChanges() []tool.FileChangeRecord {
	if t.fileTools == nil {
		return nil
	}
	var out []tool.FileChangeRecord
	for _, e := range t.fileTools.changes.Journal() {
		r := tool.FileChangeRecord{Change: e.ID, Tool: e.Tool, At: e.At}
		for _, f := range e.Files {
			r.Paths = append(r.Paths, f.Display)
		}
		out = append(out, r)
	}
	return out
}

// changesText is the history listing's part for the file changes.
func changesText(cs []tool.FileChangeRecord) string {
	if len(cs) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\nfile changes (history change: N shows one again, undo: N undoes it):\n")
	for _, c := range cs {
		fmt.Fprintf(&b, "    change %d %s %s %s\n", c.Change, c.At.Format("15:04:05"), c.Tool, strings.Join(c.Paths, ", "))
	}
	return b.String()
}

// historyChange shows a file change again, or undoes it.
func (t *Toolset) historyChange(ctx context.Context, in HistoryInput) (Result[HistoryDetails], error) {
	ch := t.fileTools.changes
	p := t.diffPipeline("history")
	var summary string
	if in.Change != 0 {
		if err := ch.Show(in.Change, p); err != nil {
			p.Close()
			return Result[HistoryDetails]{}, toolError("history", err)
		}
		summary = fmt.Sprintf("Change %d:", in.Change)
	} else {
		var acc []fileAccess
		for _, e := range ch.Journal() {
			if e.ID == in.Undo {
				for _, f := range e.Files {
					acc = append(acc, fileAccess{path: f.Real, kind: "Write"})
				}
			}
		}
		if r := t.decideFiles(ctx, "history", acc); r != nil {
			p.Close()
			return Result[HistoryDetails]{Text: r.Text, IsError: true}, nil
		}
		chs, err := ch.Undo(ctx, in.Undo, p)
		if err != nil {
			p.Close()
			return Result[HistoryDetails]{}, toolError("history", err)
		}
		var paths []string
		for _, c := range chs {
			paths = append(paths, c.Path)
		}
		summary = fmt.Sprintf("Undid change %d (%s); the undo is change %d.", in.Undo, strings.Join(paths, ", "), chs[0].Journal)
	}
	var fd tool.FileChangeDetails
	text, diff := t.changeText(p, summary, &fd)
	d := HistoryDetails{}
	return Result[HistoryDetails]{Text: t.finish(text, &d.Tokens, func() any { return d }, render.Field{Name: "diff", Value: diff}), Details: d}, nil
}

// What edit, write and apply_patch promise, for docs/tools.md.
const fileToolsNotes = `How edit, write and apply_patch change a file (all three):

- **Where.** Relative paths start at the working directory. Under ` + "`--root`" + ` only paths that resolve under the root are written (a symlink out of it, or a
  directory swapped for one during the write, cannot lead out: the file is written through a handle of its directory, ` + "`os.Root`" + `); under ` + "`--sandbox`" + `
  also the session's private temp directory, where sandboxed commands may write, and never a spill directory (without ` + "`--root`" + `, anywhere but a spill directory).
- **Nothing lost.** The new content goes to a temporary file in the same directory, which is synced and renamed over the old one, and the directory is synced:
  ` + "`kill -9`" + ` or a full disk at any moment leaves the old file or the new one, whole (a temporary file ` + "`.spillway-write-NAME.*`" + ` may be left). The mode, the owner
  (when the server may chown; else a note says so), and on Linux the extended attributes, POSIX ACLs (system.posix_acl_*) among them, are carried over; other systems
  keep no extended attributes. A symlink's target is changed and the link stays. A file with other hard links is (without ` + "`--root`" + `, once asked) written in place so that every link sees the change,
  and nothing is lost there either: the new content is synced in the temporary file first, the old content is copied whole to a sidecar beside the file
  (` + "`.spillway-inplace-DEV-INO.old`" + `, mode 0600, synced, with its record ` + "`.spillway-inplace-DEV-INO.json`" + `: the file's device and inode, where the new content is)
  and the new size is allocated (fallocate, on Linux) before a byte is overwritten, so a full disk fails first; the sidecar is removed once the file is synced. A
  ` + "`kill -9`" + ` during the copy leaves a mix of new and old bytes in the file, the old content whole in the sidecar and the new whole in the temporary file: the next
  edit, write or apply_patch of that file (through any of its names in that directory) finds the sidecar by the file's identity, hashes the three, and if the file
  holds neither whole refuses with a message that names both copies and the two ways on — put the old content back (` + "`cp SIDECAR FILE`" + `, which keeps the links),
  after which the next change removes the leftovers with a note, or ` + "`write`" + ` the file with ` + "`expected_sha256`" + ` of what it holds now, which replaces it and keeps the
  old content in a file of its own (` + "`….old-kept-TIME`" + `) that the result names. A file that holds the old or the new content whole is changed as usual, the leftovers
  removed with a note; read of the file adds a line that says the last write was interrupted and names the sidecar. The sidecar costs a copy of the old content
  (figures in docs/performance.md).
- **Text.** A UTF-8 byte order mark, the line ends (new lines take the file's dominant one, CRLF or LF; a tie is LF) and a missing final newline are kept; lines a
  change does not touch are never rewritten. A file that is not UTF-8 (Latin-1, say) is edited byte for byte: only the matched bytes change. A file with NUL bytes in
  its first 8 KiB is binary: edit and apply_patch refuse it; write may replace it. write keeps the old file's BOM and CRLF line ends; the final newline is what
  content says.
- **Never blind.** A file the session has read (any part of it) or written and that changed since, by SHA-256 of its content (not its mtime), is not overwritten:
  the error gives both hashes, sizes and times, and says to read it again. edit and apply_patch need no earlier read (their match is the check); write over an
  existing file the session has not read needs ` + "`expected_sha256`" + `.
- **Rules.** ` + "`Read(…)`, `Edit(…)` and `Write(…)`" + ` entries in spillway's ` + "`[rules]`" + ` allow, ask and deny lists and in Claude Code's settings (imported) decide the calls, in
  Claude Code's path forms (` + "`//abs`, `~/home`, `/from-the-project`, `./rel` or `rel`, a name without / at any depth" + `); an Edit rule decides every change, a Write
  rule the whole-file writes (write, an added file, a move's destination); a patch takes the strictest decision of its files; a file no rule matches gets
  ` + "`[rules] file_default`" + ` (allow unless set). A ` + "`*** Delete File:`" + ` is also decided by the command rules as ` + "`rm FILE`" + ` (the file's absolute path) would be, and
  takes the stricter decision: ` + "`deny rm *`" + `, ` + "`ask rm *`" + ` and a ` + "`[rules] default`" + ` of ask with no rule allowing ` + "`rm`" + ` hold it as they hold bash's rm. With no
  rule against it, a delete of a file the session has not read is allowed, as rm would allow it and as Codex's apply_patch deletes (its content stays in the
  journal, for ` + "`history`" + ` undo). A change to a file that loads code (the code-loading list bash's writes are held to: ` + "`.git/**`" + `, a ` + "`.git`" + ` file,
  ` + "`.gitmodules`" + `, git's, the shell's, editors' and python's start-up files, ` + "`/etc`" + `'s, spillway's and the agents' rule, settings and state files, managed
  settings, a file in a PATH directory; see docs/rules.md) is asked whatever the rules say, a delete or a move onto or off one too. So is a change to a regular file with more than one name (a hard link,
  ` + "`st_nlink > 1`" + `): the rules and the protected list are keyed by path, and the file's other names are not known (` + "`hcfg`" + ` may be ` + "`.git/config`" + ` under another
  name); the question names the link count. Under ` + "`--root`" + ` such a file is not changed at all — a divergence from "a hard-linked file is written in place":
  the change would reach every name, and another name may be outside the root (pnpm and uv install packages as hard links to their stores), which spillway cannot
  rule out cheaply (it would take a walk of every place the file system is mounted, stale at once). The refusal says so and how to change this name alone: make it
  a copy of its own (` + "`cp -p F F.copy && mv F.copy F`" + `), which the file tools then change. ` + "`read`" + ` of such a file is allowed (docs/reliability.md says why).
  ` + "`Read(…)`" + ` entries decide read: a deny entry's files are also hidden from grep, find and ls, as in Claude Code (a directory the entry covers is not
  listed at all; each result counts what it kept out, ` + "`hidden`" + `, and a notice names the rules), and an ask entry makes read ask and keeps the file's contents
  out of grep. A regular file with more than one name (a hard link) is held by a Read entry that holds any of its names: spillway compares its identity
  (device, inode) with the files the deny and ask entries' patterns match (a glob, so ` + "`**`" + ` walks the tree once, only when such a file is met, again when the
  set is more than two seconds old), so ` + "`envhl`" + `, a hard link to ` + "`.env`" + `, is ` + "`.env`" + ` to ` + "`Read(./.env)`" + `. A read no Read entry matches is allowed whatever ` + "`file_default`" + ` says. A project's allow entries count once the person trusts the project; until
  then a decision they would have allowed names the entry and how to trust it.
- **Big files.** A file over 32 MiB is edited (one edit a call) by streaming it through the temporary file: memory stays a few MiB, and the diff is read around
  the change. bench/edit.sh times it beside ` + "`sed -i`" + ` (docs/performance.md). apply_patch holds every file it touches in memory, so that it checks each hunk before writing
  any file and can give all back: a patch that touches a file over 32 MiB (to update, delete, move onto or add over it) is refused whole, nothing changed, and the
  error gives the file's size and what to use instead (edit, one change a call; bash's rm or mv).
- **Journal and undo.** Each change's replaced content is kept in the session's spill directory (counted against the spill budget, oldest first): ` + "`history`" + `
  lists the changes, ` + "`history`" + ` with ` + "`change: N`" + ` shows change N's diff again, and with ` + "`undo: N`" + ` puts back what it replaced while its files still hold what it wrote.
- **Audit.** Every call is in the audit log with its path and, for a change, the hashes before and after.
`

// pi's edit and write tests through spillway (files_peer_test.go).
const piTable = `
pi's own edit and write tests (pi-mono, packages/coding-agent/test/tools.test.ts) run through spillway: 21 cases, 13 same, 8 documented differences, 0 undocumented.
The differences:

- spillway's results always have details (the path, the counts, the hashes), and the diff is the result's text rather than a details field (2 cases).
- old_string is matched exactly: unlike pi's edit, no fuzzy pass reads trailing whitespace, typographic quotes, dashes or non-breaking spaces as their ASCII look-alikes (5 cases); the error shows the closest lines instead.
- A lone ` + "`\\r`" + ` is not a line end: in a file of classic Mac line ends ` + "`second\\n`" + ` is not found (pi reads every ` + "`\\r`" + ` as ` + "`\\n`" + ` and writes the file back with ` + "`\\n`" + `) (1 case).
`

// Codex's apply-patch scenarios through spillway
// (internal/filechange/codex_cases_test.go).
const codexTable = `Codex's own apply-patch scenarios (codex-rs/apply-patch/tests/fixtures/scenarios, ported as data to internal/filechange/testdata/codex) run through spillway: 23 cases, 19 same, 4 documented differences, 0 undocumented.
The differences:

- A ` + "`*** Move to:`" + ` onto an existing file the session has not read is refused, as write over it would be (Codex overwrites it).
- An ` + "`*** Add File:`" + ` over an existing file the session has not read is refused (Codex overwrites it).
- A file without a final newline keeps it absent after a patch (Codex adds one).
- A patch changes all its files or none: a failure part way puts back what was written (Codex leaves the files it changed before the failing hunk).

Beyond the scenarios: kept (context) lines stay as the file has them when they matched leniently (Codex writes the patch's copy), and a chunk of only added lines
after ` + "`@@ LINE`" + ` goes after that line (Codex appends it to the end of the file). Parsing forgives what Codex forgives: whitespace around markers, a missing first
` + "`@@`" + `, CRLF, a heredoc wrapper. bash recognises a Codex ` + "`apply_patch <<'EOF'`" + ` call (alone, or after ` + "`cd DIR &&`" + `) and applies it with this tool.
`

// codexPatchCall runs a bash call that is Codex's apply_patch heredoc
// (`apply_patch <<'EOF' … EOF`, alone or after `cd DIR &&`), as codex-rs
// recognizes one, through apply_patch: there is no apply_patch program,
// and the change goes through the file tools' confinement, rules and
// journal. The result reads like a command's: the summary and diff on
// stdout and exit 0, or the error on stderr and exit 1. A patch given to
// the shell bare is refused as Codex refuses it.
func (t *Toolset) codexPatchCall(ctx context.Context, in BashInput) (Result[BashDetails], bool) {
	if len(in.Args) > 0 || in.TTY || in.Stdin || in.RunInBackground || in.DiffWith != "" || t.fileTools == nil {
		return Result[BashDetails]{}, false
	}
	call, ok := codexpatch.ParseCall(in.Command)
	if !ok {
		if codexpatch.IsBarePatch(in.Command) {
			return commandLike("", "patch detected without a call to apply_patch: call the apply_patch tool with it as input (or run apply_patch <<'EOF' … EOF)", 1), true
		}
		return Result[BashDetails]{}, false
	}
	dir := in.Cwd
	if dir == "" {
		dir = t.cwd
	} else if !filepath.IsAbs(dir) {
		dir = filepath.Join(t.cwd, dir)
	}
	if call.Dir != "" {
		if filepath.IsAbs(call.Dir) {
			dir = call.Dir
		} else {
			dir = filepath.Join(dir, call.Dir)
		}
	}
	acc, err := patchAccesses(call.Patch)
	if err != nil {
		return commandLike("", err.Error(), 1), true
	}
	for i := range acc {
		if !filepath.IsAbs(acc[i].path) {
			acc[i].path = filepath.Join(dir, acc[i].path)
		}
	}
	if r := t.decideFiles(ctx, "apply_patch", acc); r != nil {
		return commandLike("", r.Text, 1), true
	}
	p := t.diffPipeline("apply_patch")
	chs, err := t.fileTools.changes.ApplyPatchIn(ctx, dir, call.Patch, p)
	if err != nil {
		p.Close()
		return commandLike("", err.Error(), 1), true
	}
	text, _ := t.changeText(p, patchSummary(chs), &tool.FileChangeDetails{})
	return commandLike(text, "", 0), true
}

// commandLike is the result of a bash call answered without running a
// command, as a command's result reads.
func commandLike(stdout, stderr string, code int) Result[BashDetails] {
	var b strings.Builder
	if stdout != "" {
		b.WriteString("stdout:\n" + stdout + "\n")
	}
	if stderr != "" {
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		b.WriteString("stderr:\n" + stderr + "\n")
	}
	fmt.Fprintf(&b, "\nexit code: %d", code)
	return Result[BashDetails]{Text: strings.TrimLeft(b.String(), "\n"), Content: stdout, IsError: code != 0, Details: BashDetails{ExitCode: &code}}
}

// patchSummary is apply_patch's first lines, as Codex prints them.
func patchSummary(chs []filechange.Change) string {
	var b strings.Builder
	b.WriteString("Success. Updated the following files:")
	for _, ch := range chs {
		switch ch.Op {
		case "create":
			fmt.Fprintf(&b, "\nA %s", ch.Path)
		case "delete":
			fmt.Fprintf(&b, "\nD %s", ch.Path)
		case "move":
			fmt.Fprintf(&b, "\nM %s (moved from %s)", ch.MovedTo, ch.Path)
		default:
			fmt.Fprintf(&b, "\nM %s", ch.Path)
		}
	}
	return b.String()
}
