package rules

import (
	"fmt"

	"github.com/spillway-dev/spillway/output"
)

// MaxCommandBytes is the longest command spillway accepts. A command
// reaches bash as one argument of `bash -c COMMAND`, and Linux refuses
// (E2BIG) any single argument of more than 128 KiB (MAX_ARG_STRLEN, the
// terminating NUL included); a named session's command also carries the
// trap that saves the session's state. So nothing longer could run, and
// nothing longer is parsed: the parser's work and memory grow with the
// input.
const MaxCommandBytes = 120 << 10

// MaxNesting is the deepest nesting of brackets — ( { [ and every form
// built on them: $( <( ${ $(( [[ a[i] — and of compound commands (if,
// case, while, until, for, select) a command may have. The shell parser
// recurses once per level, and at some 160,000 levels the Go runtime
// ends the whole process with a stack overflow, which no recover
// catches. Real commands stay far below this.
const MaxNesting = 1000

// ErrLimit is wrapped by the errors Limit returns.
var ErrLimit = fmt.Errorf("the command is past a limit")

// Limit says whether command is within MaxCommandBytes and MaxNesting,
// before any parser reads it. It reads command once, without
// recursion or allocation.
//
// The nesting it measures is an upper bound on the parser's recursion
// for everything but closing brackets hidden in quotes or comments
// (`$(')'` opens a level the scan sees closed). Such a level costs at
// least five bytes, so within MaxCommandBytes the parser recurses at
// most some 25,000 levels: a few hundred milliseconds and 64 MB of
// stack, not the end of the process.
func Limit(command string) error {
	if len(command) > MaxCommandBytes {
		return fmt.Errorf("%w: the command is %s, longer than the %s a command may have (MaxCommandBytes: one argument of bash -c holds at most 128 KiB); write a long script to a file and run the file", ErrLimit,
			output.FormatSize(int64(len(command))), output.FormatSize(MaxCommandBytes))
	}
	if d, at := nesting(command); d > MaxNesting {
		return fmt.Errorf("%w: the command nests more than %d levels deep (brackets, $( … ), ${ … }, if, case or loops; the %dth level opens at byte %d); no command needs that many", ErrLimit, MaxNesting, MaxNesting+1, at)
	}
	return nil
}

// nesting returns the deepest nesting the scan sees in s, and the
// offset at which it first passed MaxNesting (-1 if it never did).
// Every bracket counts, quoted or not, and so do the words that open
// and close compound commands wherever they stand: counting too much
// can only refuse a command with a thousand unclosed brackets, while
// counting too little could let one through. A backslash hides the
// byte after it, as it does from the parser.
func nesting(s string) (deepest, at int) {
	at = -1
	depth := 0
	open := func(i int) {
		depth++
		if depth > deepest {
			deepest = depth
			if depth == MaxNesting+1 {
				at = i
			}
		}
	}
	closeOne := func() {
		if depth > 0 {
			depth--
		}
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\\':
			i++
		case '(', '{', '[':
			open(i)
		case ')', '}', ']':
			closeOne()
		default:
			if !isWordStart(c) || (i > 0 && isWordByte(s[i-1])) {
				continue
			}
			j := i + 1
			for j < len(s) && isWordByte(s[j]) {
				j++
			}
			switch s[i:j] {
			case "if", "case", "while", "until", "for", "select":
				open(i)
			case "fi", "esac", "done":
				closeOne()
			}
			i = j - 1
		}
	}
	return deepest, at
}

func isWordStart(c byte) bool { return c >= 'a' && c <= 'z' }

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}
