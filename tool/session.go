package tool

import (
	"context"
	"errors"
)

// ErrClosed is the error of a call on a closed toolset (errors.Is finds
// it in the error a method returns).
var ErrClosed = errors.New("the session has ended (its toolset was closed); start a new one")

// A URLAsker shows the person at the keyboard the address of a page, with
// a message, and reports whether they agreed to open it: MCP's URL-mode
// elicitation. id names the page; URLDone(id) follows once it was
// answered or closed.
type URLAsker interface {
	AskURL(ctx context.Context, url, message, id string) (accepted bool, err error)
	URLDone(id string)
}
