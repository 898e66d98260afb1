package spillway_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/spillway-dev/spillway"
	"github.com/spillway-dev/spillway/tool"
)

// pi's own tests of its edit and write tools
// (github.com/badlogic/pi-mono, packages/coding-agent/test/tools.test.ts:
// "write tool", "edit tool", "edit tool fuzzy matching" and "edit tool
// CRLF handling", in both versions of the file the index holds), run
// through spillway's edit and write. A case whose assertions do not all
// hold names the passage of docs/tools.md that says why; TestFileToolsDocTable
// holds docs/tools.md's totals to what these count.
type fileCase struct {
	test string
	doc  string // the passage of docs/tools.md, for a documented difference
	run  func(t *testing.T, ts *spillway.Toolset, dir string) []seen
}

const (
	docDetails = "spillway's results always have details (the path, the counts, the hashes), and the diff is the result's text rather than a details field"
	docExact   = "old_string is matched exactly: unlike pi's edit, no fuzzy pass reads trailing whitespace, typographic quotes, dashes or non-breaking spaces as their ASCII look-alikes"
	docLoneCR  = "A lone `\\r` is not a line end: in a file of classic Mac line ends `second\\n` is not found (pi reads every `\\r` as `\\n` and writes the file back with `\\n`)"
)

func piFileCases() []fileCase {
	ctx := context.Background()
	edit := func(ts *spillway.Toolset, path, old, new string) (string, error) {
		res, err := ts.Edit(ctx, tool.EditInput{Path: path, OldString: old, NewString: new})
		if err != nil {
			return "", err
		}
		return res.Text, nil
	}
	errText := func(err error) string {
		if err == nil {
			return ""
		}
		return err.Error()
	}
	matches := func(re string, s string) seen {
		return seen{"matches /" + re + "/", true, regexp.MustCompile(re).MatchString(s)}
	}
	content := func(t *testing.T, p string) string {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	editCase := func(name, file, old, new, want, doc string) fileCase {
		return fileCase{"edit tool CRLF handling/" + name, doc, func(t *testing.T, ts *spillway.Toolset, dir string) []seen {
			p := filepath.Join(dir, "f.txt")
			writeFile(t, p, file)
			edit(ts, p, old, new)
			return []seen{{"content", want, content(t, p)}}
		}}
	}
	fuzzy := func(name, file, old, new, wantIn, doc string) fileCase {
		return fileCase{"edit tool fuzzy matching/" + name, doc, func(t *testing.T, ts *spillway.Toolset, dir string) []seen {
			p := filepath.Join(dir, "f.txt")
			writeFile(t, p, file)
			text, _ := edit(ts, p, old, new)
			return []seen{has(text, "Successfully replaced"), {"content holds " + wantIn, true, strings.Contains(content(t, p), wantIn)}}
		}}
	}
	return []fileCase{
		{"write tool/should write file contents", docDetails, func(t *testing.T, ts *spillway.Toolset, dir string) []seen {
			p := filepath.Join(dir, "write-test.txt")
			res, err := ts.Write(ctx, tool.WriteInput{Path: p, Content: "Test content"})
			return []seen{{"no error", "", errText(err)}, has(res.Text, "Successfully wrote"), has(res.Text, p), {"details undefined", true, res.Details.Path == ""}}
		}},
		{"write tool/should create parent directories", "", func(t *testing.T, ts *spillway.Toolset, dir string) []seen {
			res, _ := ts.Write(ctx, tool.WriteInput{Path: filepath.Join(dir, "nested", "dir", "test.txt"), Content: "Nested content"})
			return []seen{has(res.Text, "Successfully wrote")}
		}},
		{"edit tool/should replace text in file", docDetails, func(t *testing.T, ts *spillway.Toolset, dir string) []seen {
			p := filepath.Join(dir, "edit-test.txt")
			writeFile(t, p, "Hello, world!")
			res, _ := ts.Edit(ctx, tool.EditInput{Path: p, OldString: "world", NewString: "testing"})
			return []seen{has(res.Text, "Successfully replaced"), {"details.diff holds testing", true, false}}
		}},
		{"edit tool/should fail if text not found", "", func(t *testing.T, ts *spillway.Toolset, dir string) []seen {
			p := filepath.Join(dir, "edit-test.txt")
			writeFile(t, p, "Hello, world!")
			_, err := edit(ts, p, "nonexistent", "testing")
			return []seen{matches(`Could not find the exact text`, errText(err))}
		}},
		{"edit tool/should fail if text appears multiple times", "", func(t *testing.T, ts *spillway.Toolset, dir string) []seen {
			p := filepath.Join(dir, "edit-test.txt")
			writeFile(t, p, "foo foo foo")
			_, err := edit(ts, p, "foo", "bar")
			return []seen{matches(`Found 3 occurrences`, errText(err))}
		}},
		{"edit tool fuzzy matching/should match text with trailing whitespace stripped", docExact, func(t *testing.T, ts *spillway.Toolset, dir string) []seen {
			p := filepath.Join(dir, "f.txt")
			writeFile(t, p, "line one   \nline two  \nline three\n")
			text, _ := edit(ts, p, "line one\nline two\n", "replaced\n")
			return []seen{has(text, "Successfully replaced"), {"content", "replaced\nline three\n", content(t, p)}}
		}},
		fuzzy("should match smart single quotes to ASCII quotes", "console.log(\u2018hello\u2019);\n", "console.log('hello');", "console.log('world');", "world", docExact),
		fuzzy("should match smart double quotes to ASCII quotes", "const msg = \u201CHello World\u201D;\n", `const msg = "Hello World";`, `const msg = "Goodbye";`, "Goodbye", docExact),
		fuzzy("should match Unicode dashes to ASCII hyphen", "range: 1\u20135\nbreak\u2014here\n", "range: 1-5\nbreak-here", "range: 10-50\nbreak--here", "10-50", docExact),
		fuzzy("should match non-breaking space to regular space", "hello\u00A0world\n", "hello world", "hello universe", "universe", docExact),
		{"edit tool fuzzy matching/should prefer exact match over fuzzy match", "", func(t *testing.T, ts *spillway.Toolset, dir string) []seen {
			p := filepath.Join(dir, "f.txt")
			writeFile(t, p, "const x = 'exact';\nconst y = 'other';\n")
			text, _ := edit(ts, p, "const x = 'exact';", "const x = 'changed';")
			return []seen{has(text, "Successfully replaced"), {"content", "const x = 'changed';\nconst y = 'other';\n", content(t, p)}}
		}},
		{"edit tool fuzzy matching/should still fail when text is not found even with fuzzy matching", "", func(t *testing.T, ts *spillway.Toolset, dir string) []seen {
			p := filepath.Join(dir, "f.txt")
			writeFile(t, p, "completely different content\n")
			_, err := edit(ts, p, "this does not exist", "replacement")
			return []seen{matches(`Could not find the exact text`, errText(err))}
		}},
		{"edit tool fuzzy matching/should detect duplicates after fuzzy normalization", "", func(t *testing.T, ts *spillway.Toolset, dir string) []seen {
			p := filepath.Join(dir, "f.txt")
			writeFile(t, p, "hello world   \nhello world\n")
			_, err := edit(ts, p, "hello world", "replaced")
			return []seen{matches(`Found 2 occurrences`, errText(err))}
		}},
		{"edit tool CRLF handling/should match LF oldText against CRLF file content", "", func(t *testing.T, ts *spillway.Toolset, dir string) []seen {
			p := filepath.Join(dir, "f.txt")
			writeFile(t, p, "line one\r\nline two\r\nline three\r\n")
			text, _ := edit(ts, p, "line two\n", "replaced line\n")
			return []seen{has(text, "Successfully replaced")}
		}},
		editCase("should preserve CRLF line endings after edit", "first\r\nsecond\r\nthird\r\n", "second\n", "REPLACED\n", "first\r\nREPLACED\r\nthird\r\n", ""),
		editCase("should preserve LF line endings for LF files", "first\nsecond\nthird\n", "second\n", "REPLACED\n", "first\nREPLACED\nthird\n", ""),
		{"edit tool CRLF handling/should detect duplicates across CRLF/LF variants", "", func(t *testing.T, ts *spillway.Toolset, dir string) []seen {
			p := filepath.Join(dir, "f.txt")
			writeFile(t, p, "hello\r\nworld\r\n---\r\nhello\nworld\n")
			_, err := edit(ts, p, "hello\nworld\n", "replaced\n")
			return []seen{matches(`Found 2 occurrences`, errText(err))}
		}},
		editCase("should preserve UTF-8 BOM after edit", "\uFEFFfirst\r\nsecond\r\nthird\r\n", "second\n", "REPLACED\n", "\uFEFFfirst\r\nREPLACED\r\nthird\r\n", ""),
		editCase("should handle file with no newlines", "single line content", "line", "LINE", "single LINE content", ""),
		editCase("should handle lone CR as line ending", "first\rsecond\rthird\r", "second\n", "REPLACED\n", "first\nREPLACED\nthird\n", docLoneCR),
		editCase("should match oldText without trailing newline", "hello world\r\ngoodbye world\r\n", "hello world", "HELLO WORLD", "HELLO WORLD\r\ngoodbye world\r\n", ""),
	}
}

// piFileTotals runs pi's cases and counts them.
func piFileTotals(t *testing.T) (cases, same, documented int) {
	for _, c := range piFileCases() {
		t.Run(c.test, func(t *testing.T) {
			ts, dir := fileToolset(t, spillway.Options{})
			var diff []string
			for _, s := range c.run(t, ts, dir) {
				if !s.same() {
					diff = append(diff, fmt.Sprintf("%s: pi %v, spillway %v", s.what, s.peer, s.spillway))
				}
			}
			switch {
			case len(diff) == 0 && c.doc != "":
				t.Errorf("documented as different, yet every assertion holds: drop the doc reference")
			case len(diff) == 0:
				same++
			case c.doc == "":
				t.Errorf("undocumented difference: %s", strings.Join(diff, "; "))
			default:
				documented++
			}
		})
		cases++
	}
	return
}

func TestPiFileCases(t *testing.T) {
	cases, same, documented := piFileTotals(t)
	t.Logf("pi's edit and write tests: %d cases, %d same, %d documented differences, %d undocumented", cases, same, documented, cases-same-documented)
}

// docs/tools.md states the totals pi's cases count and every documented
// difference they name.
func TestFileToolsDocTable(t *testing.T) {
	doc, err := os.ReadFile("docs/tools.md")
	if err != nil {
		t.Fatal(err)
	}
	cases, same, documented := piFileTotals(t)
	want := fmt.Sprintf("%d cases, %d same, %d documented differences, 0 undocumented", cases, same, documented)
	if !strings.Contains(string(doc), "run through spillway: "+want) {
		t.Errorf("docs/tools.md does not say %q", want)
	}
	for _, c := range piFileCases() {
		if c.doc != "" && !strings.Contains(string(doc), c.doc) {
			t.Errorf("%s: docs/tools.md lacks %q", c.test, c.doc)
		}
	}
}
