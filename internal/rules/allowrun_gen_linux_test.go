//go:build linux && !spillway_portable

package rules

import (
	"strings"
)

// A grammar makes a bash input from a string of choices: each byte picks
// one alternative of the production being written, and when the choices
// run out every production takes its first, simplest alternative. So any
// byte string is an input, the fuzzer's mutations of the choices move
// through bash's constructs rather than through parse errors, and a
// corpus entry stays meaningful after the grammar grows at its end.
//
// The pieces are what the checker must model to allow anything: the
// programs of the allow list and its wrappers, builtins (every one of the
// manual's), expansions, redirections, the variables of both lists, the
// forms that assign them, and whole spellings from the bypass tables.
type grammar struct {
	choices []byte
	i       int
	depth   int
	b       strings.Builder
	// spellings are whole attempts of the bypass tables, used as
	// statements.
	spellings []string
}

// generate writes the input the choices make.
func generate(choices []byte, spellings []string) string {
	g := &grammar{choices: choices, spellings: spellings}
	g.list()
	return g.b.String()
}

func (g *grammar) pick(n int) int {
	if g.i >= len(g.choices) || n <= 1 {
		return 0
	}
	c := int(g.choices[g.i])
	g.i++
	return c % n
}

func (g *grammar) w(s ...string) {
	for _, x := range s {
		g.b.WriteString(x)
	}
}

// one writes one of alts.
func (g *grammar) one(alts ...string) { g.w(alts[g.pick(len(alts))]) }

func (g *grammar) list() {
	n := 1 + g.pick(3)
	for i := 0; i < n; i++ {
		if i > 0 {
			g.one("; ", "\n", " && ", " || ", " & ", " | ")
		}
		g.pipeline()
	}
}

func (g *grammar) pipeline() {
	switch g.pick(8) {
	case 1:
		g.w("! ")
	case 2:
		g.w("time ")
	}
	g.command()
	if g.pick(4) == 1 {
		g.w(" | ")
		g.command()
	}
}

func (g *grammar) command() {
	if g.depth > 3 {
		g.simple()
		return
	}
	g.depth++
	defer func() { g.depth-- }()
	switch g.pick(12) {
	case 0, 1, 2:
		g.simple()
	case 3:
		g.assignForm()
	case 4:
		g.builtinForm()
	case 5:
		g.compound()
	case 6:
		g.arithForm()
	case 7:
		g.payload()
	case 8:
		if len(g.spellings) > 0 {
			g.w(g.spellings[(g.pick(256)*256+g.pick(256))%len(g.spellings)])
		} else {
			g.simple()
		}
	case 9:
		g.wrapped()
	case 10:
		g.assignForm()
		g.w("; ")
		g.simple()
	case 11:
		g.builtinForm()
		g.w("; ")
		g.simple()
	}
	for g.pick(5) == 1 {
		g.w(" ")
		g.redir()
	}
}

// programs are the allow list's programs with arguments it grants, and
// a few it does not.
var genPrograms = []string{
	"ls", "ls -la", "cat f", "echo hi", "printf '%s\\n' x", "grep x f", "cp f g", "chmod +x f", "mkdir -p d",
	"git status", "git log --oneline", "python3 -m pytest -q", "less f", "vim f", "cat", "echo", "ls d",
	"wc -l f", "true", ":", "false", "touch g", "sed -n 1p f", "awk '{print}' f", "make", "perl -e 1",
	"git push", "git commit -m x", "head f", "sort f", "tee g", "env", "id", "date",
}

func (g *grammar) simple() {
	if g.pick(4) == 1 {
		g.name(false)
		g.w("=")
		g.value()
		g.w(" ")
	}
	g.w(genPrograms[g.pick(len(genPrograms))])
	for n := g.pick(4); n > 0; n-- {
		g.w(" ")
		g.word()
	}
}

func (g *grammar) wrapped() {
	g.one("env ", "command ", "builtin ", "exec ", "nohup ", "timeout 5 ", "nice ", "xargs ", "eval ", "bash -c ", "sh -c ",
		"env -i ", "env -u HOME ", "exec -a zz ", "command -p ", "stdbuf -o0 ", "find . -maxdepth 0 -exec ", "sudo ", "setpriv ")
	switch g.pick(3) {
	case 0:
		g.w(genPrograms[g.pick(len(genPrograms))])
	case 1:
		g.w("'")
		g.b.WriteString(strings.ReplaceAll(g.sub(), "'", `'\''`))
		g.w("'")
	case 2:
		g.payload()
	}
}

// sub is a list written apart, to be quoted.
func (g *grammar) sub() string {
	outer := g.b
	g.b = strings.Builder{}
	g.list()
	s := g.b.String()
	g.b = outer
	return s
}

func (g *grammar) compound() {
	switch g.pick(14) {
	case 0:
		g.w("{ ")
		g.list()
		g.w("; }")
	case 1:
		g.w("( ")
		g.list()
		g.w(" )")
	case 2:
		g.w("if ")
		g.list()
		g.w("; then ")
		g.list()
		g.w("; fi")
	case 3:
		g.w("for ")
		g.name(true)
		g.w(" in ")
		g.word()
		g.w(" ")
		g.word()
		g.w("; do ")
		g.list()
		g.w("; done")
	case 4:
		g.w("while ")
		g.one("false", "[ -e nothere ]", "(( 0 ))", "read -r line")
		g.w("; do ")
		g.list()
		g.w("; done")
	case 5:
		g.w("case ")
		g.word()
		g.w(" in ")
		g.one("x", "*", "@(x|y)", "$(touch P)", "[a-z]*")
		g.w(") ")
		g.list()
		g.w(";; esac")
	case 6:
		g.one("f", "ls", "cd", "echo", "command_not_found_handle", "git")
		g.w("() { ")
		g.list()
		g.w("; }; ")
		g.one("f", "ls", "nothere", "echo x", "git status", "cd d")
	case 7:
		g.w("echo $(")
		g.list()
		g.w(")")
	case 8:
		g.w("echo `")
		g.simple()
		g.w("`")
	case 9:
		g.w("cat <(")
		g.list()
		g.w(")")
	case 10:
		g.w("coproc ")
		g.one("", "NAME ", "PATH ", "BASH_ENV ")
		g.w("{ ")
		g.simple()
		g.w("; }")
	case 11:
		g.w("select ")
		g.name(true)
		g.w(" in a b; do break; done < /dev/null")
	case 12:
		g.w("for ((")
		g.name(false)
		g.w("=0; ")
		g.arith()
		g.w("; ")
		g.arith()
		g.w(")); do ")
		g.list()
		g.w("; break; done")
	case 13:
		g.w("[[ ")
		g.word()
		g.one(" == ", " =~ ", " -eq ", " < ", " -nt ")
		g.word()
		g.w(" ]]")
	}
}

// listedNames are variables of lists (a) and (b), as an assignment or a
// name argument would spell them.
var listedNames = []string{
	"PATH", "IFS", "BASH_ENV", "BASH_CMDS[ls]", "BASH_ALIASES[ls]", "PS4", "HOME", "GIT_EDITOR", "LD_PRELOAD", "ENV",
	"PROMPT_COMMAND", "CDPATH", "GLOBIGNORE", "OPTIND", "REPLY", "MAPFILE", "EXECIGNORE", "TMPDIR", "LANG", "LC_ALL",
	"PAGER", "BASH_XTRACEFD", "HISTFILE", "PS1", "FUNCNEST", "BASH_FUNC_ls%%", "BASH_COMPAT", "BASH_ARGV0", "SHELLOPTS",
	"GIT_DIR", "LESSOPEN", "PYTHONSTARTUP", "NODE_OPTIONS", "PERL5OPT", "MAKEFLAGS", "XDG_CONFIG_HOME", "EDITOR",
	"GIT_CONFIG_COUNT", "LESSSECURE", "COMP_WORDBREAKS", "HOSTFILE", "INPUTRC", "MAIL", "TIMEFORMAT", "PWD", "OLDPWD",
	"BASH_LOADABLES_PATH", "SHELL", "BASH", "TMOUT", "COLUMNS", "histchars", "HISTCONTROL", "CHILD_MAX", "GLOBSORT",
}

var plainNames = []string{"x", "y", "z", "i", "n", "a[1]", "a[z]", "a[$x]", "s", "r", "line"}

// name writes a variable name: one of the lists' or a plain one.
// bare: no subscript (a for or select loop's name).
func (g *grammar) name(bare bool) {
	var n string
	if g.pick(2) == 0 {
		n = plainNames[g.pick(len(plainNames))]
	} else {
		n = listedNames[g.pick(len(listedNames))]
	}
	if bare {
		if i := strings.IndexByte(n, '['); i >= 0 {
			n = n[:i]
		}
		n = strings.TrimSuffix(n, "%%")
	}
	g.w(n)
}

func (g *grammar) value() {
	switch g.pick(10) {
	case 0:
		g.one("1", "0", "42", "-3", "0x1f", "2#101")
	case 1:
		g.one("hi", "'a b'", "\"x y\"", "''")
	case 2:
		g.one("/bin/rm", "./evil", "/usr/bin/touch", "rm", "$PWD/d")
	case 3:
		g.one("'a[$(touch P)]'", "'b[`touch P`]'", "'x[$(rm -f victim)]'", "'$(touch P)'", "'\\$(touch P)'")
	case 4:
		g.one("$((1+2))", "$((x))", "$(ls)", "`echo 1`", "${x:-1}", "$x", "\"$x\"", "${#x}")
	case 5:
		g.one("(1 2)", "(a '$(touch P)')", "([ls]=/bin/rm)")
	case 6:
		g.one("'() { touch P; }'", "'touch P'", "'$(touch P)'", "'\\[$(touch P)\\]'")
	case 7:
		g.one("./e.sh", "/dev/null", "$HOME/.bashrc", ".git/config", "d:$PATH")
	default:
		g.word()
	}
}

func (g *grammar) assignForm() {
	switch g.pick(26) {
	case 0:
		g.name(false)
		g.w("=")
		g.value()
	case 1:
		g.name(false)
		g.w("+=")
		g.value()
	case 2:
		g.name(true)
		g.w("=")
		g.one("(1 2)", "('$(touch P)')", "([ls]=/bin/rm)", "()")
	case 3:
		g.one("export ", "declare ", "declare -x ", "declare -i ", "declare -g ", "typeset ", "local ", "readonly ", "declare -a ", "declare -A ", "export -n ", "declare -l ", "declare -u ")
		g.name(false)
		g.w("=")
		g.value()
	case 4:
		g.w("declare -n r=")
		g.name(false)
		g.w("; r=")
		g.value()
	case 5:
		g.w("printf -v ")
		g.name(false)
		g.w(" %s ")
		g.value()
	case 6:
		g.one("read ", "read -r ", "read -a ", "read -d '' ", "IFS= read -r ")
		g.name(false)
		g.w(" <<< ")
		g.value()
	case 7:
		g.one("mapfile -t ", "readarray ", "mapfile ")
		g.name(true)
		g.w(" <<< ")
		g.value()
	case 8:
		g.w("for ")
		g.name(true)
		g.w(" in ")
		g.value()
		g.w("; do :; done")
	case 9:
		g.w("getopts ab ")
		g.name(false)
	case 10:
		g.w("true & wait -p ")
		g.name(false)
	case 11:
		g.w(": ${")
		g.name(true)
		g.one("=", ":=")
		g.value()
		g.w("}")
	case 12:
		g.w("(( ")
		g.name(false)
		g.one(" = ", " += ", "++ ,", " |= ")
		g.one("1", "x", "z")
		g.w(" ))")
	case 13:
		g.w("let ")
		g.name(false)
		g.w("=1")
	case 14:
		g.one("unset ", "unset -v ", "unset -f ", "unset -n ")
		g.name(false)
	case 15:
		g.w("coproc ")
		g.name(true)
		g.w(" { :; }")
	case 16:
		g.name(false)
		g.w("=")
		g.value()
		g.w(" ")
		g.w(genPrograms[g.pick(len(genPrograms))])
	case 17:
		g.w("set -a; ")
		g.name(false)
		g.w("=")
		g.value()
	case 18:
		g.w("export ")
		g.name(false)
	case 19:
		g.w("declare -i ")
		g.name(false)
		g.w("; ")
		g.name(false)
		g.w("=")
		g.value()
	case 20:
		g.w("f() { local ")
		g.name(false)
		g.w("=")
		g.value()
		g.w("; }; f")
	case 21:
		g.w("read ")
		g.name(false)
		g.w(" < f")
	case 22:
		g.w("printf -v '")
		g.name(false)
		g.w("' x")
	case 23:
		g.one("shift", "set -- a b", "set a b")
	case 24:
		g.name(true)
		g.w("=")
		g.value()
		g.w(" ")
		g.builtinForm()
	case 25:
		g.one("declare -x ", "declare +x ", "typeset -r ", "declare -t ", "export -f ")
		g.name(true)
	}
}

func (g *grammar) arith() {
	switch g.pick(8) {
	case 0:
		g.one("1", "0", "x", "i < 3", "i++", "x + 1")
	case 1:
		g.one("z", "a[z]", "a[$x]", "$z", "${z}", "x = z")
	case 2:
		g.one("a[$(touch P)]", "b[`touch P`]", "$(touch P)")
	case 3:
		g.name(false)
	case 4:
		g.one("x ? 1 : z", "1 && z", "y = x = 2", "RANDOM % 2", "$#", "${#s}")
	default:
		g.one("x", "i", "n + 1", "2 * 3")
	}
}

func (g *grammar) arithForm() {
	switch g.pick(12) {
	case 0:
		g.w("(( ")
		g.arith()
		g.w(" ))")
	case 1:
		g.w("echo $(( ")
		g.arith()
		g.w(" ))")
	case 2:
		g.w("let '")
		g.arith()
		g.w("'")
	case 3:
		g.w("[[ ")
		g.one("$z", "z", "x", "1", "$x")
		g.w(" -eq 1 ]]")
	case 4:
		g.one("test ", "[ ")
		g.one("$z", "1", "$x", "z")
		g.w(" -eq 1")
		g.one("", " ]")
	case 5:
		g.w("a[")
		g.arith()
		g.w("]=1")
	case 6:
		g.w("echo ${s:")
		g.arith()
		g.w("}")
	case 7:
		g.w("echo ${!")
		g.one("z", "x", "a[@]", "PA*", "a")
		g.w("}")
	case 8:
		g.w("x=")
		g.value()
		g.w("; z=$x; (( z ))")
	case 9:
		g.w("[[ -v ")
		g.one("a[z]", "a[1]", "x", "a[$(touch P)]")
		g.w(" ]]")
	case 10:
		g.w("echo ${a[")
		g.arith()
		g.w("]}")
	case 11:
		g.w("declare -i n; n=")
		g.value()
	}
}

func (g *grammar) builtinForm() {
	g.one("set -e", "set -a", "set -k", "set -o posix", "set +h", "set -x", "set -o pipefail", "set -u", "set -f", "set -C",
		"shopt -s expand_aliases", "shopt -s extglob", "shopt -s sourcepath", "shopt -s nullglob", "shopt -u expand_aliases", "shopt -s extdebug", "shopt -s globstar",
		"alias ls=rm", "alias ls='touch P; ls'", "hash -p /bin/rm ls", "hash -r", "hash ls", "enable -n echo", "enable -n test", "enable -f x.so y",
		"trap 'touch P' EXIT", "trap 'touch P' DEBUG", "trap 'touch P' ERR", "trap - EXIT", "trap '' INT", "trap -p",
		"source f", ". f", ". /dev/null", "cd d", "cd", "cd -", "pushd d", "popd", "dirs", "umask 077", "umask",
		"ulimit -n 64", "ulimit -a", "type ls", "type -P ls", "command -v ls", "compgen -W '$(touch P)' x", "compgen -c ls",
		"complete -C 'touch P' ls", "bind -x '\"a\":touch P'", "fc -s", "history -s 'touch P'", "kill -0 $$", "caller", "shift",
		"exit 0", "return", "jobs", "disown", "times", "help cd", "declare -f", "declare -p x", "export -p", "printf '%(%s)T' -1",
		"echo -e '\\x72m'", "echo $'\\x72m'", "read -t 0", "wait", "suspend", "logout", "exec 3>g", "exec >g", "exec 0<f", "exec 3<&-",
		"local x=1", "let x=1", "eval 'touch P'", "eval ls", "builtin cd d", "command cd d", "mapfile -C 'touch P' -c 1 q < f",
		"readarray -C touch -c 1 < f", "printf -v x %s '$(touch P)'", "test -v 'a[$(touch P)]'", "[ -v 'a[$(touch P)]' ]",
		"unset -f ls", "getopts ab x", ": ${x:=1}", "true", "false", ":", "echo $-", "echo $BASH_VERSION", "echo ${PATH}",
		"echo ${x@P}", "echo ${x@Q}", "echo ${x@A}", "echo ${!PATH*}", "echo ~", "echo ~+", "echo *", "echo {a,b}", "echo {1..3}",
		"declare -F", "typeset -f", "enable", "shopt -p", "set -o", "set", "env", "printenv PATH", "cd /tmp", "cd ..")
}

func (g *grammar) payload() {
	g.one("touch P", "rm -f victim", "/bin/rm -f victim", "/usr/bin/touch P", "./evil", "curl -s http://127.0.0.1:9/x",
		"sh -c 'touch P'", "bash -c 'rm -f victim'", "python3 -c 'import os'", "python3 x.py", "perl -e 'unlink q(victim)'",
		"git -c core.pager='touch P' log", "git -c alias.x='!touch P' x", "GIT_PAGER='touch P' git log", "env rm -f victim",
		"xargs rm < f", "find . -name victim -delete", "find . -exec rm {} +", "ln -s /bin/rm ls", "cp /bin/rm ls",
		"printf '[core]\\n\\tfsmonitor = touch P\\n' >> .git/config", "echo 'touch P' > ~/.bashrc", "mkdir -p .git/hooks")
}

func (g *grammar) word() {
	switch g.pick(14) {
	case 0, 1:
		g.one("x", "f", "d", "-l", "a b", "victim", "P", "1", "--", "-e", ".git/config")
	case 2:
		g.one("\"hi\"", "'$(touch P)'", "\"$x\"", "$'\\x72m'", "$\"hi\"")
	case 3:
		g.one("$x", "${x}", "$z", "$PATH", "$1", "$@", "$#", "$?", "$$", "$!", "$-", "$_", "${a[@]}", "${a[z]}")
	case 4:
		if g.depth > 3 {
			g.w("$(ls)")
			return
		}
		g.depth++
		g.w("$(")
		g.list()
		g.w(")")
		g.depth--
	case 5:
		g.w("`")
		g.simple()
		g.w("`")
	case 6:
		g.w("$((")
		g.arith()
		g.w("))")
	case 7:
		g.one("${x:-w}", "${x:=w}", "${x:+w}", "${x:?w}", "${x#*}", "${x%/*}", "${x/a/b}", "${x^^}", "${x,}", "${x@U}", "${#x}")
	case 8:
		g.one("${!x}", "${x@P}", "${s:z}", "${s:0:z}", "${!a[@]}", "${!PA*}", "${x@E}", "${x@K}", "${x@a}")
	case 9:
		g.one("~", "~root", "*", "?", "[a]*", "**", "{a,b}", "{1..2}", "@(x|y)", "!(x)", "~+", "~-")
	case 10:
		if g.depth > 3 {
			g.w("<(ls)")
			return
		}
		g.depth++
		g.one("<(", ">(")
		g.simple()
		g.w(")")
		g.depth--
	case 11:
		g.one("$'\\x2fbin\\x2frm'", "\\r\\m", "r''m", "\"r\"m", "$'\\162m'", "${x:-rm}", "r${x}m")
	case 12:
		g.one("--exec=touch", "-exec", "--output=g", "-o", "-f", "-C", "-c", "--config-env=x=y")
	case 13:
		g.one("$RANDOM", "$LINENO", "$SECONDS", "$BASH_COMMAND", "$PPID", "$UID", "$HOME", "$PWD", "$OLDPWD", "$IFS")
	}
}

func (g *grammar) redir() {
	g.one("> g", ">> g", "< f", "2>&1", "<<< w", "<<EOF\nhi $(touch P)\nEOF\n", "<<'EOF'\nhi\nEOF\n", "{fd}> g", "{a[z]}> g",
		">| g", "&> g", "> .git/config", ">> ~/.bashrc", "> \"$HOME/.profile\"", "< /dev/null", "0<&-", "> /dev/tcp/127.0.0.1/9",
		"2> /dev/null", ">& g", "<> g", "3>&1", "> $x", "> ${x:-g}", "> >(touch P)", "< <(ls)", "> .git/hooks/pre-commit",
		"> d/../g", "> /tmp/g", "> ./ls", "> ~/.local/bin/ls", ">> .pth", "> sitecustomize.py")
}
