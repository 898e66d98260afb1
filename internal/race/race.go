//go:build race

// Package race says whether the binary was built with the race detector
// (go build -race, go test -race): it is a build to find races in, slower
// many times over, whose processes sleep at exit unless GORACE says not.
package race

// Enabled: the race detector is on.
const Enabled = true
