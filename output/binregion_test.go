package output

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"regexp"
	"strconv"
	"testing"
)

// blob is n bytes of random binary, the same in every run.
func blob(seed uint64, n int) []byte {
	r := rand.New(rand.NewPCG(seed, 1))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	b[0] = 0x01 // not text: the run starts with the blob
	return b
}

// regionRun feeds in to a BinaryRegions pipeline in one write and in
// writes of every size up to 17 bytes, and returns the one result after
// checking the others match it.
func regionRun(t *testing.T, in []byte) Result {
	t.Helper()
	lim := Limits{Strategy: HeadTail, HeadShare: 0.4, MaxLines: 2000, MaxBytes: 1 << 20, MaxLineChars: 2000}
	run := func(size int) Result {
		p := New(Options{Limits: lim, Binary: BinaryRegions})
		for rest := in; len(rest) > 0; {
			n := min(len(rest), size)
			p.Write(rest[:n])
			rest = rest[n:]
		}
		p.Close()
		return p.Result()
	}
	r := run(len(in) + 1)
	for size := 1; size <= 17; size++ {
		if c := run(size); c.Head != r.Head || c.Tail != r.Tail || c.BinaryBytes != r.BinaryBytes {
			t.Fatalf("writes of %d bytes: %q (%d), in one write %q (%d)", size, c.Head+c.Tail, c.BinaryBytes, r.Head+r.Tail, r.BinaryBytes)
		}
	}
	return r
}

func notice(n int) string {
	return "[binary output: " + itoa(int64(n)) + " bytes not shown; pipe the command through xxd to see them]"
}

// 300 bytes of binary no longer hide the text around them: the text lines
// before and after show, the binary run is one notice line, and its size
// is the detail binary_bytes.
func TestBinaryByRegion(t *testing.T) {
	b300 := blob(1, 300)
	for _, c := range []struct {
		name string
		in   []byte
		want string
		n    int64
	}{
		{"text around 300 bytes", join("start\nsecond line\n", b300, "\nend\nlast line\n"),
			"start\nsecond line\n" + notice(300) + "\nend\nlast line\n", 300},
		{"text on the blob's line", join("header: ", b300, "\ntrailer\n"),
			"header: \n" + notice(300) + "\ntrailer\n", 300},
		{"blob first", join("", b300, "\nok\n"), notice(300) + "\nok\n", 300},
		{"blob last, no newline", join("text\n", b300, ""), "text\n" + notice(300), 300},
		{"two blobs", join("a\n", blob(2, 500), "\nbetween the two blobs, a line of text\n", blob(3, 700), "\nz\n"),
			"a\n" + notice(500) + "\nbetween the two blobs, a line of text\n" + notice(700) + "\nz\n", 1200},
		{"a short text line between blobs belongs to the run", join("a\n", blob(2, 500), "\nok\n", blob(3, 700), "\nz\n"),
			"a\n" + notice(500+4+700) + "\nz\n", 1204},
		{"a megabyte", join("begin\n", blob(4, 1<<20), "\ndone\n"), "begin\n" + notice(1<<20) + "\ndone\n", 1 << 20},
		{"stray controls are text", []byte("a\x01b\x02c\x07\nNUL\x00byte\n"), "abc\nNULbyte\n", 0},
		{"invalid UTF-8 in text is text", []byte("caf\xe9 au lait, na\xefve\n"), "caf\uFFFD au lait, na\uFFFDve\n", 0},
		{"the blob's text start stays on its line", []byte("x\nELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x03\x00\n"), "x\nELF\n" + notice(14) + "\n", 14},
		{"controls only", []byte("x\n\x01\x02\x03\x04\x05\ny\n"), "x\n" + notice(5) + "\ny\n", 5},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := regionRun(t, c.in)
			if got := r.Head + r.Tail; got != c.want || r.BinaryBytes != c.n || r.Binary {
				t.Errorf("got %q (binary_bytes %d, binary %v)\nwant %q (%d)", got, r.BinaryBytes, r.Binary, c.want, c.n)
			}
		})
	}
}

// Under the zero rule, the stream is judged whole from its start, as the
// seed profiles' designs do.
func TestBinaryWholeStreamUnchanged(t *testing.T) {
	p := New(Options{})
	p.Write(join("start\n", blob(1, 300), "\nend\n"))
	p.Close()
	if r := p.Result(); !r.Binary || r.Head != "" || r.BinaryBytes != 0 {
		t.Errorf("zero rule: binary %v, %q", r.Binary, r.Head)
	}
}

// A look at a running stream says the run so far; the rest of the run
// comes as a notice of its own.
func TestBinaryRegionSnapshot(t *testing.T) {
	p := New(Options{Binary: BinaryRegions})
	p.Write(join("start\n", blob(1, 300), "\n"))
	r := p.Cut()
	if r.Head != "start\n"+notice(300)+"\n" || r.BinaryBytes != 300 {
		t.Fatalf("snapshot %q %d", r.Head, r.BinaryBytes)
	}
	p.Write(join("", blob(2, 200), "\nend\n"))
	p.Close()
	if r := p.Result(); r.Head != notice(200)+"\nend\n" || r.BinaryBytes != 500 {
		t.Fatalf("after %q %d", r.Head, r.BinaryBytes)
	}
}

func join(a string, b []byte, rest ...any) []byte {
	var out bytes.Buffer
	out.WriteString(a)
	out.Write(b)
	for _, x := range rest {
		switch x := x.(type) {
		case string:
			out.WriteString(x)
		case []byte:
			out.Write(x)
		}
	}
	return out.Bytes()
}

// FuzzPipelineRegions is FuzzPipeline under BinaryRegions: however the
// input is split into writes, the result and the spill are the same;
// every cut is said and what was cut is spilled whole (the spill is the
// sanitized stream, run notices included); the notices' sizes add up to
// binary_bytes; and input without a byte that is not text is sanitized
// as without the rule.
func FuzzPipelineRegions(f *testing.F) {
	addPipelineSeeds(f)
	for i, in := range [][]byte{
		join("start\n", blob(1, 300), "\nend\n"),
		join("header: ", blob(2, 90), "\ntrailer\n", blob(3, 40), "\nok\n"),
		[]byte("a\x01b\x02c\x07\n\x01\x02\x03\x04\x05\ny\n"),
		join("\x1b[31mred\x1b[0m\n", blob(4, 50), "\r\n10%\r20%\n"),
	} {
		f.Add(in, []byte{5, 2, 9}, uint8(i), uint16(3+i), uint16(60+31*i), uint16(i), uint8(3), uint8(i%2))
	}
	f.Fuzz(func(t *testing.T, in, sizes []byte, strat uint8, maxLines, maxBytes, lineChars uint16, share, when uint8) {
		lim := fuzzLimits(strat, maxLines, maxBytes, lineChars, share)
		sw := SpillWhen(when % 2)
		var oneSpill, chunkSpill memSpill
		one := New(Options{Limits: lim, Spill: oneSpill.opener(), SpillWhen: sw, Binary: BinaryRegions})
		one.Write(in)
		one.Close()
		r1 := one.Result()
		ch := New(Options{Limits: lim, Spill: chunkSpill.opener(), SpillWhen: sw, Binary: BinaryRegions})
		chunked(ch, in, sizes)
		ch.Close()
		r2 := ch.Result()
		if !reflect.DeepEqual(r1, r2) {
			t.Fatalf("chunked result differs from one-shot (sizes %v):\n one-shot %+v\n chunked  %+v", sizes, r1, r2)
		}
		if !bytes.Equal(oneSpill.buf.Bytes(), chunkSpill.buf.Bytes()) || oneSpill.opened != chunkSpill.opened || oneSpill.opened > 1 {
			t.Fatalf("chunked spill differs from one-shot")
		}
		if r1.Binary {
			t.Fatalf("a stream judged by region was judged binary whole")
		}
		s := sanitizeRegions(in)
		var spilled []byte
		if oneSpill.opened > 0 {
			spilled = append([]byte{}, oneSpill.buf.Bytes()...)
		}
		checkPipelineOf(t, in, s, lim, sw, r1, spilled)
		checkCutsOf(t, in, sizes, Options{Limits: lim, SpillWhen: sw, Binary: BinaryRegions}, oneSpill.buf.Bytes())

		var said int64
		for _, m := range noticeRE.FindAllSubmatch(s, -1) {
			n, _ := strconv.ParseInt(string(m[1]), 10, 64)
			if n <= 0 || n > int64(len(in)) {
				t.Fatalf("a notice says %d bytes of %d", n, len(in))
			}
			said += n
		}
		if said != r1.BinaryBytes || r1.BinaryBytes > int64(len(in)) {
			t.Fatalf("notices say %d bytes, binary_bytes %d", said, r1.BinaryBytes)
		}
		if clean(in) && !bytes.Equal(s, sanitizeAll(in)) {
			t.Fatalf("text without a non-text byte sanitized otherwise:\n%q\n%q", s, sanitizeAll(in))
		}
	})
}

var noticeRE = regexp.MustCompile(`\[binary output: (\d+) bytes not shown; pipe the command through xxd to see them\]`)

// sanitizeRegions is sanitizeAll under BinaryRegions.
func sanitizeRegions(in []byte) []byte {
	var out []byte
	s := newSanitizer(func(b []byte) { out = append(out, b...) })
	s.regions = true
	s.Write(in)
	s.Close()
	return out
}
