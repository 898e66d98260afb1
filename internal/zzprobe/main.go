package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func med(f func()) time.Duration {
	var ds []time.Duration
	for range 300 {
		s := time.Now()
		f()
		ds = append(ds, time.Since(s))
	}
	slices.Sort(ds)
	return ds[150]
}

func main() {
	ctx := context.Background()
	for _, pv := range []string{"", "2025-11-25"} {
		cmd := exec.Command(os.Args[1], "mcp")
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "p", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: pv})
		if err != nil {
			panic(err)
		}
		fmt.Println("protocol", cs.InitializeResult().ProtocolVersion)
		fmt.Println(" ping", med(func() { cs.Ping(ctx, nil) }))
		fmt.Println(" ls  ", med(func() { cs.CallTool(ctx, &mcp.CallToolParams{Name: "ls", Arguments: map[string]any{"path": "/work/main/mcpserver"}}) }))
		fmt.Println(" chk ", med(func() { cs.CallTool(ctx, &mcp.CallToolParams{Name: "bash", Arguments: map[string]any{"check_pid": 1}}) }))
		fmt.Println(" true", med(func() { cs.CallTool(ctx, &mcp.CallToolParams{Name: "bash", Arguments: map[string]any{"command": "true"}}) }))
		fmt.Println(" bare", med(func() { exec.Command("bash", "-c", "true").Run() }))
		cs.Close()
	}
}
