//go:build unix

package shell

import (
	"context"
	"strings"
	"testing"

	"github.com/spillway-dev/spillway/tool"
)

// A panic in a goroutine a call starts (the wait for the shell's exit,
// a reader of its output, the history's record) is that call's error, or
// its job's, and the next call answers: the process lives.
func TestGoroutinePanicIsTheCallsError(t *testing.T) {
	defer panicAt.Store(nil)
	sh := testRunner(t, defaultConfig(t), defaultStore())
	ctx := context.Background()
	for _, where := range []string{
		"the wait for the command's exit",
		"the reader of the command's stdout",
		"the reader of the command's stderr",
		"the history's record of the call",
	} {
		hook := func(at string) {
			if at == where {
				panic("injected")
			}
		}
		panicAt.Store(&hook)
		res, err := sh.Run(ctx, tool.BashInput{Command: "echo hi"})
		panicAt.Store(nil)
		want := "internal error in " + where + " (injected)"
		if err == nil || !strings.Contains(err.Error(), want) {
			// The history's goroutine may fail after the call returned:
			// its record then says so (125), unless the call, which
			// completes the record itself once the job has ended, did
			// so first: the record then holds the true exit, and the
			// goroutine's failure lost nothing.
			recs := sh.History()
			last := recs[len(recs)-1]
			said := last.ExitCode != nil && (*last.ExitCode == 125 || *last.ExitCode == 0 && strings.Contains(res.Text, "exit code: 0"))
			if where != "the history's record of the call" || last.Running || !said {
				t.Errorf("%s panicked: the call gave %v, %q; its record %+v", where, err, res.Text, last)
			}
		}
		if res, err := sh.Run(ctx, tool.BashInput{Command: "echo ok"}); err != nil || !strings.Contains(res.Text, "ok") {
			t.Fatalf("after a panic in %s, the next call: %v %q", where, err, res.Text)
		}
	}
}
