package main

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"runtime"
)

// debugListenEnv names a loopback address on which the process serves its
// own figures (goroutines, heap) as JSON at /debug/spillway (?gc=1 collects
// garbage first, so that heap_alloc is the live heap), for the soak test
// (bench/soak.sh). Unset, nothing is served.
const debugListenEnv = "SPILLWAY_DEBUG_LISTEN"

// serveDebugVars starts that server when the variable asks for it; main
// calls it once the sandbox helper (which must not serve) has had its turn.
func serveDebugVars() {
	addr := os.Getenv(debugListenEnv)
	if addr == "" {
		return
	}
	// The commands that bash runs must not inherit it.
	os.Unsetenv(debugListenEnv)
	host, _, err := net.SplitHostPort(addr)
	if ip := net.ParseIP(host); err != nil || ip == nil || !ip.IsLoopback() {
		fmt.Fprintf(os.Stderr, "spillway: %s=%q: want a loopback HOST:PORT such as 127.0.0.1:7778\n", debugListenEnv, addr)
		os.Exit(2)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		fmt.Fprintf(os.Stderr, "spillway: %s: %v\n", debugListenEnv, err)
		os.Exit(2)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/spillway", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("gc") == "1" {
			runtime.GC() // heap_alloc is then the live heap
		}
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{
			"goroutines": runtime.NumGoroutine(),
			"heap_alloc": ms.HeapAlloc,
			"heap_sys":   ms.HeapSys,
			"sys":        ms.Sys,
			"num_gc":     ms.NumGC,
		})
	})
	go http.Serve(ln, mux)
}
