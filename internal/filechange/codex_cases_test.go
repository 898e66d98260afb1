package filechange

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A Codex scenario (codex-rs/apply-patch/tests/fixtures/scenarios, ported
// as data in testdata/codex: patch.txt, input/, expected/) and how
// spillway's result compares with Codex's expected one.
type codexCase struct {
	name string
	// differs, when set, is the documented difference (a passage of
	// docs/tools.md), and want is the tree spillway leaves instead:
	// "input" for the input unchanged.
	differs string
	want    string
}

// CodexCases lists every scenario; TestCodexScenarios fails on one whose
// result is neither Codex's nor the documented one.
var CodexCases = []codexCase{
	{name: "001_add_file"},
	{name: "002_multiple_operations"},
	{name: "003_multiple_chunks"},
	{name: "004_move_to_new_directory"},
	{name: "005_rejects_empty_patch"},
	{name: "006_rejects_missing_context"},
	{name: "007_rejects_missing_file_delete"},
	{name: "008_rejects_empty_update_hunk"},
	{name: "009_requires_existing_file_for_update"},
	{name: "010_move_overwrites_existing_destination", want: "input",
		differs: "A `*** Move to:` onto an existing file the session has not read is refused"},
	{name: "011_add_overwrites_existing_file", want: "input",
		differs: "An `*** Add File:` over an existing file the session has not read is refused"},
	{name: "012_delete_directory_fails"},
	{name: "013_rejects_invalid_hunk_header"},
	{name: "014_update_file_appends_trailing_newline", want: "first line\nsecond line",
		differs: "A file without a final newline keeps it absent after a patch"},
	{name: "015_failure_after_partial_success_leaves_changes", want: "input",
		differs: "A patch changes all its files or none"},
	{name: "016_pure_addition_update_chunk"},
	{name: "017_whitespace_padded_hunk_header"},
	{name: "018_whitespace_padded_patch_markers"},
	{name: "019_unicode_simple"},
	{name: "020_delete_file_success"},
	{name: "020_whitespace_padded_patch_marker_lines"},
	{name: "021_update_file_deletion_only"},
	{name: "022_update_file_end_of_file_marker"},
}

// snapshot maps the files of a tree to their content.
func snapshot(t *testing.T, root string) map[string]string {
	t.Helper()
	m := map[string]string{}
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		m[rel] = string(b)
		return nil
	})
	return m
}

func copyTree(t *testing.T, from, to string) {
	t.Helper()
	filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(from, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		b, _ := os.ReadFile(p)
		return os.WriteFile(filepath.Join(to, rel), b, 0o644)
	})
}

func equal(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// RunCodexCase applies a scenario's patch in a copy of its input and
// returns spillway's tree and Codex's expected one.
func RunCodexCase(t *testing.T, name string) (got, codex, input map[string]string, err error) {
	dir := filepath.Join("testdata/codex", name)
	work := t.TempDir()
	copyTree(t, filepath.Join(dir, "input"), work)
	patch, rerr := os.ReadFile(filepath.Join(dir, "patch.txt"))
	if rerr != nil {
		t.Fatal(rerr)
	}
	s := New(Config{Cwd: work})
	_, err = s.ApplyPatch(context.Background(), string(patch), &bytes.Buffer{})
	return snapshot(t, work), snapshot(t, filepath.Join(dir, "expected")), snapshot(t, filepath.Join(dir, "input")), err
}

func TestCodexScenarios(t *testing.T) {
	ents, _ := os.ReadDir("testdata/codex")
	if len(ents) != len(CodexCases) {
		t.Fatalf("%d scenarios in testdata, %d in the table", len(ents), len(CodexCases))
	}
	same, documented := 0, 0
	for _, c := range CodexCases {
		t.Run(c.name, func(t *testing.T) {
			got, codex, input, err := RunCodexCase(t, c.name)
			if c.differs == "" {
				if !equal(got, codex) {
					t.Errorf("got %q, Codex's expected %q (err %v)", got, codex, err)
				}
				same++
				return
			}
			want := input
			if c.want != "input" {
				want = map[string]string{}
				for k := range codex {
					want[k] = c.want
				}
			}
			if !equal(got, want) {
				t.Errorf("got %q, the documented %q (err %v)", got, want, err)
			}
			if equal(got, codex) {
				t.Errorf("documented as different, yet the same as Codex")
			}
			documented++
		})
	}
	totals := fmt.Sprintf("%d cases, %d same, %d documented differences, 0 undocumented", len(CodexCases), same, documented)
	t.Logf("Codex scenarios: %s", totals)
	doc, err := os.ReadFile("../../docs/tools.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), "run through spillway: "+totals) {
		t.Errorf("docs/tools.md does not say %q", totals)
	}
	for _, c := range CodexCases {
		if c.differs != "" && !strings.Contains(string(doc), c.differs) {
			t.Errorf("%s: docs/tools.md lacks %q", c.name, c.differs)
		}
	}
}
