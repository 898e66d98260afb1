package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spillway-dev/spillway"
	"github.com/spillway-dev/spillway/output"
)

// Spill files are MCP resources, so that a client that does not share the
// server's file system (HTTP) can fetch what a notice names: results link
// them (resource_link), and resources/read serves the calling session's
// spill files and nothing else. For the model, the read tool stays the
// way: it pages.

// maxResourceBytes bounds one resources/read: past it, the read tool pages.
const maxResourceBytes = 16 << 20

// spillTemplate matches the file URIs of spill files.
const spillTemplate = "file:///{+path}"

// addSpillResources registers the resources/read of spill files on s.
func addSpillResources(s *toolServer) {
	s.AddResourceTemplate(&mcp.ResourceTemplate{
		URITemplate: spillTemplate,
		Name:        "spill-file",
		Title:       "Full output of a cut result",
		Description: "The whole output a tool result's notice names (its full_output_path). Only this session's spill files can be read.",
		MIMEType:    "text/plain",
	}, func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		sess, _, err := s.session(&mcp.CallToolRequest{Session: req.Session})
		if err != nil {
			return nil, err
		}
		path, err := sessionSpillFile(sess.current(), req.Params.URI)
		if err != nil {
			return nil, err
		}
		fi, err := os.Stat(path)
		if err != nil {
			return nil, mcp.ResourceNotFoundError(req.Params.URI)
		}
		if fi.Size() > maxResourceBytes {
			return nil, fmt.Errorf("%s is %s, over the %s a resource read returns: page it with the read tool (offset, limit)",
				path, output.FormatSize(fi.Size()), output.FormatSize(maxResourceBytes))
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, mcp.ResourceNotFoundError(req.Params.URI)
		}
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "text/plain", Text: string(data)}}}, nil
	})
}

// sessionSpillFile returns the path uri names when it is a spill file of
// ts's session (symlinks resolved: a link out of the directory is not
// one), else a not-found error that reveals nothing about other files.
func sessionSpillFile(ts *spillway.Toolset, uri string) (string, error) {
	notFound := mcp.ResourceNotFoundError(uri)
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" || ts == nil {
		return "", notFound
	}
	dir := ts.SpillDir()
	if dir == "" {
		return "", notFound
	}
	realDir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", notFound
	}
	real, err := filepath.EvalSymlinks(filepath.Clean(u.Path))
	if err != nil || !strings.HasPrefix(real, realDir+string(filepath.Separator)) {
		return "", notFound
	}
	return real, nil
}

// spillLinks are the resource_link blocks of the spill files a result's
// details name, whichever tool made it: each full_output_path, of the
// result itself (grep, find, ls) or of one of its objects (bash's stdout
// and stderr), in the order the details hold them.
func spillLinks(details json.RawMessage) []mcp.Content {
	// Most results spilled nothing, and their details, which
	// encoding/json wrote and so never escapes a letter of a key, do not
	// hold the key at all: walking them token by token was a tenth of a
	// node's CPU at 300 calls a second.
	if !bytes.Contains(details, []byte(`"full_output_path"`)) {
		return nil
	}
	var links []mcp.Content
	add := func(path, what string) {
		links = append(links, &mcp.ResourceLink{
			URI:         (&url.URL{Scheme: "file", Path: path}).String(),
			Name:        filepath.Base(path),
			Description: what,
			MIMEType:    "text/plain",
		})
	}
	for key, v := range objectFields(details) {
		if key == "full_output_path" {
			var path string
			if json.Unmarshal(v, &path) == nil && path != "" {
				add(path, "The whole output of the call.")
			}
			continue
		}
		for k, p := range objectFields(v) {
			var path string
			if k == "full_output_path" && json.Unmarshal(p, &path) == nil && path != "" {
				add(path, "The whole "+key+" of the command.")
			}
		}
	}
	return links
}

// objectFields yields the members of a JSON object in their order; nothing
// for a value that is not an object.
func objectFields(data json.RawMessage) iter.Seq2[string, json.RawMessage] {
	return func(yield func(string, json.RawMessage) bool) {
		dec := json.NewDecoder(bytes.NewReader(data))
		if t, err := dec.Token(); err != nil || t != json.Delim('{') {
			return
		}
		for dec.More() {
			t, err := dec.Token()
			key, ok := t.(string)
			if err != nil || !ok {
				return
			}
			var v json.RawMessage
			if dec.Decode(&v) != nil || !yield(key, v) {
				return
			}
		}
	}
}
