package spillway

import (
	"strings"

	"github.com/spillway-dev/spillway/internal/render"
	"github.com/spillway-dev/spillway/internal/surface"
)

// peerJSON renders a successful result as the peer system of the
// profile does (internal/surface); ok is false when the profile has no
// surface of its own for the tool.
func (t *Toolset) peerJSON(text string, details any, content []render.Field) (string, bool) {
	return surface.JSON(t.policy.Profile, text, details, content, t.commandOf)
}

// commandOf is the command line of the recorded call id, "" when it is
// no longer recorded.
func (t *Toolset) commandOf(id int) string {
	for _, rec := range t.shell.History() {
		if rec.ID == id {
			return strings.Join(append([]string{rec.Command}, rec.Args...), " ")
		}
	}
	return ""
}
