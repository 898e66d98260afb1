package golden

import (
	"github.com/spillway-dev/spillway/output"

	"fmt"
	"maps"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// Everything that differs from run to run is replaced by these rules, in
// this order, and by nothing else: the work root (by $ROOT, first, in
// apply), the rules below, then pids (pidRE, pidListRE). Each rule matches
// the value in its context only (a pid after "pid", a duration in the
// phrases that print one), so that the same digits elsewhere are still
// compared. Token counts are not replaced but carried across these
// replacements (adjustTokens), so that they are compared too.

// dur is a Go time.Duration as printed: "0s", "36ms", "2.8s", "1m2.5s".
const dur = `(?:\d+h)?(?:\d+m)?\d+(?:\.\d+)?(?:s|ms|µs|ns)`

var rules = []struct {
	re   *regexp.Regexp
	repl string
	why  string
}{
	{
		regexp.MustCompile(`spillway-\d+-[0-9a-f]{12}`), "spillway-SERVER",
		"an MCP session's spill directory is named after the server's pid and 6 random bytes",
	},
	{
		regexp.MustCompile(`spillway-\d+/cli/`), "spillway-UID/cli/",
		"the CLI's spill directory is named after the user id (one length per machine)",
	},
	{
		regexp.MustCompile(`([a-z_]+-\d+-[a-z]+)-[0-9a-f]{8}\.log`), "$1-RANDOM.log",
		"the CLI's spill files, in a directory all CLI runs share, end in 4 random bytes",
	},
	{
		regexp.MustCompile(`(\((?:for )?)` + dur + `( so far\))`), "${1}DURATION$2",
		"how long a job has run, in a check_pid result",
	},
	{
		regexp.MustCompile(`(run )` + dur + `( ago)`), "${1}DURATION$2",
		"how long ago a call ran, in a history entry",
	},
	{
		regexp.MustCompile(`(?m)((?:^|\\n|"text":")(?:#\d+|pid \S+) [^"\n]*?)` + dur + `( |$)`), "${1}DURATION$2",
		"the run time on a line of the history and jobs lists",
	},
	{
		regexp.MustCompile(`(\\*"(?:duration_ms|duration|durationMs|elapsed_ms)\\*":\s*)\d+`), "${1}N_MS",
		"the run time of a call in JSON",
	},
	{
		regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)`), "TIME",
		"when a call started, in JSON",
	},
}

// pidRE finds a pid where the tools print one: "pid 123", "check_pid=123",
// "background job 123", `"pid": 123` (also escaped inside a JSON
// string). Pids are renamed PID1, PID2, … in the order a session first
// shows them, so that a mix-up of two jobs still shows.
var pidRE = regexp.MustCompile(`((?:^|[^a-z]|\\n)(?:pid|check_pid|kill_pid|background job)\\*"?\s*[:= ]\s*)(\d+)`)

// pidListRE finds the list of pids an unknown pid's error gives.
var (
	pidListRE = regexp.MustCompile(`(known pids: )(\d+(?:, \d+)*)`)
	numRE     = regexp.MustCompile(`\d+`)
)

// Numbers below 300 are never pids of a job (Linux gives those out first
// only at boot), and 999999 is the unknown pid the error cases send.
func isPID(n int) bool { return n >= 300 && n != 999999 }

var tokensRE = regexp.MustCompile(`(\\*"tokens\\*":\s*)(\d+)`)

// normalizer applies the rules. One is made per CLI case and per MCP
// session, so that a pid keeps its name throughout a session.
type normalizer struct {
	e    env
	pids map[string]string
}

func newNormalizer(e env) *normalizer {
	return &normalizer{e: e, pids: map[string]string{}}
}

// apply replaces the work root and runs the rules over s.
func (n *normalizer) apply(s string) string {
	s = strings.ReplaceAll(s, n.e.root, "$ROOT")
	if real, err := filepath.EvalSymlinks(n.e.root); err == nil && real != n.e.root {
		s = strings.ReplaceAll(s, real, "$ROOT")
	}
	for _, r := range rules {
		s = r.re.ReplaceAllString(s, r.repl)
	}
	s = pidRE.ReplaceAllStringFunc(s, func(m string) string {
		sub := pidRE.FindStringSubmatch(m)
		return sub[1] + n.pid(sub[2])
	})
	return pidListRE.ReplaceAllStringFunc(s, func(m string) string {
		sub := pidListRE.FindStringSubmatch(m)
		return sub[1] + numRE.ReplaceAllStringFunc(sub[2], n.pid)
	})
}

// pid names a pid PID1, PID2, … in the order the session shows them.
func (n *normalizer) pid(s string) string {
	if v, _ := strconv.Atoi(s); !isPID(v) {
		return s
	}
	name, ok := n.pids[s]
	if !ok {
		name = fmt.Sprintf("PID%d", len(n.pids)+1)
		n.pids[s] = name
	}
	return name
}

// finish normalizes rec, the record of one result whose texts are what a
// model reads (the candidates for what its token count counts), carries
// each token count across the replacements (adjustTokens), and squeezes
// runs of numbers.
func (n *normalizer) finish(rec string, texts ...string) string {
	// The texts are normalized by a copy, so that the pids are named in
	// the order the record shows them.
	c := &normalizer{e: n.e, pids: maps.Clone(n.pids)}
	var raw, delta []int
	for _, t := range texts {
		r := output.EstimateTokensString(t)
		raw = append(raw, r)
		delta = append(delta, output.EstimateTokensString(tokensRE.ReplaceAllString(c.apply(t), "${1}N"))-r)
	}
	rec = n.apply(rec)
	rec = tokensRE.ReplaceAllStringFunc(rec, func(m string) string {
		sub := tokensRE.FindStringSubmatch(m)
		v, _ := strconv.Atoi(sub[2])
		adjusted, exact := adjustTokens(v, raw, delta)
		if !exact {
			// The count is of a text the record does not hold (the CLI
			// prints its hints as commands, the count is of the model's
			// text): what the replacements changed in it cannot be known,
			// and random parts of paths move it from run to run.
			return sub[1] + "N"
		}
		return sub[1] + strconv.Itoa(adjusted)
	})
	return squeezeRuns(rec)
}

// adjustTokens carries a reported token count v across the replacements:
// a pid or a duration of another length, or random hex, changes the
// estimate of the text it is in. v is matched with the text whose
// estimate is nearest (today v is exactly the estimate of the text the
// model reads), and moved by what the replacements changed in that
// estimate. A count that stops following its text still shows, as a
// difference.
//
// exact reports whether v is the estimate of one of the texts.
func adjustTokens(v int, raw, delta []int) (adjusted int, exact bool) {
	best := -1
	for i, r := range raw {
		if best < 0 || abs(v-r) < abs(v-raw[best]) {
			best = i
		}
	}
	if best < 0 {
		return v, false
	}
	return v + delta[best], v == raw[best]
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

var (
	runLines   = regexp.MustCompile(`(?:\d+\n){8,}`)
	runEscaped = regexp.MustCompile(`(?:\d+\\n){8,}`)
)

// squeezeRuns writes each run of 8 or more consecutive numbers, one a line
// ("1\n2\n…"), as one line "⟦1..800⟧", raw or inside a JSON string. It
// loses nothing (the run can be written out again exactly) and keeps the
// cut results of `seq` and of big.txt readable.
func squeezeRuns(s string) string {
	s = runLines.ReplaceAllStringFunc(s, func(m string) string { return squeeze(m, "\n") })
	return runEscaped.ReplaceAllStringFunc(s, func(m string) string { return squeeze(m, `\n`) })
}

func squeeze(m, sep string) string {
	nums := strings.Split(strings.TrimSuffix(m, sep), sep)
	var b strings.Builder
	for i := 0; i < len(nums); {
		j := i + 1
		for j < len(nums) && canonical(nums[j-1]) && canonical(nums[j]) && atoi(nums[j]) == atoi(nums[j-1])+1 {
			j++
		}
		if j-i >= 8 {
			b.WriteString("⟦" + nums[i] + ".." + nums[j-1] + "⟧" + sep)
		} else {
			for _, x := range nums[i:j] {
				b.WriteString(x + sep)
			}
		}
		i = j
	}
	return b.String()
}

func canonical(s string) bool { return strconv.Itoa(atoi(s)) == s }

func atoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		return -1
	}
	return n
}
