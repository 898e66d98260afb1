package output

import (
	"fmt"
	"strings"
	"testing"
)

// numbered returns lines "line 1" … "line n", each ending in '\n'.
func numbered(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return b.String()
}

// lineRange is what numbered(n) holds of lines from..to.
func lineRange(from, to int) string {
	var b strings.Builder
	for i := from; i <= to; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return b.String()
}

func TestShownLines(t *testing.T) {
	opencode := Limits{Strategy: HeadTail, HeadShare: 0.5, MaxLines: 2000, MaxBytes: 50 * 1024, ShownLines: 1000}
	tests := []struct {
		name     string
		lim      Limits
		in       string
		head     string
		tail     string
		by       string
		outLines int64
	}{
		{
			name: "head_tail past the line threshold shows ShownLines",
			lim:  opencode, in: numbered(8432),
			head: lineRange(1, 500), tail: lineRange(7933, 8432), by: ByLines, outLines: 1000,
		},
		{
			name: "head_tail under the threshold shows everything",
			lim:  opencode, in: numbered(1999),
			head: numbered(1999), by: "", outLines: 1999,
		},
		{
			name: "head_tail past the byte threshold alone is cut to ShownLines",
			lim:  Limits{Strategy: HeadTail, HeadShare: 0.5, MaxLines: 2000, MaxBytes: 12000, ShownLines: 100},
			in:   numbered(1500), // 1500 lines, about 15 KB
			head: lineRange(1, 50), tail: lineRange(1451, 1500), by: ByLines, outLines: 100,
		},
		{
			name: "head",
			lim:  Limits{Strategy: Head, MaxLines: 100, MaxBytes: 1 << 20, ShownLines: 10},
			in:   numbered(101),
			head: lineRange(1, 10), by: ByLines, outLines: 10,
		},
		{
			name: "tail",
			lim:  Limits{Strategy: Tail, MaxLines: 100, MaxBytes: 1 << 20, ShownLines: 10},
			in:   numbered(101),
			tail: lineRange(92, 101), by: ByLines, outLines: 10,
		},
		{
			name: "ShownLines above MaxLines is MaxLines",
			lim:  Limits{Strategy: Head, MaxLines: 10, MaxBytes: 1 << 20, ShownLines: 50},
			in:   numbered(11),
			head: lineRange(1, 10), by: ByLines, outLines: 10,
		},
		{
			name: "bytes still bind under ShownLines",
			lim:  Limits{Strategy: Head, MaxLines: 100, MaxBytes: 70, ShownLines: 50},
			in:   numbered(101),
			head: lineRange(1, 9), by: ByBytes, outLines: 9, // "line 1\n".."line 9\n" = 63 bytes; line 10 passes 70
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := New(Options{Limits: tt.lim})
			p.Write([]byte(tt.in))
			p.Close()
			r := p.Result()
			if r.Head != tt.head {
				t.Errorf("head: got %d lines %.60q…, want %d lines %.60q…", strings.Count(r.Head, "\n"), r.Head, strings.Count(tt.head, "\n"), tt.head)
			}
			if r.Tail != tt.tail {
				t.Errorf("tail: got %d lines %.60q…, want %d lines %.60q…", strings.Count(r.Tail, "\n"), r.Tail, strings.Count(tt.tail, "\n"), tt.tail)
			}
			if r.Truncation.TruncatedBy != tt.by {
				t.Errorf("truncated_by = %q, want %q", r.Truncation.TruncatedBy, tt.by)
			}
			if r.Truncation.OutputLines != tt.outLines {
				t.Errorf("output_lines = %d, want %d", r.Truncation.OutputLines, tt.outLines)
			}
		})
	}
}

func TestShownLinesNotice(t *testing.T) {
	p := New(Options{Limits: Limits{Strategy: HeadTail, HeadShare: 0.5, MaxLines: 2000, MaxBytes: 50 * 1024, ShownLines: 1000}})
	p.Write([]byte(numbered(8432)))
	p.Close()
	r := p.Result()
	if want := "[stdout: showing lines 1-500 and 7933-8432 of 8432]"; r.Notice("stdout") != want {
		t.Errorf("notice = %q, want %q", r.Notice("stdout"), want)
	}
	if want := "[... 7432 lines ("; !strings.Contains(r.Text(), want) {
		t.Errorf("text has no marker %q", want)
	}
}

func TestShownLinesValidate(t *testing.T) {
	l := DefaultLimits
	l.ShownLines = -1
	if l.Validate() == nil {
		t.Error("a negative ShownLines validated")
	}
	l.ShownLines = 0
	if err := l.Validate(); err != nil {
		t.Errorf("ShownLines 0: %v", err)
	}
}
