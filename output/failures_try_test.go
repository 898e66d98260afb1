package output

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

func TestFailuresTry(t *testing.T) {
	dir := t.TempDir()
	p := New(Options{Limits: DefaultLimits, Spill: func() (Spill, error) {
		f, err := os.Create(dir + "/s.log")
		return fileSpill{f}, err
	}})
	var b strings.Builder
	for i := 1; i <= 30002; i++ {
		switch i {
		case 15001:
			b.WriteString("main.go:42:7: error: undefined: fooBar\n")
		case 15002:
			b.WriteString("--- FAIL: TestParse (0.00s)\n")
		default:
			fmt.Fprintf(&b, "line %d ok\n", i)
		}
	}
	p.Write([]byte(b.String()))
	p.Close()
	r := p.Result()
	txt := r.Text()
	i := strings.Index(txt, "[...")
	t.Log(txt[i-100 : i+900])
	t.Log(r.Notice("stdout"), r.Next(), r.Failures, r.FailuresCut, r.FailureLines)
}

type fileSpill struct{ *os.File }

func (f fileSpill) Path() string { return f.Name() }
