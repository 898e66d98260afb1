package files

import (
	"fmt"
	"io/fs"
	"strings"

	"github.com/gabriel-vasile/mimetype"

	"github.com/spillway-dev/spillway/output"
)

// sniffBytes is how much of a file decides what it is: as much as decides
// whether bash output is binary.
const sniffBytes = output.SniffSize

// maxImageBytes is the largest image returned as image content.
const maxImageBytes = 5 << 20

// What a file holds, as far as read is concerned.
type fileKind uint8

const (
	kindText fileKind = iota
	kindImage
	kindBinary
)

// imageTypes are the image formats returned as image content: the ones
// model APIs accept.
var imageTypes = []string{"image/png", "image/jpeg", "image/gif", "image/webp"}

// classify decides from the first bytes of a file whether it is text, an
// image (then mime is its image type) or other binary data. mime is the
// detected type.
//
// Text or binary is decided by the sniff bash output gets (output.IsBinary):
// a stray NUL in a log leaves it text, read as bash would show it.
func classify(head []byte) (kind fileKind, mime string, mt *mimetype.MIME) {
	mt = mimetype.Detect(head)
	for m := mt; m != nil; m = m.Parent() {
		if m.Is("text/plain") && wideCharset(mt.String()) {
			return kindBinary, mt.String(), mt // said in binaryError
		}
		for _, img := range imageTypes {
			if m.Is(img) {
				return kindImage, img, mt
			}
		}
	}
	if output.IsBinary(head) {
		return kindBinary, mt.String(), mt
	}
	for m := mt; m != nil; m = m.Parent() {
		if m.Is("text/plain") {
			return kindText, mt.String(), mt
		}
	}
	return kindText, "text/plain; charset=utf-8", mt
}

// notRegular returns the error for a file that read must not open: a
// directory, a FIFO, a socket or a device (opening or reading those can
// block forever or never end). It returns nil for a regular file.
func notRegular(path string, m fs.FileMode) error {
	q := ShellQuote(path)
	switch {
	case m.IsRegular():
		return nil
	case m.IsDir():
		return fmt.Errorf("%s is a directory, not a file. Use ls to list it", path)
	case m&fs.ModeNamedPipe != 0:
		return fmt.Errorf("%s is a named pipe (FIFO), not a regular file: reading it could block forever, so read refuses it. If you must, use bash with a timeout: timeout 5 head -c 51200 %s", path, q)
	case m&fs.ModeSocket != 0:
		return fmt.Errorf("%s is a socket, not a regular file; read only reads regular files", path)
	case m&fs.ModeCharDevice != 0:
		return fmt.Errorf("%s is a character device, not a regular file: it may never end or block. If you must, use bash: head -c 1024 %s | xxd", path, q)
	case m&fs.ModeDevice != 0:
		return fmt.Errorf("%s is a block device, not a regular file. If you must, use bash: head -c 1024 %s | xxd", path, q)
	default:
		return fmt.Errorf("%s is not a regular file (%s); read only reads regular files", path, m.Type())
	}
}

// binaryError is the error for a file that is neither text nor an image.
func binaryError(path string, mt *mimetype.MIME) error {
	q := ShellQuote(path)
	if s := mt.String(); wideCharset(s) {
		enc := strings.ToUpper(s[strings.Index(s, "charset=")+len("charset="):])
		return fmt.Errorf("%s is %s text, which read does not decode. Use bash: iconv -f %s -t UTF-8 %s | head -n 2000", path, enc, enc, q)
	}
	what := mt.String()
	if ext := mt.Extension(); ext != "" {
		what += ", " + ext
	}
	return fmt.Errorf("%s is a binary file (%s), not text. Use bash to inspect it: xxd %s | head -n 100, or strings %s | head -n 200", path, what, q, q)
}

// wideCharset reports whether a detected text type is UTF-16 or UTF-32,
// which read does not decode.
func wideCharset(mime string) bool {
	return strings.Contains(mime, "charset=utf-16") || strings.Contains(mime, "charset=utf-32")
}
