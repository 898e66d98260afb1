package mcpserver_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A cut result links its spill files; resources/read serves them to the
// session that made them, and refuses another session's and any other
// path.
func TestSpillFilesAsResources(t *testing.T) {
	t.Parallel()
	s := startHTTP(t, nil, "--no-token")
	a := connectHTTP(t, s.url, nil, nil, false)
	b := connectHTTP(t, s.url, nil, nil, false)
	res := call(t, a, "bash", map[string]any{"command": "seq 1 100000"})
	var link *mcp.ResourceLink
	for _, c := range res.Content {
		if l, ok := c.(*mcp.ResourceLink); ok {
			link = l
		}
	}
	if link == nil || !strings.HasPrefix(link.URI, "file:///") {
		t.Fatalf("no resource_link to the spill file in %v", res.Content)
	}
	got, err := a.ReadResource(testContext(t), &mcp.ReadResourceParams{URI: link.URI})
	if err != nil || len(got.Contents) != 1 || !strings.HasSuffix(got.Contents[0].Text, "\n99999\n100000\n") {
		t.Fatalf("reading the spill file: %v", err)
	}
	// Another session cannot read it, nor any file outside the spill directory.
	if _, err := b.ReadResource(testContext(t), &mcp.ReadResourceParams{URI: link.URI}); err == nil {
		t.Error("another session read the spill file")
	}
	outside := filepath.Join(t.TempDir(), "secret.txt")
	os.WriteFile(outside, []byte("confidential-content\n"), 0o644)
	for _, uri := range []string{"file://" + outside, "file:///etc/passwd", link.URI + "/../../../etc/passwd"} {
		if r, err := a.ReadResource(testContext(t), &mcp.ReadResourceParams{URI: uri}); err == nil {
			t.Errorf("read %s: %v", uri, r.Contents)
		}
	}
	// A symlink in the spill directory leads nowhere outside it.
	link2 := filepath.Join(filepath.Dir(strings.TrimPrefix(link.URI, "file://")), "escape.log")
	if err := os.Symlink(outside, link2); err == nil {
		if _, err := a.ReadResource(testContext(t), &mcp.ReadResourceParams{URI: "file://" + link2}); err == nil {
			t.Error("a symlink out of the spill directory was followed")
		}
	}
}

// Every tool's spill file is linked, not bash's alone: a grep whose
// matches pass the byte limit links the file that holds them all, and
// resources/read serves it.
func TestGrepSpillFileIsLinked(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	line := "needle " + strings.Repeat("x", 100) + "\n"
	if err := os.WriteFile(filepath.Join(dir, "big.txt"), []byte(strings.Repeat(line, 900)), 0o644); err != nil {
		t.Fatal(err)
	}
	s := startHTTP(t, nil, "--no-token")
	a := connectHTTP(t, s.url, nil, nil, false)
	res := call(t, a, "grep", map[string]any{"pattern": "needle", "path": dir, "limit": 1000})
	var link *mcp.ResourceLink
	for _, c := range res.Content {
		if l, ok := c.(*mcp.ResourceLink); ok {
			link = l
		}
	}
	if link == nil {
		t.Fatalf("no resource_link to grep's spill file in %v", res.Content)
	}
	got, err := a.ReadResource(testContext(t), &mcp.ReadResourceParams{URI: link.URI})
	if err != nil || len(got.Contents) != 1 || strings.Count(got.Contents[0].Text, "needle") != 900 {
		t.Fatalf("reading grep's spill file: %v", err)
	}
}
