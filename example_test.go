package spillway_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"strings"
	"time"

	"github.com/spillway-dev/spillway"
	"github.com/spillway-dev/spillway/output"
)

// A toolset is one agent session: run a command and show the model its
// result. Output that does not fit would be cut, with a notice naming the
// spill file that holds all of it.
func Example() {
	ts, err := spillway.New(spillway.Options{Cwd: os.TempDir()})
	if err != nil {
		log.Fatal(err)
	}
	defer ts.Close() // kills background jobs, removes the spill directory

	res, err := ts.Bash(context.Background(), spillway.BashInput{Command: "echo hello; echo oops >&2; exit 3"})
	if err != nil {
		log.Fatal(err) // the command could not be run
	}
	fmt.Println(res.Text)
	fmt.Println("is_error:", res.IsError, "exit_code:", *res.Details.ExitCode)
	// Output:
	// stdout:
	// hello
	//
	// stderr:
	// oops
	//
	// exit code: 3
	// is_error: true exit_code: 3
}

// A result that does not fit shows what tells something: of seq, its first
// and last lines and one line for the 99,998 of one shape between them; the
// spill file has it all.
func ExampleToolset_Bash_truncated() {
	ts, err := spillway.New(spillway.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer ts.Close()

	res, err := ts.Bash(context.Background(), spillway.BashInput{Command: "seq 1 100000"})
	if err != nil {
		log.Fatal(err)
	}
	out := res.Details.Stdout
	fmt.Println("shown lines:", out.Truncation.OutputLines, "of", out.Truncation.TotalLines)
	fmt.Println("spilled:", strings.HasPrefix(out.FullOutputPath, ts.SpillDir()))
	// Output:
	// shown lines: 2 of 100000
	// spilled: true
}

// A server runs in the background; its new output is polled with CheckJob
// and it is stopped with KillJob.
func ExampleToolset_CheckJob() {
	ts, err := spillway.New(spillway.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer ts.Close()
	ctx := context.Background()

	res, err := ts.Bash(ctx, spillway.BashInput{Command: "echo listening; sleep 60", RunInBackground: true})
	if err != nil {
		log.Fatal(err)
	}
	job := res.Details.PID
	for seen := res.Content; !strings.Contains(seen, "listening"); { // the start may have shown it already
		res, err = ts.CheckJob(ctx, spillway.CheckJobInput{PID: job})
		if err != nil {
			log.Fatal(err)
		}
		seen += res.Content
		time.Sleep(10 * time.Millisecond)
	}
	fmt.Println("running:", res.Details.Running)
	res, err = ts.KillJob(ctx, spillway.KillJobInput{PID: job})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("stopped by:", res.Details.Signal)
	// Output:
	// running: true
	// stopped by: SIGTERM
}

// The truncation engine works on any io.Reader or as an io.Writer.
func Example_pipeline() {
	p := output.New(output.Options{Limits: output.Limits{Strategy: output.Tail, MaxLines: 3, MaxBytes: 1024}})
	fmt.Fprint(p, "\x1b[32mone\x1b[0m\ntwo\nthree\n10%\r50%\r100%\nfive\n")
	p.Close()
	r := p.Result()
	fmt.Print(r.Text())
	fmt.Println(r.Notice("stdout"))
	// Output:
	// three
	// 100%
	// five
	// [stdout: showing lines 3-5 of 5]
}
