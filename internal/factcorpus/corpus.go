// Package factcorpus reads the facts corpus (testdata/facts: NAME.sh
// prints a tool's output and exits with the tool's code, NAME.facts lists
// what a model needs from it, one "what<TAB>regexp" a line) and scores a
// text a model reads of a case: the facts it holds and the characters it
// spends. bench/facts scores spillway's CLI and a model of each client's
// own shell tool with it, and e2e scores what the real clients hand the
// model with the same code.
package factcorpus

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// A Fact is one thing a model must be able to read of a case's output.
type Fact struct {
	What string
	Re   *regexp.Regexp
}

// A Case is one script of the corpus and its facts.
type Case struct {
	Name  string
	Facts []Fact
}

// Load reads the corpus in dir, its cases in name order.
func Load(dir string) ([]Case, error) {
	scripts, err := filepath.Glob(filepath.Join(dir, "*.sh"))
	if err != nil {
		return nil, err
	}
	if len(scripts) == 0 {
		return nil, fmt.Errorf("%s: no NAME.sh in it", dir)
	}
	sort.Strings(scripts)
	var out []Case
	for _, s := range scripts {
		name := strings.TrimSuffix(filepath.Base(s), ".sh")
		c, err := loadFacts(dir, name)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

func loadFacts(dir, name string) (Case, error) {
	b, err := os.ReadFile(filepath.Join(dir, name+".facts"))
	if err != nil {
		return Case{}, fmt.Errorf("case %s has no facts: %v", name, err)
	}
	c := Case{Name: name}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		what, re, ok := strings.Cut(line, "\t")
		if !ok {
			return Case{}, fmt.Errorf("%s.facts: %q: want what<TAB>regexp", name, line)
		}
		rx, err := regexp.Compile(re)
		if err != nil {
			return Case{}, fmt.Errorf("%s.facts: %v", name, err)
		}
		c.Facts = append(c.Facts, Fact{what, rx})
	}
	return c, sc.Err()
}

// Run runs the case's script in dir as a shell tool would, stdout and
// stderr as one stream in the order written, and returns the output and
// the exit code.
func Run(dir, name string) (string, int, error) {
	cmd := exec.Command("bash", name+".sh")
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			return "", 0, err
		}
		return out.String(), exit.ExitCode(), nil
	}
	return out.String(), 0, nil
}
