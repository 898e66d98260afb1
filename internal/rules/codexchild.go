package rules

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime/debug"
	"sync"
	"time"
)

// A Codex rules file is a program: a few lines of Starlark can ask for
// gigabytes ("a"*(1<<28)) or spend minutes in one string method that
// the interpreter's step count sees as one step. It is therefore run in
// a child process, this very executable started again with
// childEnv set, under a memory ceiling (RLIMIT_AS where the system
// enforces it, its resident size watched where not) and a wall-clock
// deadline after which it is killed. Whatever the file does, the
// server's own memory and time stay its own, and the file is an import
// failure that names it.

// childEnv, set to "1", makes a process that links this package a rules
// evaluator: it reads one codexJob on stdin, writes one codexResult on
// stdout, and exits.
const childEnv = "SPILLWAY_INTERNAL_RULES_CHILD"

// Limits of a rules evaluator.
const (
	// ChildMemory is the most the evaluator may add to its address space
	// past what it had when it started: a rules file a person writes
	// needs a few megabytes.
	ChildMemory = 128 << 20
	// ChildTime is how long one rules file may run before its
	// evaluator is killed.
	ChildTime = 3 * time.Second
	// ImportTime is how long the rules files of one import may run
	// together: a file after it is an import failure, not run.
	ImportTime = 8 * time.Second
	// maxChildOutput caps what the evaluator may answer.
	maxChildOutput = 16 << 20
)

func init() {
	if os.Getenv(childEnv) == "1" {
		os.Exit(runChild(os.Stdin, os.Stdout))
	}
}

// codexJob is one rules file for the evaluator: the host executables
// of the files before it carry over, as Codex's loader keeps them.
type codexJob struct {
	File      string              `json:"file"`
	Home      string              `json:"home"`
	Src       []byte              `json:"src"`
	HostPaths map[string][]string `json:"host_paths"`
}

// codexResult is what the evaluator answers: the file's rules and the
// host executables after it, or the error that makes it a failure.
type codexResult struct {
	Rules     []Rule              `json:"rules"`
	HostPaths map[string][]string `json:"host_paths"`
	Err       *FileError          `json:"err,omitempty"`
	// failure is why the evaluator gave no answer, as kept in the cache.
	failure string
}

// runChild evaluates one job, having first bounded its own memory.
func runChild(in io.Reader, out io.Writer) int {
	limitSelf(ChildMemory)
	debug.SetMemoryLimit(ChildMemory / 2)
	var job codexJob
	if err := json.NewDecoder(io.LimitReader(in, 2*MaxRuleFileBytes+1<<20)).Decode(&job); err != nil {
		fmt.Fprintln(os.Stderr, "rules evaluator:", err)
		return 2
	}
	l := &codexLoader{home: job.Home, hostPaths: job.HostPaths}
	if l.hostPaths == nil {
		l.hostPaths = map[string][]string{}
	}
	var res codexResult
	rules, err := l.run(job.File, job.Src)
	if err != nil {
		var fe *FileError
		if !errors.As(err, &fe) {
			fe = &FileError{File: displayPath(job.File, job.Home), Msg: err.Error()}
		}
		res.Err = fe
	}
	res.Rules, res.HostPaths = rules, l.hostPaths
	if err := json.NewEncoder(out).Encode(res); err != nil {
		return 2
	}
	return 0
}

// codexCache keeps the evaluator's answers by job: every session of a
// server reads the same files, and a file that did not change need not
// run again.
var codexCache = struct {
	sync.Mutex
	m map[[32]byte]codexResult
}{m: map[[32]byte]codexResult{}}

// evalChild runs job in an evaluator by ctx's deadline. The answer is
// kept, a failure too: a file that ran out of time or memory once is
// not run again by this process while it is the same.
func evalChild(ctx context.Context, job codexJob) (codexResult, error) {
	in, err := json.Marshal(job)
	if err != nil {
		return codexResult{}, err
	}
	key := sha256.Sum256(in)
	codexCache.Lock()
	res, ok := codexCache.m[key]
	codexCache.Unlock()
	if ok {
		if res.failure != "" {
			return codexResult{}, errors.New(res.failure)
		}
		return res, nil
	}
	res, err = runEvaluator(ctx, in)
	if err != nil {
		res = codexResult{failure: err.Error()}
	}
	codexCache.Lock()
	if len(codexCache.m) > 256 {
		clear(codexCache.m)
	}
	codexCache.m[key] = res
	codexCache.Unlock()
	return res, err
}

// runEvaluator starts an evaluator on the job in and reads its answer.
func runEvaluator(ctx context.Context, in []byte) (codexResult, error) {
	var res codexResult
	exe, err := os.Executable()
	if err != nil {
		return codexResult{}, fmt.Errorf("cannot start the rules evaluator: %v", err)
	}
	cmd := exec.CommandContext(ctx, exe)
	cmd.Env = []string{childEnv + "=1", "GOMAXPROCS=1", "GOTRACEBACK=none"}
	cmd.Stdin = bytes.NewReader(in)
	var stdout, stderr limitedBuffer
	stdout.max, stderr.max = maxChildOutput, 4<<10
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = time.Second
	if err := cmd.Start(); err != nil {
		return codexResult{}, fmt.Errorf("cannot start the rules evaluator: %v", err)
	}
	stop := watchChild(ctx, cmd.Process, ChildMemory)
	err = cmd.Wait()
	over := stop()
	switch {
	case over:
		return codexResult{}, fmt.Errorf("evaluating it took more than %d MB of memory: it was stopped", ChildMemory>>20)
	case ctx.Err() != nil:
		return codexResult{}, fmt.Errorf("evaluating it took too long (each file may take %s, the files of one import %s): it was stopped", ChildTime, ImportTime)
	case err != nil:
		msg := bytes.TrimSpace(stderr.Bytes())
		if bytes.Contains(msg, []byte("out of memory")) || bytes.Contains(msg, []byte("cannot allocate memory")) {
			return codexResult{}, fmt.Errorf("evaluating it took more than %d MB of memory: it was stopped", ChildMemory>>20)
		}
		if len(msg) > 200 {
			msg = msg[:200]
		}
		return codexResult{}, fmt.Errorf("the rules evaluator failed (%v): %s", err, msg)
	}
	if stdout.over {
		return codexResult{}, fmt.Errorf("evaluating it made more than %d bytes of rules", maxChildOutput)
	}
	if err := json.Unmarshal(stdout.Bytes(), &res); err != nil {
		return codexResult{}, fmt.Errorf("the rules evaluator answered nonsense: %v", err)
	}
	return res, nil
}

// limitedBuffer keeps the first max bytes written to it.
type limitedBuffer struct {
	bytes.Buffer
	max  int
	over bool
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.Len(); len(p) > room {
		b.over = true
		b.Buffer.Write(p[:max(room, 0)])
		return len(p), nil
	}
	return b.Buffer.Write(p)
}
