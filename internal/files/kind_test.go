package files

import (
	"archive/zip"
	"bytes"
	"context"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spillway-dev/spillway/internal/spill"
	"github.com/spillway-dev/spillway/tool"
)

// readWithin runs a read that must return, and fails the test if it does
// not within a generous bound (the bound only keeps a bug from hanging
// the test run).
func readWithin(t *testing.T, tl *Tools, in tool.ReadInput) (Page, error) {
	t.Helper()
	type call struct {
		res Page
		err error
	}
	done := make(chan call, 1)
	go func() {
		res, err := tl.Read(context.Background(), in)
		done <- call{res, err}
	}()
	select {
	case c := <-done:
		return c.res, c.err
	case <-time.After(20 * time.Second):
		t.Fatalf("read %+v hangs", in)
		return Page{}, nil
	}
}

func TestReadFIFODoesNotHang(t *testing.T) {
	tl, dir := newTestTools(t, Config{})
	fifo := filepath.Join(dir, "pipe")
	if err := mkfifo(fifo); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	_, err := readWithin(t, tl, tool.ReadInput{Path: "pipe"})
	if err == nil || !strings.Contains(err.Error(), "is a named pipe (FIFO)") {
		t.Fatalf("%q", err)
	}
	// A symlink to it is refused the same way.
	os.Symlink(fifo, filepath.Join(dir, "link"))
	_, err = readWithin(t, tl, tool.ReadInput{Path: "link"})
	if err == nil || !strings.Contains(err.Error(), "named pipe") {
		t.Fatalf("symlink: %q", err)
	}
	// The second guard: opening it directly (as after a swap between the
	// stat and the open) neither blocks nor reads it.
	done := make(chan error, 1)
	go func() {
		f, _, err := openRegular(fifo)
		if f != nil {
			f.Close()
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "named pipe") {
			t.Fatalf("openRegular: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("openRegular blocks on a FIFO")
	}
}

func TestReadSocketAndDevices(t *testing.T) {
	tl, dir := newTestTools(t, Config{})
	sock := filepath.Join(dir, "s.sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Skipf("unix socket: %v", err)
	}
	defer l.Close()
	_, err = readWithin(t, tl, tool.ReadInput{Path: sock})
	if err == nil || !strings.Contains(err.Error(), "is a socket") {
		t.Fatalf("socket: %q", err)
	}
	for _, dev := range []string{"/dev/zero", "/dev/urandom", "/dev/tty"} {
		if _, err := os.Stat(dev); err != nil {
			continue
		}
		_, err := readWithin(t, tl, tool.ReadInput{Path: dev})
		if err == nil || !strings.Contains(err.Error(), "character device") || !strings.Contains(err.Error(), "head -c 1024") {
			t.Fatalf("%s: %q", dev, err)
		}
	}
}

func TestReadDirectory(t *testing.T) {
	tl, dir := newTestTools(t, Config{})
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	_, err := readWithin(t, tl, tool.ReadInput{Path: "sub"})
	if want := filepath.Join(dir, "sub") + " is a directory, not a file. Use ls to list it"; err == nil || err.Error() != want {
		t.Fatalf("%q", err)
	}
}

func encodeImage(t *testing.T, format string) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 8, 8))
	img.Set(1, 1, color.RGBA{255, 0, 0, 255})
	var b bytes.Buffer
	var err error
	switch format {
	case "png":
		err = png.Encode(&b, img)
	case "jpeg":
		err = jpeg.Encode(&b, img, nil)
	case "gif":
		err = gif.Encode(&b, img, nil)
	case "webp":
		// A minimal lossless WebP header: RIFF, size, WEBP, VP8L chunk.
		b.WriteString("RIFF\x1a\x00\x00\x00WEBPVP8L\x0d\x00\x00\x00\x2f\x07\xc0\x01\x00\x07\x10\x11\x11\x88\x88\xfe\x07\x00")
	}
	if err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestReadImages(t *testing.T) {
	tl, dir := newTestTools(t, Config{})
	for _, format := range []string{"png", "jpeg", "gif", "webp"} {
		data := encodeImage(t, format)
		name := "img." + format
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
		res, err := readWithin(t, tl, tool.ReadInput{Path: name})
		mime := "image/" + format
		if err != nil || res.Image == nil || res.Mime != mime || !bytes.Equal(res.Image, data) {
			t.Fatalf("%s: error=%v %q image=%v mime=%q image %d bytes", format, err, res.Text, res.Image != nil, res.Mime, len(res.Image))
		}
	}
	// Over 5 MiB: an error that says so.
	big := append(encodeImage(t, "png"), make([]byte, 6<<20)...)
	os.WriteFile(filepath.Join(dir, "big.png"), big, 0o644)
	_, err := readWithin(t, tl, tool.ReadInput{Path: "big.png"})
	if err == nil || !strings.Contains(err.Error(), "image/png image of 6.0MB, over the 5.0MB limit for images") {
		t.Fatalf("big: %q", err)
	}
	// An SVG is text.
	os.WriteFile(filepath.Join(dir, "a.svg"), []byte(`<svg xmlns="http://www.w3.org/2000/svg"><rect/></svg>`+"\n"), 0o644)
	if res, err := readWithin(t, tl, tool.ReadInput{Path: "a.svg"}); err != nil || res.Image != nil || !strings.HasPrefix(res.Text, "<svg") {
		t.Fatalf("svg: %v %q %s", err, res.Text, res.Mime)
	}
}

func TestReadBinaryNamesType(t *testing.T) {
	tl, dir := newTestTools(t, Config{})
	var zb bytes.Buffer
	zw := zip.NewWriter(&zb)
	w, _ := zw.Create("a.txt")
	w.Write([]byte("hello"))
	zw.Close()
	os.WriteFile(filepath.Join(dir, "a.zip"), zb.Bytes(), 0o644)
	_, err := readWithin(t, tl, tool.ReadInput{Path: "a.zip"})
	if err == nil || !strings.Contains(err.Error(), "is a binary file (application/zip, .zip)") || !strings.Contains(err.Error(), "xxd") || !strings.Contains(err.Error(), "strings") {
		t.Fatalf("zip: %q", err)
	}
	os.WriteFile(filepath.Join(dir, "blob"), []byte("\x00\x01\x02\x03binary\x00\xff"), 0o644)
	_, err = readWithin(t, tl, tool.ReadInput{Path: "blob"})
	if err == nil || !strings.Contains(err.Error(), "binary file (application/octet-stream)") {
		t.Fatalf("blob: %q", err)
	}
	exe, err := os.Executable()
	if err == nil {
		_, err = readWithin(t, tl, tool.ReadInput{Path: exe})
		if err == nil || !strings.Contains(err.Error(), "binary file (application/x-") {
			t.Fatalf("executable: %q", err)
		}
	}
	// UTF-16 text says how to convert it.
	os.WriteFile(filepath.Join(dir, "u16.txt"), []byte("\xff\xfeh\x00i\x00\n\x00"), 0o644)
	_, err = readWithin(t, tl, tool.ReadInput{Path: "u16.txt"})
	if err == nil || !strings.Contains(err.Error(), "iconv -f UTF-16LE -t UTF-8") {
		t.Fatalf("utf-16: %q", err)
	}
}

// A read of a spill file the budget deleted says so.
func TestReadDeletedSpillFile(t *testing.T) {
	store := spill.NewSession(spill.Config{TempDir: t.TempDir(), BudgetBytes: 100, KeepNamed: time.Nanosecond})
	defer store.Close()
	tl, _ := newTestTools(t, Config{Spill: store})
	first, err := store.Create("bash-1-stdout.log")
	if err != nil {
		t.Fatal(err)
	}
	first.Write([]byte(strings.Repeat("x\n", 40)))
	first.Close()
	if res, err := readWithin(t, tl, tool.ReadInput{Path: first.Path()}); err != nil || res.TotalLines != 40 {
		t.Fatalf("live spill file: %v %q", err, res.Text)
	}
	second, _ := store.Create("bash-2-stdout.log")
	second.Write([]byte(strings.Repeat("y\n", 40))) // over the budget: the first goes
	second.Close()
	if cause, _ := store.Deleted(first.Path()); cause != spill.CauseBudget {
		t.Fatal("the budget did not delete the first file")
	}
	_, err = readWithin(t, tl, tool.ReadInput{Path: first.Path()})
	if err == nil || !strings.Contains(err.Error(), "was a spill file of this session, deleted to keep the session's spill files within their budget") {
		t.Fatalf("%q", err)
	}
}
