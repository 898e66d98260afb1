package rules

import (
	"fmt"
	"strings"
)

// An optSpec describes a program's getopt-style options well enough to
// find where its options end: which take an argument, which do not.
// An option it does not list makes the end unknowable, and the caller
// asks rather than guess.
type optSpec struct {
	argShort  string   // short options that take an argument (-n 5, -n5)
	flagShort string   // short options that take none
	argLong   []string // --name VALUE or --name=VALUE
	flagLong  []string // --name, or --name=VALUE for an optional value
	// numeric accepts -N as an option (nice -10).
	numeric bool
	// dashAlone treats a lone "-" as an option (env's "-" is -i).
	dashAlone bool
}

// skipOptions returns the index of the first word after the options of
// words[from:], and the options seen as name → value ("" for a flag).
func (o *optSpec) skipOptions(words []word, from int) (int, map[string]string, error) {
	// Most commands give no option: the map is made for the first.
	var seen map[string]string
	see := func(k, v string) {
		if seen == nil {
			seen = map[string]string{}
		}
		seen[k] = v
	}
	i := from
	for i < len(words) {
		w := words[i]
		if !w.Known {
			if strings.HasPrefix(w.Text, "-") || w.Split {
				return 0, nil, fmt.Errorf("the option %s is known only when it runs", w.Text)
			}
			return i, seen, nil
		}
		t := w.Text
		var err error
		switch {
		case t == "--":
			return i + 1, seen, nil
		case t == "-" && o.dashAlone:
			see("-", "")
		case len(t) < 2 || t[0] != '-':
			return i, seen, nil
		case strings.HasPrefix(t, "--"):
			i, err = o.longOption(words, i, see)
		case o.numeric && allDigits(t[1:]):
			see("-", t[1:])
		default:
			i, err = o.shortOptions(words, i, see)
		}
		if err != nil {
			return 0, nil, err
		}
		i++
	}
	return i, seen, nil
}

// longOption reads the long option words[i] (--name, --name=VALUE or
// --name VALUE) into see, and returns the index of the last word it
// used.
func (o *optSpec) longOption(words []word, i int, see func(k, v string)) (int, error) {
	name, val, hasVal := strings.Cut(words[i].Text[2:], "=")
	switch {
	case contains(o.argLong, name):
		if !hasVal {
			if i+1 >= len(words) {
				return 0, fmt.Errorf("the option --%s has no value", name)
			}
			i++
			val = words[i].Text
		}
		see("--"+name, val)
	case contains(o.flagLong, name):
		see("--"+name, val)
	default:
		return 0, fmt.Errorf("the option --%s is not one spillway knows, so where the command starts is not known", name)
	}
	return i, nil
}

// shortOptions reads the bundled short options of words[i] (-ab, -n5,
// -n 5) into see, and returns the index of the last word it used.
func (o *optSpec) shortOptions(words []word, i int, see func(k, v string)) (int, error) {
	t := words[i].Text
	for j := 1; j < len(t); j++ {
		c := t[j]
		switch {
		case strings.IndexByte(o.argShort, c) >= 0:
			val := t[j+1:]
			if val == "" {
				if i+1 >= len(words) {
					return 0, fmt.Errorf("the option -%c has no value", c)
				}
				i++
				val = words[i].Text
			}
			see("-"+string(c), val)
			return i, nil
		case strings.IndexByte(o.flagShort, c) >= 0:
			see("-"+string(c), "")
		default:
			return 0, fmt.Errorf("the option -%c is not one spillway knows, so where the command starts is not known", c)
		}
	}
	return i, nil
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// A wrapper runs the command given in its arguments: the part is decided
// by that command, and by any rule that names the wrapper itself.
type wrapper struct {
	opts optSpec
	// positional words come between the options and the command
	// (timeout's duration, chroot's directory).
	positional int
	// assigns: NAME=value words may come before the command (env, sudo).
	assigns bool
	// noCommand lists options after which the wrapper runs no command
	// of its arguments (sudo -l lists, sudo -e edits files).
	noCommand []string
	// codeOpt names an option whose value is a shell command string
	// (su -c, flock -c, script -c, env -S splits its value into words).
	codeOpt []string
	// multiCall: the first argument names one of many programs built
	// into one binary; what the applet does may differ from the program
	// of that name, so it is never allowed by that program's rule alone.
	multiCall bool
}

var wrappers = map[string]*wrapper{
	"env": {opts: optSpec{argShort: "uCS", flagShort: "i0v", argLong: []string{"unset", "chdir", "split-string"},
		flagLong: []string{"ignore-environment", "null", "debug", "list-signal-handling", "block-signal", "default-signal", "ignore-signal"}, dashAlone: true},
		assigns: true},
	"command":  {opts: optSpec{flagShort: "pvV"}, noCommand: []string{"-v", "-V"}},
	"builtin":  {},
	"exec":     {opts: optSpec{argShort: "a", flagShort: "cl"}},
	"nice":     {opts: optSpec{argShort: "n", argLong: []string{"adjustment"}, numeric: true}},
	"nohup":    {},
	"timeout":  {opts: optSpec{argShort: "sk", flagShort: "v", argLong: []string{"signal", "kill-after"}, flagLong: []string{"preserve-status", "foreground", "verbose"}}, positional: 1},
	"time":     {opts: optSpec{argShort: "fo", flagShort: "apqv", argLong: []string{"format", "output"}, flagLong: []string{"append", "portability", "quiet", "verbose"}}},
	"stdbuf":   {opts: optSpec{argShort: "ioe", argLong: []string{"input", "output", "error"}}},
	"setsid":   {opts: optSpec{flagShort: "cfw", flagLong: []string{"ctty", "fork", "wait"}}},
	"ionice":   {opts: optSpec{argShort: "cn", flagShort: "t", argLong: []string{"class", "classdata"}, flagLong: []string{"ignore"}}},
	"chrt":     {opts: optSpec{flagShort: "abdefiorRmv", argShort: "TPD", flagLong: []string{"all-tasks", "batch", "deadline", "fifo", "idle", "other", "rr", "reset-on-fork", "verbose"}, argLong: []string{"sched-runtime", "sched-period", "sched-deadline"}}, positional: 1},
	"taskset":  {opts: optSpec{flagShort: "ac", flagLong: []string{"all-tasks", "cpu-list"}}, positional: 1},
	"chroot":   {opts: optSpec{argLong: []string{"userspec", "groups"}, flagLong: []string{"skip-chdir"}}, positional: 1},
	"unbuffer": {opts: optSpec{flagShort: "p"}},
	"sudo": {opts: optSpec{argShort: "CDgpRrTtUu", flagShort: "AbBEeHhiKklnPSsVv",
		argLong:  []string{"chdir", "close-from", "group", "host", "prompt", "chroot", "role", "type", "command-timeout", "other-user", "user"},
		flagLong: []string{"askpass", "background", "bell", "preserve-env", "edit", "help", "set-home", "login", "remove-timestamp", "reset-timestamp", "list", "non-interactive", "preserve-groups", "stdin", "shell", "version", "validate"}},
		assigns: true, noCommand: []string{"-e", "--edit", "-l", "--list", "-v", "--validate", "-V", "--version", "-K", "--remove-timestamp", "-h", "--help"}},
	"doas":    {opts: optSpec{argShort: "uC", flagShort: "nsL"}, noCommand: []string{"-C", "-L"}},
	"pkexec":  {opts: optSpec{argLong: []string{"user"}, flagLong: []string{"disable-internal-agent", "keep-cwd"}}},
	"strace":  {opts: optSpec{argShort: "aeoOpPsSuEXIb", flagShort: "cCdDfFhiqrtTvVwxyzZk"}},
	"flock":   {opts: optSpec{argShort: "wEc", flagShort: "sxeunoFh", argLong: []string{"timeout", "wait", "conflict-exit-code", "command"}, flagLong: []string{"shared", "exclusive", "unlock", "nonblock", "nb", "close", "no-fork", "verbose"}}, positional: 1, codeOpt: []string{"-c", "--command"}},
	"su":      {opts: optSpec{argShort: "cCgGsw", flagShort: "lmpPfh", argLong: []string{"command", "session-command", "group", "supp-group", "shell", "whitelist-environment"}, flagLong: []string{"login", "preserve-environment", "pty", "fast"}, dashAlone: true}, codeOpt: []string{"-c", "--command", "--session-command", "-C"}},
	"runuser": {opts: optSpec{argShort: "cgGsuw", flagShort: "lmpPfh", argLong: []string{"command", "session-command", "group", "supp-group", "shell", "user", "whitelist-environment"}, flagLong: []string{"login", "preserve-environment", "pty", "fast"}, dashAlone: true}, codeOpt: []string{"-c", "--command", "--session-command"}},
	"script":  {opts: optSpec{argShort: "cEIOBmTt", flagShort: "aefqh", argLong: []string{"command", "echo", "log-in", "log-out", "log-io", "log-timing", "logging-format", "output-limit", "timing"}, flagLong: []string{"append", "return", "flush", "force", "quiet"}}, codeOpt: []string{"-c", "--command"}},
	"busybox": {multiCall: true},
	"toybox":  {multiCall: true},
}

// shells read their -c string, a script file, or stdin as shell code.
var shells = map[string]bool{
	"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "mksh": true,
	"ash": true, "yash": true, "posh": true, "rbash": true, "ksh93": true, "pdksh": true, "lksh": true,
}

// otherShells run code in a language that is not bash's: their code
// can never be read here.
var otherShells = map[string]bool{"fish": true, "csh": true, "tcsh": true, "nu": true, "elvish": true, "xonsh": true, "pwsh": true, "powershell": true, "rc": true, "es": true}

// interpreters run code given inline (inlineOpts), from a script file
// named by their first word that is not an option, or from stdin.
type interpreter struct {
	// inline lists the options whose value is code; a short option may
	// be the last letter of a cluster (perl -ne).
	inline []string
	// argShort are options that take a value, so that the script file
	// is not mistaken for one.
	argShort string
	// module lists options after which a module name, not a file of
	// code from here, is run (python -m).
	module []string
	// program: the first word that is not an option is code (awk).
	program bool
}

var pythonInterp = &interpreter{inline: []string{"-c"}, argShort: "WXQ", module: []string{"-m"}}

var interpreters = map[string]*interpreter{
	"node":      {inline: []string{"-e", "--eval", "-p", "--print", "-pe", "-ep"}, argShort: "r", module: nil},
	"nodejs":    {inline: []string{"-e", "--eval", "-p", "--print", "-pe", "-ep"}, argShort: "r"},
	"bun":       {inline: []string{"-e", "--eval", "-p", "--print"}},
	"deno":      {inline: []string{"eval"}},
	"perl":      {inline: []string{"-e", "-E"}, argShort: "IMmlx0CdD"},
	"ruby":      {inline: []string{"-e"}, argShort: "IrCEFTx0"},
	"irb":       {},
	"php":       {inline: []string{"-r", "-R", "-B", "-E", "-F"}, argShort: "cdz"},
	"lua":       {inline: []string{"-e"}, argShort: "l"},
	"luajit":    {inline: []string{"-e"}, argShort: "lbjO"},
	"tclsh":     {},
	"wish":      {},
	"Rscript":   {inline: []string{"-e"}},
	"R":         {inline: []string{"-e"}},
	"osascript": {inline: []string{"-e"}},
	"julia":     {inline: []string{"-e", "-E", "--eval", "--print"}},
	"awk":       {program: true, argShort: "Fvf"},
	"gawk":      {program: true, argShort: "FvfiIlE"},
	"mawk":      {program: true, argShort: "FvfW"},
	"nawk":      {program: true, argShort: "Fvf"},
}

// isPythonName reports whether base is python or pypy with an optional
// version (python3, python3.12, pypy3).
func isPythonName(base string) bool {
	rest, ok := strings.CutPrefix(base, "python")
	if !ok {
		rest, ok = strings.CutPrefix(base, "pypy")
	}
	if !ok {
		return false
	}
	for i := 0; i < len(rest); i++ {
		if (rest[i] < '0' || rest[i] > '9') && rest[i] != '.' {
			return false
		}
	}
	return true
}

// awkRuns reports whether an awk program can start other programs:
// system(), a pipe to or from a command, or loading an extension.
func awkRuns(prog string) bool {
	return strings.Contains(prog, "system") || strings.Contains(prog, "|") || strings.Contains(prog, "@load")
}

// gitGlobal skips git's global options: the words that come before the
// subcommand. It returns the words with those options removed, and a
// reason when one of them can make git run a program of the person's
// choosing (-c core.pager=…, --config-env, --exec-path=…). An option it
// does not know stands as an unknown word, so no rule on the subcommand
// can be sure of its match.
func gitGlobal(words []word) ([]word, string) {
	risk := ""
	i := 1
	for ; i < len(words); i++ {
		w := words[i]
		if !w.Known || w.Text == "" || w.Text[0] != '-' {
			break
		}
		last, r, known := gitGlobalOption(words, i)
		if !known {
			// An option this list does not know: where the subcommand
			// starts is not certain.
			out := append(make([]word, 0, len(words)-i+1), words[0], word{Text: w.Text, Split: true})
			return append(out, words[i+1:]...), risk
		}
		if r != "" {
			risk = r
		}
		i = last
	}
	if i == 1 {
		// No global option: the words are the command already.
		return words, risk
	}
	if i > len(words) {
		i = len(words)
	}
	return append([]word{words[0]}, words[i:]...), risk
}

// gitGlobalOption reads the global option of git at words[i]: it
// returns the index of the last word the option used (which may be one
// past the words when its value is missing), the reason it can make git
// run a program of the person's choosing, and whether git's list of
// global options holds it.
func gitGlobalOption(words []word, i int) (last int, risk string, known bool) {
	t := words[i].Text
	name, _, hasVal := strings.Cut(t, "=")
	switch name {
	case "-C", "--git-dir", "--work-tree", "--namespace", "--super-prefix", "--attr-source":
		if !hasVal {
			i++
		}
	case "-c":
		v, last := gitOptionValue(words, i, t[2:], len(t) == 2)
		return last, gitConfigRisk(v, "-c"), true
	case "--config-env":
		v, last := gitOptionValue(words, i, strings.TrimPrefix(t, "--config-env="), !hasVal)
		return last, gitConfigRisk(v, "--config-env"), true
	case "--exec-path":
		if hasVal {
			return i, "git --exec-path= makes git run its subcommands from another directory", true
		}
	case "-p", "--paginate", "-P", "--no-pager", "--no-replace-objects", "--no-lazy-fetch", "--no-optional-locks",
		"--no-advice", "--bare", "--literal-pathspecs", "--glob-pathspecs", "--noglob-pathspecs", "--icase-pathspecs",
		"--html-path", "--man-path", "--info-path", "-v", "--version", "-h", "--help", "--list-cmds":
	default:
		switch {
		case strings.HasPrefix(t, "-C"): // -Cdir
		case strings.HasPrefix(t, "-c"):
			return i, gitConfigRisk(word{Text: t[2:], Known: true}, "-c"), true
		default:
			return i, "", false
		}
	}
	return i, "", true
}

// gitOptionValue is the value of the git option at words[i]: inline,
// its text after the option's name, or when fromNext the next word
// (past the end, inline stands). last is the index of the last word
// used.
func gitOptionValue(words []word, i int, inline string, fromNext bool) (v word, last int) {
	v = word{Text: inline, Known: true}
	if fromNext {
		i++
		if i < len(words) {
			v = words[i]
		}
	}
	return v, i
}

// runners run commands given in their arguments or in a form spillway
// does not separate from their options: such a part is never allowed by
// a rule on the runner's subcommand alone, only by one allowing the
// runner by name.
var runners = map[string]string{
	"parallel":     "GNU parallel runs its arguments as shell commands",
	"systemd-run":  "systemd-run runs the command of its arguments as a unit",
	"unshare":      "unshare runs the command of its arguments",
	"nsenter":      "nsenter runs the command of its arguments",
	"crontab":      "crontab installs commands that run later",
	"ssh":          "ssh runs the command of its arguments on another machine",
	"tmux":         "tmux can start commands and type keys into shells",
	"screen":       "screen can start commands and type keys into shells",
	"expect":       "expect runs a script that drives other programs",
	"gdb":          "gdb can run programs and shell commands",
	"valgrind":     "valgrind runs the command of its arguments",
	"firejail":     "firejail runs the command of its arguments",
	"bwrap":        "bwrap runs the command of its arguments",
	"proot":        "proot runs the command of its arguments",
	"fakeroot":     "fakeroot runs the command of its arguments",
	"torsocks":     "torsocks runs the command of its arguments",
	"proxychains":  "proxychains runs the command of its arguments",
	"proxychains4": "proxychains runs the command of its arguments",
	"xvfb-run":     "xvfb-run runs the command of its arguments",
	"dbus-launch":  "dbus-launch runs the command of its arguments",
	"ltrace":       "ltrace runs the command of its arguments",
	"catchsegv":    "catchsegv runs the command of its arguments",
	// Wrappers found in the second outside attack, and their kin: each
	// runs the command of its arguments with options spillway does not
	// separate from it.
	"setpriv":           "setpriv runs the command of its arguments with other privileges",
	"capsh":             "capsh runs the command of its arguments with other capabilities",
	"run0":              "run0 runs the command of its arguments as another user",
	"prlimit":           "prlimit runs the command of its arguments",
	"setarch":           "setarch runs the command of its arguments",
	"linux32":           "linux32 runs the command of its arguments",
	"linux64":           "linux64 runs the command of its arguments",
	"i386":              "i386 runs the command of its arguments",
	"x86_64":            "x86_64 runs the command of its arguments",
	"perf":              "perf runs the command of its arguments (perf stat, record, trace)",
	"hyperfine":         "hyperfine runs its arguments as shell commands",
	"eatmydata":         "eatmydata runs the command of its arguments",
	"ifne":              "ifne runs the command of its arguments",
	"chronic":           "chronic runs the command of its arguments",
	"numactl":           "numactl runs the command of its arguments",
	"socat":             "socat runs commands given as EXEC: and SYSTEM: addresses",
	"dbus-run-session":  "dbus-run-session runs the command of its arguments",
	"runcon":            "runcon runs the command of its arguments",
	"faketime":          "faketime runs the command of its arguments",
	"cgexec":            "cgexec runs the command of its arguments",
	"sem":               "sem runs its arguments as shell commands",
	"entr":              "entr runs the command of its arguments",
	"watchexec":         "watchexec runs its arguments as commands",
	"sshpass":           "sshpass runs the command of its arguments",
	"dtach":             "dtach runs the command of its arguments",
	"abduco":            "abduco runs the command of its arguments",
	"start-stop-daemon": "start-stop-daemon runs the program of its arguments",
	"run-parts":         "run-parts runs every program of a directory",
	"lldb":              "lldb can run programs and shell commands",
	"rr":                "rr runs the command of its arguments",
	"sandbox-exec":      "sandbox-exec runs the command of its arguments",
	"caffeinate":        "caffeinate runs the command of its arguments",
	"arch":              "arch runs the command of its arguments",
	"spillway":          "spillway runs the command of its arguments (spillway bash …)",
}

// privilegeWrappers run their command as another user, group or root:
// they are seen through for deny and ask, but never for allow: the
// wrapper needs a rule of its own (allow sudo apt *), as Claude Code
// and Codex read a prefix.
var privilegeWrappers = map[string]bool{
	"sudo": true, "doas": true, "pkexec": true, "su": true, "runuser": true, "sg": true, "chroot": true,
}
