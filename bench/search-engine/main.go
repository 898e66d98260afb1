// Command search-engine runs one grep or find of spillway's search engine
// (internal/search) in the working directory and prints the lines it
// found, as `spillway grep` and `spillway find` would, without the rest of the CLI: no
// config, no session, no shell. bench/search.sh times it beside the CLI,
// to tell what the search costs from what starting a session costs.
//
//	search-engine grep PATTERN   (limit 100000, content mode)
//	search-engine find GLOB      (limit 100000)
//
// With SPILLWAY_CPUPROFILE=FILE it writes a CPU profile of the call there
// (go tool pprof FILE).
package main

import (
	"context"
	"fmt"
	"os"
	"runtime/pprof"

	"github.com/spillway-dev/spillway/internal/search"
	"github.com/spillway-dev/spillway/tool"
)

func main() {
	if len(os.Args) != 3 || (os.Args[1] != "grep" && os.Args[1] != "find") {
		fmt.Fprintln(os.Stderr, "usage: search-engine grep PATTERN | search-engine find GLOB")
		os.Exit(2)
	}
	cwd, err := os.Getwd()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if p := os.Getenv("SPILLWAY_CPUPROFILE"); p != "" {
		f, err := os.Create(p)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	s := search.New(search.Config{Cwd: cwd})
	var text string
	if os.Args[1] == "grep" {
		r, err := s.Grep(context.Background(), tool.GrepInput{Pattern: os.Args[2], Limit: 100000})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		text = r.Out.Text()
	} else {
		r, err := s.Find(context.Background(), tool.FindInput{Pattern: os.Args[2], Limit: 100000})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		text = r.Out.Text()
	}
	os.Stdout.WriteString(text + "\n")
}
