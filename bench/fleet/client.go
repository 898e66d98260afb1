//go:build unix

package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// protocolVersion is the MCP version the bench speaks.
const protocolVersion = "2025-06-18"

// A client speaks MCP over Streamable HTTP by hand: thousands of sessions
// cost a map entry each, not an SDK client with its goroutines.
type client struct {
	url   string // the /mcp endpoint (the proxy's, or a node's)
	token string
	http  *http.Client
	ids   atomic.Int64
}

func newClient(url, token string) *client {
	tr := &http.Transport{MaxIdleConns: 1024, MaxIdleConnsPerHost: 1024, IdleConnTimeout: time.Minute}
	return &client{url: url, token: token, http: &http.Client{Transport: tr, Timeout: 2 * time.Minute}}
}

// lineBuffers hold the lines of SSE answers while they are read.
var lineBuffers = sync.Pool{New: func() any { b := make([]byte, 64<<10); return &b }}

// An answer is what an MCP POST got back.
type answer struct {
	status  int
	session string // Mcp-Session-Id of the answer
	retry   string // Retry-After
	result  json.RawMessage
	rpcErr  json.RawMessage
}

// post sends one JSON-RPC message (a request when id > 0) on session sess
// ("" for initialize) and reads the answer, SSE or JSON.
func (c *client) post(sess, method string, params any, notify bool) (answer, error) {
	msg := map[string]any{"jsonrpc": "2.0", "method": method}
	if params != nil {
		msg["params"] = params
	}
	var id int64
	if !notify {
		id = c.ids.Add(1)
		msg["id"] = id
	}
	body, _ := json.Marshal(msg)
	req, _ := http.NewRequest(http.MethodPost, c.url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", protocolVersion)
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	if sess != "" {
		req.Header.Set("Mcp-Session-Id", sess)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return answer{}, err
	}
	defer resp.Body.Close()
	a := answer{status: resp.StatusCode, session: resp.Header.Get("Mcp-Session-Id"), retry: resp.Header.Get("Retry-After")}
	if resp.StatusCode != http.StatusOK || notify {
		io.Copy(io.Discard, resp.Body)
		return a, nil
	}
	var reply struct {
		ID     int64           `json:"id"`
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		// A line buffer from the pool, not a new megabyte a call: at 300
		// calls a second, zeroing those took as much of the two cores as
		// the node's own work, and the figures measured the bench.
		buf := lineBuffers.Get().(*[]byte)
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(*buf, 4<<20)
		for sc.Scan() {
			data, ok := bytes.CutPrefix(sc.Bytes(), []byte("data: "))
			if !ok || json.Unmarshal(data, &reply) != nil || reply.ID != id {
				continue
			}
			break
		}
		lineBuffers.Put(buf)
		// The rest of the stream (its end) is read, so that the
		// connection goes back to the pool instead of being closed.
		io.Copy(io.Discard, resp.Body)
	} else {
		json.NewDecoder(resp.Body).Decode(&reply)
	}
	if reply.ID != id {
		return a, fmt.Errorf("%s: no answer to request %d", method, id)
	}
	a.result, a.rpcErr = reply.Result, reply.Error
	return a, nil
}

// open starts a session and returns its id.
func (c *client) open() (answer, error) {
	a, err := c.post("", "initialize", map[string]any{
		"protocolVersion": protocolVersion,
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]any{"name": "fleet-bench", "version": "1"},
	}, false)
	if err != nil || a.status != http.StatusOK {
		return a, err
	}
	if a.session == "" {
		return a, fmt.Errorf("initialize: no Mcp-Session-Id")
	}
	n, err := c.post(a.session, "notifications/initialized", nil, true)
	if err == nil && n.status != http.StatusAccepted {
		err = fmt.Errorf("notifications/initialized: %d", n.status)
	}
	return a, err
}

// callTool calls a tool: the HTTP status, and an error for a protocol
// error or an isError result.
func (c *client) callTool(sess, tool string, args map[string]any) (int, error) {
	a, err := c.post(sess, "tools/call", map[string]any{"name": tool, "arguments": args}, false)
	if err != nil || a.status != http.StatusOK {
		return a.status, err
	}
	if a.rpcErr != nil {
		return a.status, fmt.Errorf("%s: %s", tool, a.rpcErr)
	}
	var r struct {
		IsError bool `json:"isError"`
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
	}
	json.Unmarshal(a.result, &r)
	if r.IsError {
		text := ""
		if len(r.Content) > 0 {
			text = r.Content[0].Text
		}
		return a.status, fmt.Errorf("%s: isError: %.200s", tool, text)
	}
	return a.status, nil
}

// end ends session sess with DELETE, as a client that is done does, and
// returns the status.
func (c *client) end(sess string) (int, error) {
	req, _ := http.NewRequest(http.MethodDelete, c.url, nil)
	req.Header.Set("Mcp-Session-Id", sess)
	req.Header.Set("Mcp-Protocol-Version", protocolVersion)
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, err
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode, nil
}
