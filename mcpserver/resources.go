package mcpserver

import (
	"context"
	"fmt"
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
// details name.
func spillLinks(details any) []mcp.Content {
	d, ok := details.(spillway.BashDetails)
	if !ok {
		return nil
	}
	var links []mcp.Content
	for _, s := range []struct {
		name string
		path string
	}{{"stdout", d.Stdout.FullOutputPath}, {"stderr", d.Stderr.FullOutputPath}} {
		if s.path == "" {
			continue
		}
		links = append(links, &mcp.ResourceLink{
			URI:         (&url.URL{Scheme: "file", Path: s.path}).String(),
			Name:        filepath.Base(s.path),
			Description: "The whole " + s.name + " of the command.",
			MIMEType:    "text/plain",
		})
	}
	return links
}
