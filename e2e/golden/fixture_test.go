package golden

import (
	"crypto/rand"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// makeRoot makes the work root at /tmp/spwgold-xxxxxxxx (8 random
// lower-case letters) rather than under t.TempDir or $TMPDIR: its path has
// the same length and the same kinds of characters on every run and every
// machine, so the token estimates of results that name a path in it do
// not change with it (the estimate counts runs of letters and digits).
func makeRoot() (string, error) {
	for range 10 {
		var b [8]byte
		if _, err := rand.Read(b[:]); err != nil {
			return "", err
		}
		for i := range b {
			b[i] = 'a' + b[i]%26
		}
		dir := "/tmp/spwgold-" + string(b[:])
		if err := os.Mkdir(dir, 0o755); err == nil {
			// The spillway processes may see the path with its symlinks
			// resolved (macOS's /tmp is /private/tmp).
			return dir, nil
		} else if !os.IsExist(err) {
			return "", err
		}
	}
	return "", fmt.Errorf("could not make a work root under /tmp")
}

// numbers is "1\n2\n…\nn\n": plain numbers, so that the corpus can show a
// long run of them in one line (see squeezeRuns).
func numbers(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "%d\n", i)
	}
	return b.String()
}

// pngPixel is a valid 1×1 PNG, written byte for byte.
var pngPixel = []byte{
	0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d,
	0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01,
	0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4, 0x89, 0x00, 0x00, 0x00,
	0x0d, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0xf8, 0xcf, 0xc0, 0xf0,
	0x1f, 0x00, 0x05, 0x00, 0x01, 0xff, 0x89, 0x99, 0x3d, 0x1d, 0x00, 0x00,
	0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82,
}

// writeFixture writes the files every case looks at. Their contents are
// fixed; their modes and times are not read by any tool shown here.
func writeFixture(dir string) error {
	files := map[string]string{
		"hello.txt":          "hello\nworld\n",
		"big.txt":            numbers(5000),
		"long.txt":           strings.Repeat("abcdefghij", 600) + "\nshort line after\n",
		"crlf.txt":           "one\r\ntwo\r\n",
		"empty.txt":          "",
		"utf8.txt":           "héllo wörld — ✓\n日本語の行\n",
		"bin.dat":            "\x00\x01\x02binary\x00data\xff\xfe",
		"pixel.png":          string(pngPixel),
		".gitignore":         "ignored.txt\nbuild/\n",
		"ignored.txt":        "needle in an ignored file\n",
		"build/out.txt":      "needle in an ignored dir\n",
		".hidden":            "needle in a hidden file\n",
		"src/main.go":        "package main\n\nimport \"fmt\"\n\n// needle: the thing to find\nfunc main() {\n\tfmt.Println(\"hello\")\n}\n",
		"src/util.go":        "package main\n\nconst Needle = \"needle\"\n\nfunc helper() int { return 42 }\n",
		"src/util_test.go":   "package main\n\nimport \"testing\"\n\nfunc TestHelper(t *testing.T) {\n\tif helper() != 42 {\n\t\tt.Fatal(\"needle\")\n\t}\n}\n",
		"docs/readme.md":     "# Readme\n\nA needle in the docs.\nNEEDLE in capitals.\n",
		"docs/deep/a/b/c.md": "deep needle\n",
	}
	var matches strings.Builder
	for i := 1; i <= 300; i++ {
		fmt.Fprintf(&matches, "row %d match %s\n", i, strings.Repeat("x", i%7))
	}
	files["matches.txt"] = matches.String()
	files["wide.txt"] = "needle " + strings.Repeat("w", 900) + "\n"
	for i := 1; i <= 40; i++ {
		files[fmt.Sprintf("many/file%02d.txt", i)] = fmt.Sprintf("file %d\n", i)
	}
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(filepath.Join(dir, "emptydir"), 0o755); err != nil {
		return err
	}
	return os.Symlink("hello.txt", filepath.Join(dir, "link.txt"))
}
