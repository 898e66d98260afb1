package spillway

// What the model reads of an edit and a patch made through spillway in
// Claude Code and Codex with their own edit tools off
// (e2e/edit_clients_test.go), for docs/tools.md.
const clientsTranscript = `
Through the clients, with their own edit tools off (Claude Code 2.1.330 started with ` + "`--disallowedTools Edit,Write,MultiEdit,NotebookEdit`" + `; Codex 0.169.0
with ` + "`include_apply_patch_tool = false`" + ` and ` + "`[features] shell_tool = false`" + ` in its config.toml, which leaves it no shell through which to run its own
` + "`apply_patch <<'EOF'`" + `), a stand-in model on 127.0.0.1 calls spillway's ` + "`edit`" + ` and ` + "`apply_patch`" + `; the files change on disk, and this is the tool
result the model API receives (` + "`go test ./e2e -run FileChanges -v`" + ` with SPILLWAY_E2E_CLAUDE and SPILLWAY_E2E_CODEX set; .ci/clients.sh installs both).
Both clients pass the text on whole; Codex puts two lines of its own before it. The edit as Codex passed it, and the patch as Claude Code passed it:

<!-- not run: what Codex passed to its model API, recorded by go test ./e2e -run FileChanges -->
` + "```" + `
Wall time: 0.0263 seconds
Output:
Successfully replaced 1 occurrence in notes.txt (1 line added, 1 line removed).
--- a/notes.txt
+++ b/notes.txt
@@ -1,3 +1,3 @@
 first line
-second line with a needle
+second line, edited
 third line
` + "```" + `

<!-- not run: what Claude Code passed to its model API, recorded by go test ./e2e -run FileChanges -->
` + "```" + `
Success. Updated the following files:
M src/main.go
--- a/src/main.go
+++ b/src/main.go
@@ -1,4 +1,6 @@
 package main
 
 // needle: the thing to find
-func main() {}
+func main() {
+	println("patched")
+}
` + "```" + `
`
