package spillway_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pelletier/go-toml/v2"
)

// The README is run as a newcomer runs it: every shell block in order, in
// a home of the test's own, and every output block compared with what the
// block before it printed. A block that cannot run here says why in an
// HTML comment on the line before it ("<!-- not run: REASON -->"); the
// test lists those. In docs/*.md, a transcript block ("$ COMMAND" and
// what it prints) runs the same way, in a directory holding the nearest
// TOML block above it as spillway.toml, and so does a block that shows
// what a command prints, named in a comment above it
// ("<!-- run: COMMAND -->"); every other plain or text block says why it
// is not run, or what it shows that is not an output
// ("<!-- not output: WHAT -->").

// A docBlock is a fenced block with the HTML comment on the line above it.
type docBlock struct {
	block
	notRun string // the reason it cannot run, from <!-- not run: … -->
	// run is the command whose output the block is, from
	// <!-- run: COMMAND --> (a docs/ block that shows an output whose
	// command the prose gives).
	run string
	// notOutput says what a docs/ block shows that is not an output (a
	// diagram, calls, a command line), from <!-- not output: … -->.
	notOutput string
}

var (
	notRunComment    = regexp.MustCompile(`^<!-- not run: (.+) -->$`)
	runComment       = regexp.MustCompile(`^<!-- run: (.+) -->$`)
	notOutputComment = regexp.MustCompile(`^<!-- not output: (.+) -->$`)
)

func docBlocks(t *testing.T, file string) []docBlock {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	var out []docBlock
	for _, b := range blocks(t, file) {
		d := docBlock{block: b}
		// A block in a list item is indented as its fence is: its text
		// is what follows that indentation.
		if indent := lines[b.line-2][:len(lines[b.line-2])-len(strings.TrimLeft(lines[b.line-2], " "))]; indent != "" {
			code := strings.Split(d.code, "\n")
			for i := range code {
				code[i] = strings.TrimPrefix(code[i], indent)
			}
			d.code = strings.Join(code, "\n")
		}
		// b.line is the block's first line of code; its fence is the
		// line before, and the comments the lines right above that (a
		// marker another test looks for may sit between).
		for i := b.line - 3; i >= 0 && strings.HasPrefix(strings.TrimSpace(lines[i]), "<!--"); i-- {
			line := strings.TrimSpace(lines[i])
			if m := notRunComment.FindStringSubmatch(line); m != nil {
				d.notRun = m[1]
			}
			if m := runComment.FindStringSubmatch(line); m != nil {
				d.run = m[1]
			}
			if m := notOutputComment.FindStringSubmatch(line); m != nil {
				d.notOutput = m[1]
			}
		}
		out = append(out, d)
	}
	return out
}

// spillFile is a CLI spill file's path: its directory and hash differ from
// run to run and machine to machine.
var spillFile = regexp.MustCompile(`\S*/((?:bash|read|grep|find|ls)-\d+-[a-z]+)(?:-[0-9a-f]+)?\.log`)

// normalise makes the output of one run comparable with a documented one.
func normalise(s string) string {
	s = spillFile.ReplaceAllString(s, "SPILL/$1-HASH.log")
	return strings.TrimRight(s, "\n")
}

// newcomerEnv is a fresh home with nothing of the person's: the Go caches
// are shared (read as a cache), GOPATH is the home's, so go install puts
// spillway where the README says and nowhere else.
func newcomerEnv(t *testing.T) (env []string, home string) {
	t.Helper()
	home = t.TempDir()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go is not on PATH")
	}
	cache := func(name string) string {
		out, err := exec.Command("go", "env", name).Output()
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(out))
	}
	tmp := filepath.Join(home, "tmp")
	os.Mkdir(tmp, 0o700)
	env = []string{
		"HOME=" + home,
		"PATH=" + filepath.Dir(goBin) + ":/usr/local/bin:/usr/bin:/bin",
		"GOPATH=" + filepath.Join(home, "go"),
		"GOMODCACHE=" + cache("GOMODCACHE"),
		"GOCACHE=" + cache("GOCACHE"),
		"GOFLAGS=-mod=mod",
		"GOPROXY=off",
		"GOTOOLCHAIN=local",
		"TMPDIR=" + tmp,
		"LANG=C.UTF-8",
	}
	return env, home
}

func TestREADMERuns(t *testing.T) {
	if testing.Short() {
		t.Skip("installs and runs spillway as the README says")
	}
	env, home := newcomerEnv(t)
	env = append(env, "README_STATE="+filepath.Join(home, ".readme-state"))
	var notRun []string
	ran, compared, parsed := 0, 0, 0
	var last *docBlock // the last shell block, for an output block
	var lastOut string
	lastRan := false
	for _, b := range docBlocks(t, "README.md") {
		where := fmt.Sprintf("README.md:%d", b.line)
		switch b.lang {
		case "sh":
			last = &b
			lastRan = false
			if b.notRun != "" {
				notRun = append(notRun, where+": "+b.notRun)
				continue
			}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			// One shell session, as a person's terminal is: what a
			// block exports (PATH) holds for the blocks after it.
			script := "[ -f \"$README_STATE\" ] && . \"$README_STATE\"\n" + b.code +
				"\nexport -p > \"$README_STATE\"\n"
			cmd := exec.CommandContext(ctx, "bash", "-e", "-o", "pipefail", "-c", script)
			cmd.Env = env
			cmd.Stdin = nil
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			cancel()
			if err != nil {
				t.Errorf("%s: %v\n%s\nstdout:\n%s\nstderr:\n%s", where, err, b.code, stdout.String(), stderr.String())
			}
			lastOut, lastRan = stdout.String(), err == nil
			ran++
		case "text":
			switch {
			case last == nil:
				t.Errorf("%s: an output block with no shell block before it", where)
			case !lastRan && last.notRun != "":
				notRun = append(notRun, where+": the output of a block not run: "+last.notRun)
			case lastRan:
				if got, want := normalise(lastOut), normalise(b.code); got != want {
					t.Errorf("%s: the README shows\n%s\nbut the block before it prints\n%s", where, want, got)
				}
				compared++
			}
		case "json":
			if !json.Valid([]byte(b.code)) {
				t.Errorf("%s: the JSON block does not parse", where)
			}
			parsed++
		case "toml":
			var v map[string]any
			if err := toml.Unmarshal([]byte(b.code), &v); err != nil {
				t.Errorf("%s: the TOML block does not parse: %v", where, err)
			}
			parsed++
		case "go":
			// TestDocsGoBlocksCompile compiles it; example_test.go runs
			// the same calls.
		case "":
			// A diagram, not a command or its output.
		default:
			t.Errorf("%s: a block of language %q: say how it is checked", where, b.lang)
		}
	}
	if ran == 0 || compared == 0 {
		t.Fatalf("%d shell blocks run, %d outputs compared: the README has none?", ran, compared)
	}
	t.Logf("README.md: %d shell blocks run, %d outputs compared, %d JSON/TOML blocks parsed; %d not run:\n  %s",
		ran, compared, parsed, len(notRun), strings.Join(notRun, "\n  "))
}

// transcript is a docs block that shows a command and what it prints.
var transcript = regexp.MustCompile(`^\$ (spillway .*)\n`)

func TestDocsTranscriptsRun(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the binary")
	}
	env, home := newcomerEnv(t)
	bin := filepath.Join(home, "bin")
	if out, err := exec.Command("go", "build", "-o", filepath.Join(bin, "spillway"), "./cmd/spillway").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for i, e := range env {
		if p, ok := strings.CutPrefix(e, "PATH="); ok {
			env[i] = "PATH=" + bin + ":" + p
		}
	}
	files, _ := filepath.Glob("docs/*.md")
	ran, notOutput := 0, 0
	var notRun []string
	for _, file := range files {
		var lastTOML string
		for _, b := range docBlocks(t, file) {
			where := fmt.Sprintf("%s:%d", file, b.line)
			if b.lang == "toml" {
				lastTOML = b.code
			}
			if b.lang != "" && b.lang != "text" {
				continue
			}
			// A block is a transcript ("$ spillway …" and what it
			// prints), the output of the command its comment names, or
			// says why it is not run or what it shows instead: an
			// output nobody runs is an output nobody checks.
			command, shown := "", b.code
			if m := transcript.FindStringSubmatch(b.code); m != nil {
				command, shown = m[1], strings.TrimPrefix(b.code, m[0])
			}
			switch {
			case b.notRun != "":
				notRun = append(notRun, where+": "+b.notRun)
				continue
			case b.notOutput != "":
				notOutput++
				continue
			case b.run != "":
				command, shown = b.run, b.code
			case command == "":
				t.Errorf("%s: a block neither run nor marked: put <!-- run: COMMAND --> (the command it is the output of), <!-- not run: REASON --> or <!-- not output: WHAT IT SHOWS --> on the line before its fence", where)
				continue
			}
			// A directory of the repository, as the docs' examples
			// run in a project (the rules hold allow back in a
			// directory others may write to, as under /tmp).
			dir, err := os.MkdirTemp(".", "_transcript")
			if err != nil {
				t.Fatal(err)
			}
			defer os.RemoveAll(dir)
			if lastTOML != "" {
				// The config shown is the person's own, in its usual
				// place, and a project's copy beside the transcript.
				os.WriteFile(filepath.Join(dir, "spillway.toml"), []byte(lastTOML), 0o644)
				own := filepath.Join(home, ".config", "spillway", "config.toml")
				os.MkdirAll(filepath.Dir(own), 0o700)
				os.WriteFile(own, []byte(lastTOML), 0o600)
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, "bash", "-c", command)
			cmd.WaitDelay = time.Second
			cmd.Dir, cmd.Env = dir, env
			out, err := cmd.Output()
			if _, ok := err.(*exec.ExitError); err != nil && !ok {
				t.Fatal(err)
			}
			if got, want := normalise(strings.ReplaceAll(string(out), home+"/", "~/")), normalise(shown); got != want {
				t.Errorf("%s: the doc shows\n%s\nbut %s prints\n%s", where, want, command, got)
			}
			ran++
		}
	}
	if ran+len(notRun) == 0 {
		t.Fatal("no transcript in docs/")
	}
	t.Logf("docs/: %d outputs run and compared, %d blocks that show no output; %d not run:\n  %s", ran, notOutput, len(notRun), strings.Join(notRun, "\n  "))
}
