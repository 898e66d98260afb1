// Command facts scores what a model reads of real tools' outputs: for
// every case of a corpus (testdata/facts: NAME.sh prints the output and
// exits with the tool's code, NAME.facts lists what a model needs from
// it, one "what<TAB>regexp" a line), it counts the facts the text holds
// and the characters it spends, through spillway's CLI fitted to a
// client (spillway bash --client NAME) and through a model of that
// client's own shell tool's cut.
//
// Usage:
//
//	go run ./bench/facts -spillway BIN [-spillway BIN2 ...] [-client claude-code,codex] [-v]
//
// Each -spillway binary is a column (today's build beside a new one);
// -show NAME prints the texts of one case.
package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"
)

type fact struct {
	what string
	re   *regexp.Regexp
}

type corpusCase struct {
	name  string
	facts []fact
}

type binaries []string

func (b *binaries) String() string     { return strings.Join(*b, ",") }
func (b *binaries) Set(s string) error { *b = append(*b, s); return nil }

func main() {
	var bins binaries
	flag.Var(&bins, "spillway", "a spillway binary to score (repeatable: one column each)")
	dir := flag.String("dir", "testdata/facts", "the corpus")
	clients := flag.String("client", "claude-code,codex", "the clients, comma-separated")
	show := flag.String("show", "", "print the texts of this case")
	verbose := flag.Bool("v", false, "name each fact missed")
	flag.Parse()
	if len(bins) == 0 {
		fmt.Fprintln(os.Stderr, "facts: give at least one -spillway binary")
		os.Exit(2)
	}
	cases, err := loadCorpus(*dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "facts:", err)
		os.Exit(1)
	}
	for _, client := range strings.Split(*clients, ",") {
		if err := score(client, cases, bins, *dir, *show, *verbose); err != nil {
			fmt.Fprintln(os.Stderr, "facts:", err)
			os.Exit(1)
		}
	}
}

func loadCorpus(dir string) ([]corpusCase, error) {
	scripts, err := filepath.Glob(filepath.Join(dir, "*.sh"))
	if err != nil {
		return nil, err
	}
	sort.Strings(scripts)
	var out []corpusCase
	for _, s := range scripts {
		name := strings.TrimSuffix(filepath.Base(s), ".sh")
		f, err := os.Open(filepath.Join(dir, name+".facts"))
		if err != nil {
			return nil, fmt.Errorf("case %s has no facts: %v", name, err)
		}
		c := corpusCase{name: name}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			line := sc.Text()
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			what, re, ok := strings.Cut(line, "\t")
			if !ok {
				f.Close()
				return nil, fmt.Errorf("%s.facts: %q: want what<TAB>regexp", name, line)
			}
			rx, err := regexp.Compile(re)
			if err != nil {
				f.Close()
				return nil, fmt.Errorf("%s.facts: %v", name, err)
			}
			c.facts = append(c.facts, fact{what, rx})
		}
		f.Close()
		out = append(out, c)
	}
	return out, nil
}

// A column's score on one case.
type cell struct {
	kept, total int
	chars       int
	missed      []string
}

func (c cell) String() string { return fmt.Sprintf("%d/%d, %s", c.kept, c.total, thousands(c.chars)) }

func score(client string, cases []corpusCase, bins []string, dir, show string, verbose bool) error {
	fmt.Printf("\n### --client %s\n\n| case |", client)
	for _, b := range bins {
		fmt.Printf(" %s |", filepath.Base(b))
	}
	fmt.Printf(" %s's own tool |\n|---|", client)
	for range bins {
		fmt.Print("---|")
	}
	fmt.Println("---|")
	sums := make([]cell, len(bins)+1)
	var notes []string
	for _, c := range cases {
		var row []cell
		for _, b := range bins {
			text, err := spillway(b, client, dir, c.name)
			if err != nil {
				return err
			}
			row = append(row, count(c, text, false))
			if show == c.name {
				fmt.Printf("----- %s, %s:\n%s\n-----\n", b, client, text)
			}
		}
		text, code, err := own(client, dir, c.name)
		if err != nil {
			return err
		}
		if show == c.name {
			fmt.Printf("----- %s's own tool:\n%s\n-----\n", client, text)
		}
		row = append(row, count(c, text, code == 0 && client == "claude-code"))
		fmt.Printf("| %s |", c.name)
		for i, x := range row {
			fmt.Printf(" %s |", x)
			sums[i].kept += x.kept
			sums[i].total += x.total
			sums[i].chars += x.chars
			if verbose && len(x.missed) > 0 {
				col := client + "'s own tool"
				if i < len(bins) {
					col = filepath.Base(bins[i])
				}
				notes = append(notes, fmt.Sprintf("%s, %s: missed %s", c.name, col, strings.Join(x.missed, "; ")))
			}
		}
		fmt.Println()
	}
	fmt.Print("| **all** |")
	for _, s := range sums {
		fmt.Printf(" **%s** |", s)
	}
	fmt.Println()
	for _, n := range notes {
		fmt.Println("-", n)
	}
	return nil
}

// count scores text: the facts it holds and its characters. A success
// that the client's own tool shows without an exit code (it is not an
// error) still tells the model the command succeeded: exitImplied.
func count(c corpusCase, text string, exitImplied bool) cell {
	x := cell{total: len(c.facts), chars: utf8.RuneCountInString(text)}
	for _, f := range c.facts {
		if f.re.MatchString(text) || exitImplied && strings.HasPrefix(f.what, "exit code") {
			x.kept++
		} else {
			x.missed = append(x.missed, f.what)
		}
	}
	return x
}

// spillway is the text spillway's bash gives the model of the case.
func spillway(bin, client, dir, name string) (string, error) {
	cmd := exec.Command(bin, "bash", "--client", client, "--cwd", dir, "bash "+name+".sh")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) {
		return "", fmt.Errorf("%s bash %s: %v\n%s", bin, name, err, errb.String())
	}
	return strings.TrimSuffix(out.String(), "\n"), nil
}

// own is the text the client's own shell tool gives the model of the
// case, as docs/performance.md models each client's cut, and the exit
// code.
func own(client, dir, name string) (string, int, error) {
	cmd := exec.Command("bash", name+".sh")
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	code := 0
	if err := cmd.Run(); err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			return "", 0, err
		}
		code = exit.ExitCode()
	}
	text := out.String()
	switch client {
	case "claude-code":
		return claudeCodeBash(text, code, name), code, nil
	case "codex":
		return codexShell(text, code), code, nil
	}
	return "", 0, fmt.Errorf("no model of %s's own tool", client)
}

// claudeCodeBash models Claude Code's Bash: an output up to 30,000
// characters whole; a longer success saved to a file of its own and
// shown as its first 2 KB; a failure shown as its first and last 5,000
// characters, the middle cut.
func claudeCodeBash(out string, code int, name string) string {
	const limit, preview, errorEnd = 30_000, 2_000, 5_000
	n := utf8.RuneCountInString(out)
	if code != 0 {
		head := fmt.Sprintf("Exit code %d\n", code)
		if n <= 2*errorEnd {
			return head + out
		}
		r := []rune(out)
		return head + string(r[:errorEnd]) + fmt.Sprintf("\n\n... [%d characters truncated] ...\n\n", n-2*errorEnd) + string(r[n-errorEnd:])
	}
	if n <= limit {
		return out
	}
	r := []rune(out)
	return fmt.Sprintf("<persisted-output>\nOutput too large (%.1fKB). Full output saved to: /root/.claude/projects/-work/tool-results/%s.txt\n\nPreview (first 2KB):\n%s\n...\n</persisted-output>",
		float64(len(out))/1024, name, string(r[:preview]))
}

// codexShell models Codex's shell tool: the exit code and wall time,
// then an output up to 10 KiB whole, a longer one as its first and last
// 5 KiB of whole lines with the number of lines left out between.
func codexShell(out string, code int) string {
	const half = 5 * 1024
	head := fmt.Sprintf("Exit code: %d\nWall time: 0.4 seconds\n", code)
	if len(out) <= 2*half {
		return head + "Output:\n" + out
	}
	lines := strings.Count(out, "\n")
	h := out[:half]
	if i := strings.LastIndexByte(h, '\n'); i >= 0 {
		h = h[:i+1]
	}
	t := out[len(out)-half:]
	if i := strings.IndexByte(t, '\n'); i >= 0 {
		t = t[i+1:]
	}
	omitted := lines - strings.Count(h, "\n") - strings.Count(t, "\n")
	return head + fmt.Sprintf("Total output lines: %d\nOutput:\n%s[... omitted %d of %d lines ...]\n\n%s", lines, h, omitted, lines, t)
}

func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
