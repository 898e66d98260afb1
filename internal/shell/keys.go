package shell

import (
	"fmt"
	"strings"
)

// Named keys, as a terminal sends them (xterm's sequences, the ones
// readline, Python's REPL and most prompt libraries know). Enter is a
// carriage return on a terminal, as a keyboard sends it, and a newline
// on a pipe, which has no line discipline to turn one into the other.
var keyBytes = map[string]string{
	"enter":     "\r",
	"return":    "\r",
	"tab":       "\t",
	"backtab":   "\x1b[Z",
	"esc":       "\x1b",
	"escape":    "\x1b",
	"backspace": "\x7f",
	"space":     " ",
	"up":        "\x1b[A",
	"down":      "\x1b[B",
	"right":     "\x1b[C",
	"left":      "\x1b[D",
	"home":      "\x1b[H",
	"end":       "\x1b[F",
	"pageup":    "\x1b[5~",
	"pagedown":  "\x1b[6~",
	"insert":    "\x1b[2~",
	"delete":    "\x1b[3~",
	"f1":        "\x1bOP",
	"f2":        "\x1bOQ",
	"f3":        "\x1bOR",
	"f4":        "\x1bOS",
	"f5":        "\x1b[15~",
	"f6":        "\x1b[17~",
	"f7":        "\x1b[18~",
	"f8":        "\x1b[19~",
	"f9":        "\x1b[20~",
	"f10":       "\x1b[21~",
	"f11":       "\x1b[23~",
	"f12":       "\x1b[24~",
}

// KeyNames lists the named keys, for descriptions and errors.
func KeyNames() []string {
	names := []string{"Enter", "Tab", "BackTab", "Esc", "Backspace", "Space",
		"Up", "Down", "Left", "Right", "Home", "End", "PageUp", "PageDown", "Insert", "Delete", "F1-F12",
		"Ctrl-A … Ctrl-Z", "Ctrl-[", "Ctrl-\\", "Ctrl-]", "Ctrl-^", "Ctrl-_", "Ctrl-@"}
	return names
}

// keyCode returns the bytes of a named key: "Enter", "Ctrl-C", "up",
// "ctrl+d", "C-c". Case, and "-", "+" or "_" between a modifier and its
// key, do not matter.
func keyCode(name string) (string, error) {
	k := strings.ToLower(strings.TrimSpace(name))
	for _, p := range []string{"ctrl-", "ctrl+", "ctrl_", "control-", "control+", "c-", "^"} {
		rest, ok := strings.CutPrefix(k, p)
		if !ok || len(rest) != 1 {
			continue
		}
		c := rest[0]
		switch {
		case c >= 'a' && c <= 'z':
			return string(rune(c - 'a' + 1)), nil
		case c == '@' || c == ' ' || c == '2':
			return "\x00", nil
		case c >= '[' && c <= '_':
			return string(rune(c - '@')), nil
		case c == '?':
			return "\x7f", nil
		}
	}
	if b, ok := keyBytes[strings.NewReplacer("-", "", "_", "", " ", "").Replace(k)]; ok {
		return b, nil
	}
	return "", fmt.Errorf("unknown key %q: name one of %s, or put the text itself in input", clip(name, 40), strings.Join(KeyNames(), ", "))
}

// clip shortens s for an error message.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
