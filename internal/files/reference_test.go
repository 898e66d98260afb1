package files

import (
	"github.com/spillway-dev/spillway/output"
	"github.com/spillway-dev/spillway/tool"

	"bytes"
	"strconv"
	"unicode/utf8"
)

// refPage is what a page must show, computed the simple way: the whole
// file in memory, split into lines, each rule applied in turn. Tests and
// fuzz targets check the streaming page against it.
type refPage struct {
	text, content      string
	shown, cut         int64
	firstCut           int64
	firstCutBytes      int64
	stop               Stop
	overLine, overSize int64
	total              int64
}

func refRead(data []byte, offset int64, lim tool.ReadPolicy) refPage {
	var lines [][]byte // with their '\n'
	for len(data) > 0 {
		k := bytes.IndexByte(data, '\n')
		if k < 0 {
			lines = append(lines, data)
			break
		}
		lines = append(lines, data[:k+1])
		data = data[k+1:]
	}
	r := refPage{total: int64(len(lines))}
	var text, content []byte
	for i := offset - 1; i < int64(len(lines)); i++ {
		if r.shown == int64(lim.MaxLines) {
			r.stop = StopLines
			break
		}
		line := lines[i]
		terminated := line[len(line)-1] == '\n'
		body := line
		if terminated {
			body = line[:len(line)-1]
		}
		crlf := terminated && len(body) > 0 && body[len(body)-1] == '\r'
		// Each line is sanitized on its own, as bash output is.
		var clean []byte
		san := output.NewLineSanitizer(func(b []byte) { clean = append(clean, b...) })
		san.Write(body)
		san.EndLine()
		var runes [][]byte
		for b := clean; len(b) > 0; {
			_, size := utf8.DecodeRune(b)
			runes = append(runes, b[:size])
			b = b[size:]
		}
		chars := len(runes)
		var shownBody, marker []byte
		cut := lim.MaxLineChars > 0 && chars > lim.MaxLineChars
		if cut {
			shownBody = bytes.Join(runes[:lim.MaxLineChars], nil)
			marker = []byte("... [" + strconv.Itoa(chars-lim.MaxLineChars) + " chars cut]")
		} else {
			shownBody = bytes.Join(runes, nil)
		}
		ending := ""
		switch {
		case crlf:
			ending = "\r\n"
		case terminated:
			ending = "\n"
		}
		num := ""
		if lim.LineNumbers {
			num = string(appendNumber(nil, i+1))
		}
		size := len(num) + len(shownBody) + len(marker) + len(ending)
		if len(text)+size > lim.MaxBytes {
			r.stop = StopBytes
			if r.shown == 0 {
				r.overLine, r.overSize = i+1, int64(len(body))
			}
			break
		}
		text = append(text, num...)
		text = append(text, shownBody...)
		text = append(text, marker...)
		text = append(text, ending...)
		content = append(content, shownBody...)
		content = append(content, ending...)
		if cut {
			r.cut++
			if r.firstCut == 0 {
				r.firstCut, r.firstCutBytes = i+1, int64(len(body))
			}
		}
		r.shown++
	}
	if r.shown == int64(lim.MaxLines) && r.stop == StopNone {
		r.stop = StopLines
	}
	r.text, r.content = string(text), string(content)
	return r
}
