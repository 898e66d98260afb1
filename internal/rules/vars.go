package rules

import (
	"strings"
)

// A variable is one entry of the two lists of variables an assignment
// to which is never allowed without asking: bash's own (Bash true), a
// closed list, every name of the bash manual's "Shell Variables" and
// the names through which bash rebinds commands; and program variables,
// a maintained list of what other programs read to choose a program,
// load code or find a configuration that can run code. docs/rules.md
// shows this table; TestVariableTableInDocs holds the two to each other.
type variable struct {
	// Name is the variable's name, or the start of the names of a
	// family when Prefix is set (LD_ covers LD_PRELOAD).
	Name   string
	Prefix bool
	// Bash marks list (a): bash itself reads or sets it.
	Bash bool
	// Programs and Why say who reads it and what that does; empty for
	// bash's own, where the manual says it.
	Programs, Why string
}

// variables is the table; a name may be on both lists (PATH, HOME).
var variables = []variable{
	// (a) Bourne shell variables of the bash manual.
	{Name: "CDPATH", Bash: true}, {Name: "HOME", Bash: true}, {Name: "IFS", Bash: true},
	{Name: "MAIL", Bash: true}, {Name: "MAILPATH", Bash: true}, {Name: "OPTARG", Bash: true},
	{Name: "OPTIND", Bash: true}, {Name: "PATH", Bash: true}, {Name: "PS1", Bash: true}, {Name: "PS2", Bash: true},
	// (a) Bash variables of the bash manual (5.3).
	{Name: "_", Bash: true}, {Name: "BASH", Bash: true}, {Name: "BASHOPTS", Bash: true}, {Name: "BASHPID", Bash: true},
	{Name: "BASH_ALIASES", Bash: true}, {Name: "BASH_ARGC", Bash: true}, {Name: "BASH_ARGV", Bash: true},
	{Name: "BASH_ARGV0", Bash: true}, {Name: "BASH_CMDS", Bash: true}, {Name: "BASH_COMMAND", Bash: true},
	{Name: "BASH_COMPAT", Bash: true}, {Name: "BASH_ENV", Bash: true}, {Name: "BASH_EXECUTION_STRING", Bash: true},
	{Name: "BASH_LINENO", Bash: true}, {Name: "BASH_LOADABLES_PATH", Bash: true}, {Name: "BASH_MONOSECONDS", Bash: true},
	{Name: "BASH_REMATCH", Bash: true}, {Name: "BASH_SOURCE", Bash: true}, {Name: "BASH_SUBSHELL", Bash: true},
	{Name: "BASH_TRAPSIG", Bash: true}, {Name: "BASH_VERSINFO", Bash: true}, {Name: "BASH_VERSION", Bash: true},
	{Name: "BASH_XTRACEFD", Bash: true}, {Name: "CHILD_MAX", Bash: true}, {Name: "COLUMNS", Bash: true},
	{Name: "COMP_CWORD", Bash: true}, {Name: "COMP_KEY", Bash: true}, {Name: "COMP_LINE", Bash: true},
	{Name: "COMP_POINT", Bash: true}, {Name: "COMP_TYPE", Bash: true}, {Name: "COMP_WORDBREAKS", Bash: true},
	{Name: "COMP_WORDS", Bash: true}, {Name: "COMPREPLY", Bash: true}, {Name: "COPROC", Bash: true},
	{Name: "DIRSTACK", Bash: true}, {Name: "EMACS", Bash: true}, {Name: "ENV", Bash: true},
	{Name: "EPOCHREALTIME", Bash: true}, {Name: "EPOCHSECONDS", Bash: true}, {Name: "EUID", Bash: true},
	{Name: "EXECIGNORE", Bash: true}, {Name: "FCEDIT", Bash: true}, {Name: "FIGNORE", Bash: true},
	{Name: "FUNCNAME", Bash: true}, {Name: "FUNCNEST", Bash: true}, {Name: "GLOBIGNORE", Bash: true},
	{Name: "GLOBSORT", Bash: true}, {Name: "GROUPS", Bash: true}, {Name: "histchars", Bash: true},
	{Name: "HISTCMD", Bash: true}, {Name: "HISTCONTROL", Bash: true}, {Name: "HISTFILE", Bash: true},
	{Name: "HISTFILESIZE", Bash: true}, {Name: "HISTIGNORE", Bash: true}, {Name: "HISTSIZE", Bash: true},
	{Name: "HISTTIMEFORMAT", Bash: true}, {Name: "HOSTFILE", Bash: true}, {Name: "HOSTNAME", Bash: true},
	{Name: "HOSTTYPE", Bash: true}, {Name: "IGNOREEOF", Bash: true}, {Name: "INPUTRC", Bash: true},
	{Name: "INSIDE_EMACS", Bash: true}, {Name: "LANG", Bash: true}, {Name: "LC_ALL", Bash: true},
	{Name: "LC_COLLATE", Bash: true}, {Name: "LC_CTYPE", Bash: true}, {Name: "LC_MESSAGES", Bash: true},
	{Name: "LC_NUMERIC", Bash: true}, {Name: "LC_TIME", Bash: true}, {Name: "LINENO", Bash: true},
	{Name: "LINES", Bash: true}, {Name: "MACHTYPE", Bash: true}, {Name: "MAILCHECK", Bash: true},
	{Name: "MAPFILE", Bash: true}, {Name: "OLDPWD", Bash: true}, {Name: "OPTERR", Bash: true},
	{Name: "OSTYPE", Bash: true}, {Name: "PIPESTATUS", Bash: true}, {Name: "POSIXLY_CORRECT", Bash: true},
	{Name: "PPID", Bash: true}, {Name: "PROMPT_COMMAND", Bash: true}, {Name: "PROMPT_DIRTRIM", Bash: true},
	{Name: "PS0", Bash: true}, {Name: "PS3", Bash: true}, {Name: "PS4", Bash: true}, {Name: "PWD", Bash: true},
	{Name: "RANDOM", Bash: true}, {Name: "READLINE_ARGUMENT", Bash: true}, {Name: "READLINE_LINE", Bash: true},
	{Name: "READLINE_MARK", Bash: true}, {Name: "READLINE_POINT", Bash: true}, {Name: "REPLY", Bash: true},
	{Name: "SECONDS", Bash: true}, {Name: "SHELL", Bash: true}, {Name: "SHELLOPTS", Bash: true},
	{Name: "SHLVL", Bash: true}, {Name: "SRANDOM", Bash: true}, {Name: "TIMEFORMAT", Bash: true},
	{Name: "TMOUT", Bash: true}, {Name: "TMPDIR", Bash: true}, {Name: "UID", Bash: true},
	// (a) Names through which bash binds a command name to code.
	{Name: "BASH_FUNC_", Prefix: true, Bash: true},

	// (b) Program variables.
	{Name: "PATH", Programs: "every program that starts another by name", Why: "chooses which file a program name runs"},
	{Name: "HOME", Programs: "git, ssh, python, npm, most programs", Why: "where their configuration files (~/.gitconfig, ~/.ssh/config, ~/.npmrc) are read, some of which name programs to run"},
	{Name: "LD_", Prefix: true, Programs: "the dynamic loader (ld.so)", Why: "LD_PRELOAD, LD_LIBRARY_PATH, LD_AUDIT load code into every program"},
	{Name: "DYLD_", Prefix: true, Programs: "the macOS dynamic loader", Why: "DYLD_INSERT_LIBRARIES and the rest load code into every program"},
	{Name: "GCONV_PATH", Programs: "glibc's iconv", Why: "loads conversion modules (shared objects) from the path"},
	{Name: "GIT_", Prefix: true, Programs: "git", Why: "GIT_SSH_COMMAND, GIT_PAGER, GIT_EDITOR, GIT_EXTERNAL_DIFF, GIT_ASKPASS, GIT_EXEC_PATH, GIT_CONFIG_* run programs; GIT_DIR, GIT_CONFIG_GLOBAL choose the configuration"},
	{Name: "XDG_", Prefix: true, Programs: "git, and programs that follow the XDG base directories", Why: "XDG_CONFIG_HOME chooses the configuration read (git's aliases, pagers, hooks path)"},
	{Name: "PAGER", Programs: "man, git, less users", Why: "the program run to show output"},
	{Name: "MANPAGER", Programs: "man", Why: "the program run to show a page"},
	{Name: "MANOPT", Programs: "man", Why: "options for man, including --pager"},
	{Name: "EDITOR", Programs: "git, crontab, less (v), many", Why: "the program run to edit"},
	{Name: "VISUAL", Programs: "git, crontab, many", Why: "the program run to edit"},
	{Name: "SUDO_EDITOR", Programs: "sudoedit", Why: "the program run to edit"},
	{Name: "SYSTEMD_EDITOR", Programs: "systemctl edit", Why: "the program run to edit"},
	{Name: "BROWSER", Programs: "xdg-open, python's webbrowser", Why: "the program run to open an address"},
	{Name: "LESS", Programs: "less", Why: "options read at start, which can hold commands (+cmd)"},
	{Name: "LESSOPEN", Programs: "less", Why: "a command run on every file opened"},
	{Name: "LESSCLOSE", Programs: "less", Why: "a command run on every file closed"},
	{Name: "LESSKEY", Programs: "less", Why: "a key-binding file, whose bindings can run shell commands"},
	{Name: "LESSKEYIN", Programs: "less", Why: "a key-binding source file"},
	{Name: "LESSSECURE", Programs: "less", Why: "spillway sets it to 1 so that less runs no shell command; changing it lifts that"},
	{Name: "VIMINIT", Programs: "vim", Why: "ex commands run at start, which can run shell commands"},
	{Name: "EXINIT", Programs: "vi, ex", Why: "ex commands run at start"},
	{Name: "MYVIMRC", Programs: "vim", Why: "the start-up file"},
	{Name: "ZDOTDIR", Programs: "zsh", Why: "where zsh reads its start-up files"},
	{Name: "PYTHONSTARTUP", Programs: "python", Why: "a file run when the interactive interpreter starts"},
	{Name: "PYTHONPATH", Programs: "python", Why: "where modules are imported from, before the standard ones"},
	{Name: "PYTHONHOME", Programs: "python", Why: "where the standard library is imported from"},
	{Name: "PYTHONUSERBASE", Programs: "python", Why: "the user site directory, whose .pth files run code"},
	{Name: "PYTHONBREAKPOINT", Programs: "python", Why: "the function breakpoint() imports and calls"},
	{Name: "PYTHONINSPECT", Programs: "python", Why: "drops into an interactive interpreter reading stdin after the script"},
	{Name: "NODE_OPTIONS", Programs: "node", Why: "options such as --require that load code at start"},
	{Name: "NODE_PATH", Programs: "node", Why: "where modules are required from"},
	{Name: "PERL5OPT", Programs: "perl", Why: "options such as -M that load code at start"},
	{Name: "PERL5LIB", Programs: "perl", Why: "where modules are loaded from"},
	{Name: "PERLLIB", Programs: "perl", Why: "where modules are loaded from"},
	{Name: "PERL5DB", Programs: "perl", Why: "the debugger code run under -d"},
	{Name: "RUBYOPT", Programs: "ruby", Why: "options such as -r that load code at start"},
	{Name: "RUBYLIB", Programs: "ruby", Why: "where libraries are loaded from"},
	{Name: "JAVA_TOOL_OPTIONS", Programs: "the JVM", Why: "options such as -javaagent that load code"},
	{Name: "_JAVA_OPTIONS", Programs: "the JVM", Why: "options such as -javaagent that load code"},
	{Name: "JDK_JAVA_OPTIONS", Programs: "java", Why: "options such as -javaagent that load code"},
	{Name: "CLASSPATH", Programs: "the JVM", Why: "where classes are loaded from"},
	{Name: "MAKEFLAGS", Programs: "make", Why: "options and variable settings (SHELL=, -f) for every make"},
	{Name: "MFLAGS", Programs: "make", Why: "options for every make"},
	{Name: "MAKEFILES", Programs: "make", Why: "makefiles read before the others"},
	{Name: "CC", Programs: "make, configure, cgo", Why: "the compiler program run"},
	{Name: "CXX", Programs: "make, configure", Why: "the compiler program run"},
	{Name: "GOFLAGS", Programs: "go", Why: "flags such as -toolexec that run a program for every tool"},
	{Name: "GOENV", Programs: "go", Why: "the configuration file go reads its settings from"},
	{Name: "GOTOOLCHAIN", Programs: "go", Why: "which toolchain is downloaded and run"},
	{Name: "RUSTC_WRAPPER", Programs: "cargo", Why: "a program run in place of rustc"},
	{Name: "RUSTC", Programs: "cargo", Why: "the compiler program run"},
	{Name: "CARGO_HOME", Programs: "cargo", Why: "the configuration read, which can name programs"},
	{Name: "npm_config_", Prefix: true, Programs: "npm", Why: "every npm setting, such as script-shell and node-options"},
	{Name: "NPM_CONFIG_", Prefix: true, Programs: "npm", Why: "every npm setting, such as script-shell and node-options"},
	{Name: "PIP_", Prefix: true, Programs: "pip", Why: "every pip setting, such as the index packages come from"},
	{Name: "SSH_ASKPASS", Programs: "ssh", Why: "the program run to ask for a passphrase"},
	{Name: "SUDO_ASKPASS", Programs: "sudo", Why: "the program run to ask for a password"},
	{Name: "OPENSSL_CONF", Programs: "openssl and its library", Why: "a configuration that can load engines (shared objects)"},
	{Name: "OPENSSL_ENGINES", Programs: "openssl's library", Why: "where engines are loaded from"},
	{Name: "KUBECONFIG", Programs: "kubectl", Why: "a configuration whose exec credential plugins are programs run"},
	{Name: "AWS_CONFIG_FILE", Programs: "aws", Why: "a configuration whose credential_process is a program run"},
	{Name: "CURL_HOME", Programs: "curl", Why: "where .curlrc is read"},
	{Name: "WGETRC", Programs: "wget", Why: "the configuration read"},
	{Name: "SPILLWAY_", Prefix: true, Programs: "spillway", Why: "its configuration file and rules"},
	{Name: "CLAUDE_CONFIG_DIR", Programs: "Claude Code, spillway's import", Why: "where Claude Code's rules are read"},
	{Name: "CODEX_HOME", Programs: "Codex, spillway's import", Why: "where Codex's rules are read"},
}

// varIndex finds the entries of a name: exact names by map, families by
// their prefix.
var varIndex, varPrefixes = func() (map[string][]int, []int) {
	m := map[string][]int{}
	var p []int
	for i, v := range variables {
		if v.Prefix {
			p = append(p, i)
			continue
		}
		m[v.Name] = append(m[v.Name], i)
	}
	return m, p
}()

// listedVar returns the reason an assignment to name is never allowed
// without asking, or "" when name is on neither list. A subscript
// (a[1]) is the array's name.
func listedVar(name string) string {
	if i := strings.IndexByte(name, '['); i >= 0 {
		name = name[:i]
	}
	idx := varIndex[name]
	if len(idx) == 0 {
		for _, i := range varPrefixes {
			if strings.HasPrefix(name, variables[i].Name) {
				idx = append(idx, i)
			}
		}
	}
	if len(idx) == 0 {
		return ""
	}
	v := variables[idx[0]]
	if v.Bash {
		return "it assigns " + name + ", one of bash's own variables, which can change what bash runs or how it reads the commands that follow"
	}
	return "it assigns " + name + ", which " + v.Programs + " read: " + v.Why
}

// Carried reports whether a named session may carry a change its
// command made to the variable name to the next call: not for a name on
// either list (the next call would run under a value no rule saw), but
// for OLDPWD, which bash sets on every cd and which only cd - reads.
func Carried(name string) bool { return name == "OLDPWD" || listedVar(name) == "" }

// typedInto are programs that run what is typed into them: a shell
// escape (less's !, vim's :!, gdb's shell), a query language that can
// run programs, or a language's interactive interpreter.
var typedInto = map[string]bool{
	"less": true, "more": true, "most": true, "pg": true, "man": true, "vi": true, "vim": true, "nvim": true,
	"view": true, "vimdiff": true, "gvim": true, "ex": true, "ed": true, "red": true, "emacs": true, "nano": true,
	"pico": true, "joe": true, "mcedit": true, "gdb": true, "lldb": true, "pdb": true, "psql": true, "mysql": true,
	"mariadb": true, "sqlite3": true, "redis-cli": true, "mongo": true, "mongosh": true, "irb": true, "pry": true,
	"ghci": true, "ftp": true, "sftp": true, "telnet": true, "ssh": true, "tmux": true, "screen": true, "mutt": true,
	"tig": true, "ranger": true, "mc": true, "nnn": true, "vifm": true, "crontab": true, "journalctl": true,
	"systemctl": true, "expect": true, "script": true, "su": true, "sudo": true, "doas": true,
}

// TypedInto returns the first program of command that runs what is typed
// into it (a shell, an interpreter, or a program with a shell escape:
// less, vim, ed, gdb, psql, …), or "": what write_stdin sends such a job
// is code no rule saw. shell says whether that program reads bash's
// language, so that complete commands typed into it can be decided.
func TypedInto(command string) (name string, shell bool) {
	v := (&Set{Default: Allow}).Check(command)
	for _, p := range v.parts {
		if p.carrier {
			// bash -c '…': its code is in parts of its own.
			continue
		}
		fields := strings.Fields(p.command)
		if f := commandWord(fields); strings.ContainsAny(f, "$`") {
			// A program known only when it runs may read what is typed
			// the way any of these does.
			return "a program known only when it runs", false
		}
		for i, f := range fields {
			f = strings.Trim(f, `'"`)
			b := f[strings.LastIndexByte(f, '/')+1:]
			k := programKinds[b]
			switch {
			case b == "read" && readline(fields[i+1:]):
				return "read -e", false
			case k.shell:
				return b, b == "bash" || b == "sh" || b == "dash" || b == "rbash"
			case k.otherShell || k.interpreter(b) != nil || typedInto[b]:
				return b, false
			}
		}
	}
	return "", false
}

// readline reports whether bash's read given args may read its line with
// readline (-e, or bash 5.3's -E): on a terminal, readline runs what is
// typed on request — shell-expand-line (ESC C-e) expands the command
// substitutions in the line, and a bind -x binding runs its command — so
// such a read runs what is typed into it. An option known only when the
// command runs may be one of them. An option's argument that looks like
// them (read -p -e) counts too: a question too many costs less than an
// option missed.
func readline(args []string) bool {
	for _, a := range args {
		a = strings.Trim(a, `'"`)
		switch {
		case a == "--":
			return false
		case strings.ContainsAny(a, "$`"):
			return true
		case len(a) > 1 && a[0] == '-' && strings.ContainsAny(a, "eE"):
			return true
		}
	}
	return false
}

// commandWord is the first of fields that is not an assignment, or "".
func commandWord(fields []string) string {
	for _, f := range fields {
		if i := strings.IndexByte(f, '='); i > 0 && syntaxName(f[:i]) {
			continue
		}
		return f
	}
	return ""
}
