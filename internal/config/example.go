package config

import (
	"fmt"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"github.com/spillway-dev/spillway"
	"github.com/spillway-dev/spillway/internal/policy"
)

// comment says in a few words what key k does, for the example file
// Example writes: the doc tag beside the key's field (for a key [bash]
// shares with its streams, output.Limits' field), or, for profile, the
// profiles there are. A key without one makes Example fail, so that a new
// key cannot reach the README without a word on it.
func comment(k policy.Key) (string, bool) {
	if k.Name == profileKey {
		return "default, or the limits of another harness: " + strings.Join(policy.ProfileNames()[1:], ", "), true
	}
	doc, ok := k.Fields[0].Tag("doc")
	return doc, ok && doc != ""
}

// leftOut are the keys Example writes commented out: setting them to
// their default would change what spillway does. timeout_ms's default is
// the CLI's; the servers use their own, which a written key would replace.
var leftOut = map[string]bool{"timeout_ms": true}

// commentColumn is where the comments of Example's lines start.
const commentColumn = 28

// Example renders the config file of policy p with every key, its value
// in p and one comment each: the README's example, read back by
// ParseConfig. The keys [bash] shares with its streams are written once,
// in [bash]; [bash.stdout] and [bash.stderr] are named in its comment.
func Example(p spillway.Policy) (string, error) {
	var b strings.Builder
	line := func(text, comment string) {
		if comment == "" {
			b.WriteString(text + "\n")
			return
		}
		pad := max(commentColumn-len(text), 1)
		b.WriteString(text + strings.Repeat(" ", pad) + "# " + comment + "\n")
	}
	for _, k := range policyKeys() {
		if len(k.Path) > 1 && isStreamTable(k.Path[:2]) {
			continue // the keys of one stream: [bash] shows them
		}
		comment, ok := comment(k)
		if !ok {
			return "", fmt.Errorf("config key %s has no doc tag beside its field", k.Name)
		}
		if k.Table() {
			b.WriteString("\n")
			line("["+k.Name+"]", comment)
			continue
		}
		text, err := exampleLine(k, p)
		if err != nil {
			return "", err
		}
		if leftOut[k.Name] {
			text = "# " + text
		}
		line(text, comment)
	}
	return b.String(), nil
}

// isStreamTable reports whether path is [bash.stdout] or [bash.stderr].
func isStreamTable(path []string) bool {
	return len(path) == 2 && path[0] == "bash" && (path[1] == "stdout" || path[1] == "stderr")
}

// exampleLine is "name = value" for key k of the policy p, in TOML.
func exampleLine(k policy.Key, p spillway.Policy) (string, error) {
	x := k.Value(p)
	out, err := toml.Marshal(map[string]any{k.Path[len(k.Path)-1]: x})
	if err != nil {
		return "", err
	}
	text := strings.TrimSpace(string(out))
	// Strings in double quotes, as people write them.
	if name, val, ok := strings.Cut(text, " = '"); ok && strings.HasSuffix(val, "'") && !strings.ContainsAny(val, `"\`) {
		text = name + ` = "` + strings.TrimSuffix(val, "'") + `"`
	}
	return text, nil
}
