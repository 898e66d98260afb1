package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"regexp"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxLineBytes bounds one inbound JSON-RPC message on stdio.
const maxLineBytes = 16 << 20

// A lineTransport is the stdio transport: one JSON-RPC message per line.
// Unlike mcp.StdioTransport, which ends the session at the first line it
// cannot decode, it answers a malformed line with a JSON-RPC error (parse
// error, or invalid request) and goes on reading.
type lineTransport struct {
	r io.Reader
	w io.Writer
	// onEOF is called once when r ends and the requests read before have
	// had answerGrace to be answered: it cancels the calls still running,
	// whose results are then answered too (within callDrainTimeout).
	onEOF func()
	log   *slog.Logger
}

// Connect implements mcp.Transport.
func (t *lineTransport) Connect(context.Context) (mcp.Connection, error) {
	c := &lineConn{w: t.w, lines: make(chan inbound), closed: make(chan struct{}), onEOF: t.onEOF, log: t.log,
		pending: map[jsonrpc.ID]bool{}, answered: make(chan struct{})}
	go c.readLines(t.r)
	return c, nil
}

type lineConn struct {
	wmu sync.Mutex
	w   io.Writer

	lines   chan inbound // from readLines
	readErr error        // set before lines is closed

	closeOnce sync.Once
	closed    chan struct{}
	eofOnce   sync.Once
	onEOF     func()

	// pending holds the ids of the requests read and not yet answered, so
	// that the end of stdin waits for their answers (go-sdk#1061: a
	// connection that ends drops the answers still being prepared).
	pmu      sync.Mutex
	pending  map[jsonrpc.ID]bool
	answered chan struct{} // closed and replaced when pending empties
	log      *slog.Logger
}

// errLineTooLong marks a line longer than maxLineBytes.
var errLineTooLong = errors.New("message over the limit")

// An inbound is a line read from stdin, or what is kept of one over the
// limit.
type inbound struct {
	line []byte
	over *overLong
}

// idKeep is how much of the start and of the end of an over-long message
// is kept to find its id in: clients write the id before the parameters
// (Go's and Python's SDKs) or after them (the TypeScript SDK).
const idKeep = 64 << 10

// An overLong is what is kept of a message over maxLineBytes: its size
// and its first and last idKeep bytes.
type overLong struct {
	size       int64
	head, tail []byte
}

func (o *overLong) add(b []byte) {
	o.size += int64(len(b))
	if n := idKeep - len(o.head); n > 0 {
		o.head = append(o.head, b[:min(n, len(b))]...)
	}
	o.tail = append(o.tail, b...)
	if len(o.tail) > 2*idKeep {
		o.tail = append(o.tail[:0], o.tail[len(o.tail)-idKeep:]...)
	}
}

// readLines reads r line by line and hands each non-empty line to Read. A
// goroutine, so that Close can unblock a Read waiting on stdin.
func (c *lineConn) readLines(r io.Reader) {
	br := bufio.NewReaderSize(r, 64<<10)
	defer close(c.lines)
	for {
		line, over, err := readLine(br)
		if len(bytes.TrimSpace(line)) > 0 || over != nil {
			select {
			case c.lines <- inbound{line: line, over: over}:
			case <-c.closed:
				return
			}
		}
		if err != nil && !errors.Is(err, errLineTooLong) {
			c.readErr = err
			return
		}
	}
}

// readLine returns the next line without its newline. A line over
// maxLineBytes is read to its end and returned as an overLong, with
// errLineTooLong (or the error that ended it).
func readLine(br *bufio.Reader) ([]byte, *overLong, error) {
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(line)+len(chunk) > maxLineBytes {
			o := &overLong{}
			o.add(line)
			o.add(chunk)
			for errors.Is(err, bufio.ErrBufferFull) {
				chunk, err = br.ReadSlice('\n')
				o.add(chunk)
			}
			if err == nil {
				err = errLineTooLong
			}
			return nil, o, err
		}
		line = append(line, chunk...)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimSuffix(line, []byte("\n")), nil, err
	}
}

// Read implements mcp.Connection: it returns the next valid message and
// answers the invalid ones itself.
func (c *lineConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		var in inbound
		var ok bool
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-c.closed:
			return nil, io.EOF
		case in, ok = <-c.lines:
		}
		if !ok {
			c.eofOnce.Do(func() {
				// Answer what was asked before the client hung up: first
				// let the calls finish, then cancel those still running
				// (a cancelled call still returns a result) and wait for
				// their answers too.
				if !c.waitAnswered(answerGrace) && c.onEOF != nil {
					c.onEOF()
					c.waitAnswered(callDrainTimeout)
				}
			})
			if c.readErr == nil || errors.Is(c.readErr, io.EOF) {
				return nil, io.EOF
			}
			return nil, c.readErr
		}
		var msg jsonrpc.Message
		var rerr *lineError
		if in.over != nil {
			rerr = in.over.error()
		} else {
			msg, rerr = decodeLine(in.line)
		}
		if rerr == nil {
			if req, ok := msg.(*jsonrpc.Request); ok {
				c.track(req)
			}
			return msg, nil
		}
		c.log.Warn("bad message on stdin", "error", rerr.Message)
		if err := c.writeLine(rerr.encode()); err != nil {
			return nil, err
		}
	}
}

// A lineError is the JSON-RPC error that answers an invalid line.
type lineError struct {
	id      jsonrpc.ID
	code    int64
	Message string
}

// encode returns the error response. JSON-RPC wants "id": null when the
// request's id is unknown, which jsonrpc.EncodeMessage would leave out.
func (e *lineError) encode() []byte {
	var id any
	if e.id.IsValid() {
		id = e.id.Raw()
	}
	data, _ := json.Marshal(map[string]any{
		"jsonrpc": "2.0",
		"id":      id,
		"error":   map[string]any{"code": e.code, "message": e.Message},
	})
	return data
}

// error is the answer to an over-long message: the limit, named, to the
// id the message carries where it can be found, so that the client's call
// fails at once instead of waiting for an answer that never comes.
func (o *overLong) error() *lineError {
	return &lineError{id: o.id(), code: jsonrpc.CodeInvalidRequest,
		Message: fmt.Sprintf("Invalid request: the message is %d bytes, over the limit of %d bytes (16 MiB) for one message on stdio; it was not read",
			o.size, maxLineBytes)}
}

// tailID matches an id that ends the message's object: `"id":7}`.
var tailID = regexp.MustCompile(`"id"\s*:\s*(-?[0-9]+|"(?:[^"\\]|\\.)*")\s*}$`)

// id reads the message's id from its start, where it comes before the
// first value too long to be kept whole, or else from its end.
func (o *overLong) id() jsonrpc.ID {
	dec := json.NewDecoder(bytes.NewReader(o.head))
	if tok, err := dec.Token(); err == nil && tok == json.Delim('{') {
		for dec.More() {
			key, err := dec.Token()
			if err != nil {
				break
			}
			var v json.RawMessage
			if err := dec.Decode(&v); err != nil {
				break // cut: a value longer than the head
			}
			if key == "id" {
				return makeID(v)
			}
		}
	}
	if m := tailID.FindSubmatch(bytes.TrimSpace(o.tail)); m != nil {
		return makeID(m[1])
	}
	return jsonrpc.ID{}
}

// makeID is the id of the JSON value v, or none.
func makeID(v []byte) jsonrpc.ID {
	var raw any
	if json.Unmarshal(v, &raw) != nil {
		return jsonrpc.ID{}
	}
	id, err := jsonrpc.MakeID(raw)
	if err != nil {
		return jsonrpc.ID{}
	}
	return id
}

// decodeLine decodes one line into a message, or says why it cannot.
func decodeLine(line []byte) (jsonrpc.Message, *lineError) {
	line = bytes.TrimSpace(line)
	if !json.Valid(line) {
		var v any
		err := json.Unmarshal(line, &v)
		return nil, &lineError{code: jsonrpc.CodeParseError, Message: "Parse error: " + err.Error() + "; send one JSON-RPC message per line"}
	}
	if line[0] == '[' {
		return nil, &lineError{code: jsonrpc.CodeInvalidRequest, Message: "Invalid request: JSON-RPC batches are not supported; send one message per line"}
	}
	// Decoded here with encoding/json: the SDK's decoder allocates a large
	// buffer per message, which dominated the cost of a small call.
	var w struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      any             `json:"id"`
		Method  *string         `json:"method"`
		Params  json.RawMessage `json:"params"`
		Result  json.RawMessage `json:"result"`
		Error   *jsonrpc.Error  `json:"error"`
	}
	if err := json.Unmarshal(line, &w); err != nil {
		return nil, &lineError{code: jsonrpc.CodeInvalidRequest, Message: "Invalid request: " + err.Error()}
	}
	id, idErr := jsonrpc.MakeID(w.ID)
	invalid := func(msg string) *lineError {
		e := &lineError{code: jsonrpc.CodeInvalidRequest, Message: "Invalid request: " + msg}
		if idErr == nil {
			e.id = id
		}
		return e
	}
	switch {
	case w.JSONRPC != "2.0":
		return nil, invalid(fmt.Sprintf(`"jsonrpc" is %q, want "2.0"`, w.JSONRPC))
	case idErr != nil:
		return nil, invalid(`"id" must be a string, a number or null`)
	case w.Method != nil:
		return &jsonrpc.Request{ID: id, Method: *w.Method, Params: w.Params}, nil
	case !id.IsValid():
		return nil, invalid(`a message needs a "method" (request, notification) or an "id" (response)`)
	}
	resp := &jsonrpc.Response{ID: id, Result: w.Result}
	if w.Error != nil {
		resp.Error = w.Error
	}
	return resp, nil
}

// Write implements mcp.Connection: one message, one line, one write.
func (c *lineConn) Write(_ context.Context, msg jsonrpc.Message) error {
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return err
	}
	err = c.writeLine(data)
	if resp, ok := msg.(*jsonrpc.Response); ok {
		c.pmu.Lock()
		c.answer(resp.ID)
		c.pmu.Unlock()
	}
	return err
}

// track notes a request that awaits an answer; a cancelled request needs
// none.
func (c *lineConn) track(req *jsonrpc.Request) {
	c.pmu.Lock()
	defer c.pmu.Unlock()
	if req.ID.IsValid() {
		c.pending[req.ID] = true
		return
	}
	if req.Method != "notifications/cancelled" {
		return
	}
	var p struct {
		RequestID any `json:"requestId"`
	}
	if json.Unmarshal(req.Params, &p) != nil {
		return
	}
	if id, err := jsonrpc.MakeID(p.RequestID); err == nil {
		c.answer(id)
	}
}

// answer notes that request id needs no more waiting for; c.pmu is held.
func (c *lineConn) answer(id jsonrpc.ID) {
	if !c.pending[id] {
		return
	}
	delete(c.pending, id)
	if len(c.pending) == 0 {
		close(c.answered)
		c.answered = make(chan struct{})
	}
}

// answerGrace is how long the end of stdin waits for the calls in flight
// to finish on their own before it cancels them.
const answerGrace = 2 * time.Second

// waitAnswered waits up to d until every request read has been answered,
// and reports whether it was.
func (c *lineConn) waitAnswered(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	for {
		c.pmu.Lock()
		n, answered := len(c.pending), c.answered
		c.pmu.Unlock()
		if n == 0 {
			return true
		}
		select {
		case <-answered:
		case <-t.C:
			return false
		}
	}
}

// writeLine writes data and a newline in one write.
func (c *lineConn) writeLine(data []byte) error {
	data = append(data, '\n')
	c.wmu.Lock()
	defer c.wmu.Unlock()
	select {
	case <-c.closed:
		return io.ErrClosedPipe
	default:
	}
	_, err := c.w.Write(data)
	return err
}

// Close implements mcp.Connection. stdin itself stays open: a blocked read
// of it cannot be interrupted, and the process is about to exit.
func (c *lineConn) Close() error {
	c.closeOnce.Do(func() { close(c.closed) })
	return nil
}

// SessionID implements mcp.Connection.
func (c *lineConn) SessionID() string { return "" }
