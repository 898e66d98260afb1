package mcpserver

import (
	"encoding/json"
	"testing"
)

// A result that spilled nothing costs no walk of its details: a read's
// details, with no full_output_path, make no allocation; those of a cut
// bash result still give their links.
func TestSpillLinksSkipDetailsWithoutSpill(t *testing.T) {
	read := json.RawMessage(`{"path":"/w/a.txt","kind":"text","mime_type":"text/plain","offset":1,"lines_shown":40,"total_lines":40,"lines_cut":0,"truncation":{"truncated":false,"total_lines":40,"total_bytes":1800},"tokens":500}`)
	if n := testing.AllocsPerRun(100, func() { spillLinks(read) }); n != 0 {
		t.Errorf("the links of a read's details: %.0f allocations, want none", n)
	}
	if links := spillLinks(read); len(links) != 0 {
		t.Errorf("a read's details gave %d links", len(links))
	}
	bash := json.RawMessage(`{"exit_code":0,"stdout":{"full_output_path":"/tmp/s/bash-1.stdout","truncation":{"total_bytes":9}},"stderr":{"full_output_path":""}}`)
	if links := spillLinks(bash); len(links) != 1 {
		t.Errorf("a cut bash result's details gave %d links, want 1", len(links))
	}
}
