// Package ops holds what an operator of spillway serve watches: the
// Prometheus metrics and the audit log. It knows nothing of MCP; the
// server feeds it one record per call and a snapshot of its state at
// each scrape (docs/operations.md lists the names).
package ops
