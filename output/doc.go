// Package output is spillway's streaming truncation engine.
//
// Bytes flow one way through a Pipeline:
//
//	source → sanitize → count → spill → line cut → window → render
//
// A Pipeline is an io.Writer (and an io.ReaderFrom). It strips terminal escape
// sequences and control bytes, repairs invalid UTF-8, counts what it saw,
// hands the full sanitized stream to a Spill once the output no longer fits
// the Limits, and keeps only a bounded head buffer and tail ring for the model.
// Memory is O(limits), never O(output).
//
// The package knows nothing of processes or files: a Spill is any io.Writer
// with a path, opened lazily through a SpillOpener.
package output
