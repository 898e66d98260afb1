package output

import (
	"bytes"
	"reflect"
	"testing"
	"unicode/utf8"
)

// The fuzz targets assert the invariants of docs/architecture.md on random input. Their starting
// corpus lives in testdata/fuzz/<FuzzName>/; the f.Add inputs below cover
// the same ground for plain `go test` runs.

// fuzzLimits maps fuzz parameters onto small limits, so that random input
// crosses them often.
func fuzzLimits(strat uint8, maxLines, maxBytes, lineChars uint16, share uint8) Limits {
	lim := Limits{
		Strategy:  []Strategy{Head, Tail, HeadTail}[strat%3],
		MaxLines:  int(maxLines%40) + 1,
		MaxBytes:  int(maxBytes%500) + 1,
		HeadShare: float64(share%11) / 10,
	}
	if lineChars%3 != 0 { // a third of runs have no per-line cap
		lim.MaxLineChars = int(lineChars%60) + 1
	}
	if share >= 200 { // opencode's shown lines below the line threshold
		lim.ShownLines = int(share % 20)
	}
	return lim
}

func addPipelineSeeds(f *testing.F) {
	inputs := [][]byte{
		[]byte("1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n"),
		[]byte("\x1b[31mred\x1b[0m\n\x1b]0;title\x07text\n\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\\n"),
		[]byte("10%\r20%\r30%\ndone\r\n"),
		[]byte("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\n\xff\xfe bad \xe2\x82\n"),
		[]byte("NUL\x00byte\n"),
		bytes.Repeat([]byte("x"), 3000),
		append(bytes.Repeat([]byte("é"), 700), '\n'),
		[]byte("\x1b]never ends " + string(bytes.Repeat([]byte("a"), 5000))),
		[]byte("short\n" + string(bytes.Repeat([]byte("long "), 400)) + "\nend"),
	}
	for i, s := range inputs {
		f.Add(s, []byte{3, 1, 7}, uint8(i), uint16(5+i), uint16(40+17*i), uint16(i), uint8(4), uint8(i%2))
	}
}

// FuzzPipeline feeds random input through a Pipeline at random chunk
// boundaries and checks the Result against the invariants, the reference
// model and the one-shot run.
func FuzzPipeline(f *testing.F) {
	addPipelineSeeds(f)
	f.Fuzz(func(t *testing.T, in, sizes []byte, strat uint8, maxLines, maxBytes, lineChars uint16, share, when uint8) {
		lim := fuzzLimits(strat, maxLines, maxBytes, lineChars, share)
		sw := SpillWhen(when % 2)

		var oneSpill, chunkSpill memSpill
		one := New(Options{Limits: lim, Spill: oneSpill.opener(), SpillWhen: sw})
		one.Write(in)
		one.Close()
		r1 := one.Result()

		ch := New(Options{Limits: lim, Spill: chunkSpill.opener(), SpillWhen: sw})
		chunked(ch, in, sizes)
		ch.Close()
		r2 := ch.Result()

		if !reflect.DeepEqual(r1, r2) {
			t.Fatalf("chunked result differs from one-shot (sizes %v):\n one-shot %+v\n chunked  %+v", sizes, r1, r2)
		}
		if oneSpill.opened > 1 || chunkSpill.opened > 1 {
			t.Fatalf("spill opened %d/%d times", oneSpill.opened, chunkSpill.opened)
		}
		if !bytes.Equal(oneSpill.buf.Bytes(), chunkSpill.buf.Bytes()) || oneSpill.opened != chunkSpill.opened {
			t.Fatalf("chunked spill differs from one-shot")
		}
		if oneSpill.opened > 0 && !oneSpill.closed {
			t.Fatalf("spill not closed")
		}
		if r1.Binary {
			checkBinary(t, in, r1, oneSpill)
			return
		}
		var spilled []byte
		if oneSpill.opened > 0 {
			spilled = oneSpill.buf.Bytes()
			if spilled == nil {
				spilled = []byte{}
			}
		}
		checkPipeline(t, in, lim, sw, r1, spilled)
		checkCuts(t, in, sizes, lim, sw, oneSpill.buf.Bytes())
	})
}

// checkCuts feeds in again, calling Cut after each chunk whose size byte
// is odd. The windows must partition the sanitized stream, number its
// lines without gap, and each window that starts on a line boundary must
// show what the reference model shows of its text. Cuts change nothing in
// the spill.
func checkCuts(t *testing.T, in, sizes []byte, lim Limits, sw SpillWhen, wantSpill []byte) {
	t.Helper()
	checkCutsOf(t, in, sizes, Options{Limits: lim, SpillWhen: sw}, wantSpill)
}

// checkCutsOf is checkCuts for a Pipeline of opt (its Spill is the test's).
func checkCutsOf(t *testing.T, in, sizes []byte, opt Options, wantSpill []byte) {
	t.Helper()
	lim := opt.Limits
	regions := opt.Binary == BinaryRegions
	if len(sizes) == 0 || !regions && len(in) < sniffSize && IsBinary(in) {
		return
	}
	// A look commits what the sanitizer holds back: the stream the windows
	// partition is the one sanitized with a commit at each Cut.
	var s []byte
	ref := newSanitizer(func(b []byte) { s = append(s, b...) })
	ref.regions = regions
	var sp memSpill
	opt.Spill = sp.opener()
	p := New(opt)
	var windows []Result
	var starts []int64 // sanitized offset where each window starts
	start := int64(0)
	window := func(r Result) {
		windows = append(windows, r)
		starts = append(starts, start)
		start = p.bytes
	}
	rest := in
	for i := 0; len(rest) > 0; i++ {
		n := min(len(rest), int(sizes[i%len(sizes)])%97+1)
		p.Write(rest[:n])
		ref.Write(rest[:n])
		rest = rest[n:]
		if sizes[i%len(sizes)]%2 == 1 && p.decided {
			ref.commit()
			window(p.Cut())
		}
	}
	p.Close()
	ref.Close()
	window(p.Result())
	if windows[0].Binary {
		return
	}
	var total, nextLine int64 = 0, 1
	for i, r := range windows {
		text := s[starts[i] : starts[i]+r.Truncation.TotalBytes]
		total += r.Truncation.TotalBytes
		if r.Truncation.TotalLines == 0 {
			continue
		}
		if r.FirstLine != nextLine {
			t.Fatalf("window %d starts at line %d, want %d", i, r.FirstLine, nextLine)
		}
		if r.LastLine != r.FirstLine+r.Truncation.TotalLines-1 {
			t.Fatalf("window %d: lines %d-%d but %d lines", i, r.FirstLine, r.LastLine, r.Truncation.TotalLines)
		}
		nextLine = r.LastLine + 1
		if text[len(text)-1] != '\n' {
			nextLine-- // the last line goes on in the next window
		}
		if starts[i] == 0 || s[starts[i]-1] == '\n' {
			v := refView(text, lim)
			if r.Head != string(v.head) || r.Tail != string(v.tail) || r.Truncation.TruncatedBy != v.truncatedBy {
				t.Fatalf("window %d of %q:\n got  %q | %q (%s)\n want %q | %q (%s)", i, text, r.Head, r.Tail, r.Truncation.TruncatedBy, v.head, v.tail, v.truncatedBy)
			}
		}
	}
	if total != int64(len(s)) {
		t.Fatalf("windows hold %d bytes of %d", total, len(s))
	}
	if sp.opened > 0 && !bytes.Equal(sp.buf.Bytes(), s) {
		t.Fatalf("the spill is not the stream the windows show")
	}
	if sp.opened > 0 && sanitizeCommitsNothing(in) && !regions && !bytes.Equal(sp.buf.Bytes(), wantSpill) {
		t.Fatalf("Cut changed the spill")
	}
}

// sanitizeCommitsNothing reports whether in holds nothing that redraws,
// so that a commit changes nothing in its sanitized stream.
func sanitizeCommitsNothing(in []byte) bool {
	return bytes.IndexByte(in, 0x1b) < 0
}

func checkBinary(t *testing.T, in []byte, r Result, sp memSpill) {
	t.Helper()
	sniff := in[:min(len(in), sniffSize)]
	if !IsBinary(sniff) {
		t.Fatalf("judged binary, but IsBinary(first 8 KiB) is false")
	}
	if r.Head != "" || r.Tail != "" || r.Truncation.OutputBytes != 0 {
		t.Fatalf("binary stream shows content %q %q", r.Head, r.Tail)
	}
	if r.Truncation.TotalBytes != int64(len(in)) || !r.Truncation.Truncated {
		t.Fatalf("binary truncation %+v for %d bytes", r.Truncation, len(in))
	}
	if !bytes.Equal(sp.buf.Bytes(), in) {
		t.Fatalf("binary spill does not hold the raw bytes")
	}
	want := "[binary output: " + itoa(int64(len(in))) + " bytes. Full output: /spill/test.log]"
	if n := r.Notice("stdout"); n != want {
		t.Fatalf("notice %q, want %q", n, want)
	}
}

func addSanitizerSeeds(f *testing.F) {
	for _, s := range []string{
		"plain text\n",
		"\x1b[1;31mbold red\x1b[0m\n",
		"\x1b]0;title\x07after\n",
		"\x1b]8;;http://example.com\x1b\\link\x1b]8;;\x1b\\\n",
		"\x1bPq#0;2;0;0;0\x1b\\dcs\n",
		"\x1b_apc\x1b\\\x1bXsos\x1b\\\x1b^pm\x1b\\x\n",
		"\x1b7\x1b8\x1b(B\x1b=\n",
		"10%\r20%\r30%\n",
		"a\r\nb\r\n",
		"\x00\x01\x02\x7f\x08tab\there\n",
		"\xff\xfe\xc3\n\xe2\x82\xac\xe2\x82",
		"\x1b[" + string(bytes.Repeat([]byte("1;"), 50)) + "m",
		"\x1b]" + string(bytes.Repeat([]byte("x"), 5000)),
		string(redrawFrames(4, 3, "\x1b[3A")),
		string(redrawFrames(3, 2, "\x1b[2F")),
		"a\nb\nc\x1b[2A\rX\x1b[Kyz\x1b[1B\x1b[3Gq\x1b[J\n",
		"\x1b[1A\x1b[1B[+] Building\n => step\n\x1b[2A\x1b[0G[+] Built\n",
		"\x1b[5Aabove\x1b[2Ebelow\x1b[H\x1b[2Jhome\x1b[1K\x1b[2K",
	} {
		f.Add([]byte(s), []byte{1, 2, 3})
	}
}

// FuzzSanitizer checks the sanitizer's output properties and that any
// split of the input gives the one-shot output.
func FuzzSanitizer(f *testing.F) {
	addSanitizerSeeds(f)
	f.Fuzz(func(t *testing.T, in, sizes []byte) {
		want := sanitizeAll(in)
		checkSanitized(t, in, want)

		var got []byte
		s := newSanitizer(func(b []byte) {
			if !utf8.Valid(b) {
				t.Fatalf("emitted a piece that splits a character: %q", b)
			}
			got = append(got, b...)
		})
		for i, rest := 0, in; len(rest) > 0; i++ {
			n := len(rest)
			if len(sizes) > 0 {
				n = min(n, int(sizes[i%len(sizes)])%37+1)
			}
			s.Write(rest[:n])
			rest = rest[n:]
		}
		s.Close()
		if !bytes.Equal(got, want) {
			t.Fatalf("input %q split by %v:\n got  %q\n want %q", in, sizes, got, want)
		}
		// The same bytes as redraw tokens, against the reference model.
		checkRedraw(t, in, sizes)
		// Text and carriage returns alone, against the per-line rule.
		checkCarriageReturns(t, in)
	})
}

// checkSanitized asserts what any sanitized output must be.
func checkSanitized(t *testing.T, in, out []byte) {
	t.Helper()
	if !utf8.Valid(out) {
		t.Fatalf("output of %q is not valid UTF-8: %q", in, out)
	}
	for i, c := range out {
		if (c < 0x20 && c != '\t' && c != '\n') || c == 0x7f {
			t.Fatalf("output of %q holds control byte %#x at %d: %q", in, c, i, out)
		}
	}
	// Sanitized text is a fixed point.
	if again := sanitizeAll(out); !bytes.Equal(again, out) {
		t.Fatalf("sanitizing twice changes %q into %q", out, again)
	}
	// Plain text passes unchanged.
	if isPlain(in) && !bytes.Equal(in, out) {
		t.Fatalf("plain input %q became %q", in, out)
	}
}

func isPlain(b []byte) bool {
	if !utf8.Valid(b) {
		return false
	}
	for _, c := range b {
		if (c < 0x20 && c != '\t' && c != '\n') || c == 0x7f {
			return false
		}
	}
	return true
}

func itoa(n int64) string {
	return string(appendInt(nil, n))
}

func appendInt(b []byte, n int64) []byte {
	if n >= 10 {
		b = appendInt(b, n/10)
	}
	return append(b, byte('0'+n%10))
}

// checkCarriageReturns keeps only printable ASCII, '\r' and '\n' of in and
// checks the Sanitizer against the rule a terminal follows, line by line:
// each '\r' goes back to the first column and what follows overwrites
// what is there, leaving the rest of the line.
func checkCarriageReturns(t *testing.T, in []byte) {
	t.Helper()
	var text []byte
	for _, c := range in {
		if c == '\r' || c == '\n' || c >= 0x20 && c < 0x7f {
			text = append(text, c)
		}
	}
	if len(text) > holdBytes/2 {
		return
	}
	var want []byte
	for i, line := range bytes.Split(text, newline) {
		if i > 0 {
			want = append(want, '\n')
		}
		var screen []byte
		col := 0
		for _, c := range line {
			if c == '\r' {
				col = 0
				continue
			}
			if col < len(screen) {
				screen[col] = c
			} else {
				screen = append(screen, c)
			}
			col++
		}
		want = append(want, screen...)
	}
	if got := sanitizeAll(text); !bytes.Equal(got, want) {
		t.Fatalf("carriage returns in %q:\n got  %q\n want %q", text, got, want)
	}
}
