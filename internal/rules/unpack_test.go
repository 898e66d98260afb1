package rules

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"testing"
)

// tar -x, unzip, patch -i and git apply of a file the part names write
// what that file holds: a name on the code-loading list makes the part
// ask, under default allow and under the exact allow list alike, while
// the same commands on an input that names ordinary files, and listing
// or checking without writing, stay allowed.
func TestUnpackWritesCodeLoading(t *testing.T) {
	askDefault, allowDefault := round2Sets(t)
	askDefault.Rules = append(askDefault.Rules, corpusRules(t, Allow, "tar *", "unzip *", "patch *", "git apply *")...)
	root := t.TempDir()
	for _, d := range []string{".git/hooks", "src"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(name string, data []byte) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(root, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(".git/HEAD", []byte("ref: refs/heads/main\n"))
	write(".git/config", []byte("[core]\n"))
	tarOf := func(names ...string) []byte {
		var b bytes.Buffer
		tw := tar.NewWriter(&b)
		for _, n := range names {
			tw.WriteHeader(&tar.Header{Name: n, Mode: 0o755, Size: 1, Typeflag: tar.TypeReg})
			tw.Write([]byte("x"))
		}
		tw.Close()
		return b.Bytes()
	}
	gz := func(data []byte) []byte {
		var b bytes.Buffer
		z := gzip.NewWriter(&b)
		z.Write(data)
		z.Close()
		return b.Bytes()
	}
	zipOf := func(names ...string) []byte {
		var b bytes.Buffer
		zw := zip.NewWriter(&b)
		for _, n := range names {
			w, _ := zw.Create(n)
			w.Write([]byte("x"))
		}
		zw.Close()
		return b.Bytes()
	}
	patchOf := func(name string) []byte {
		return []byte("diff --git a/" + name + " b/" + name + "\n--- a/" + name + "\n+++ b/" + name + "\n@@ -0,0 +1 @@\n+touch P\n")
	}
	write("evil.tar", tarOf("src/a.go", ".git/hooks/pre-commit"))
	write("evil.tgz", gz(tarOf("pkg/.git/../../.git/config")))
	write("strip.tar", tarOf("top/.git/hooks/post-checkout"))
	write("ok.tar", tarOf("src/a.go", "README.md"))
	write("evil.zip", zipOf("x/y.txt", ".git/config"))
	write("ok.zip", zipOf("x/y.txt"))
	write("evil.patch", patchOf(".git/hooks/pre-commit"))
	write("ok.patch", patchOf("src/a.go"))
	cx := Context{Dir: root}
	for _, in := range []string{
		"tar -xf evil.tar", "tar xf evil.tar", "tar -x -f evil.tar", "tar --extract --file=evil.tar", "tar -xzf evil.tgz",
		"tar -xf strip.tar --strip-components=1", "tar -xf strip.tar", "tar -C src -xf ok.tar --strip-components=0 && tar -xf evil.tar",
		"unzip evil.zip", "unzip -o evil.zip", "patch -p1 -i evil.patch", "patch --input=evil.patch -p1",
		"git apply evil.patch", "git apply --index evil.patch", "git -c x.y=z apply evil.patch",
	} {
		for name, s := range map[string]*Set{"default ask": askDefault, "default allow": allowDefault} {
			if v := s.CheckIn(in, cx); v.Decision == Allow {
				t.Errorf("%s: %q is allowed;%s", name, in, partsText(v))
			}
		}
	}
	for _, in := range []string{
		"tar -xf ok.tar", "tar -tf evil.tar", "tar -cf new.tar src", "tar -xf ok.tar --strip-components=1", "unzip ok.zip", "unzip -l evil.zip",
		"patch -p1 -i ok.patch", "patch --dry-run -p1 -i evil.patch", "git apply ok.patch", "git apply --check evil.patch",
		"git apply --stat evil.patch", "tar -xf missing.tar",
	} {
		for name, s := range map[string]*Set{"default ask": askDefault, "default allow": allowDefault} {
			if v := s.CheckIn(in, cx); v.Decision != Allow {
				t.Errorf("%s: %q = %v;%s", name, in, v.Decision, partsText(v))
			}
		}
	}
}
