package mcpserver_test

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every file change is in the audit log with its path and the hashes of
// the content before and after.
func TestAuditLogFileChanges(t *testing.T) {
	t.Parallel()
	const token = "aud1t-f1les"
	log := filepath.Join(t.TempDir(), "audit.jsonl")
	s := startHTTP(t, []string{"SPILLWAY_TOKEN=" + token}, "--audit-log", log)
	cs := connectHTTP(t, s.url, nil, map[string][]string{"Authorization": {"Bearer " + token}}, false)
	dir := t.TempDir()
	file := filepath.Join(dir, "notes.txt")
	os.WriteFile(file, []byte("alpha\nbeta\n"), 0o600)
	call(t, cs, "edit", map[string]any{"path": file, "old_string": "beta", "new_string": "gamma"})
	call(t, cs, "apply_patch", map[string]any{"input": "*** Begin Patch\n*** Add File: " + filepath.Join(dir, "new.txt") + "\n+x\n*** End Patch"})
	cs.Close()
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	for _, want := range []string{
		`"tool":"edit"`, `"path":"` + file + `"`,
		// sha256("alpha\nbeta\n") and sha256("alpha\ngamma\n")
		`"sha256_before":"` + sha256hex("alpha\nbeta\n") + `"`, `"sha256_after":"` + sha256hex("alpha\ngamma\n") + `"`,
		`"tool":"apply_patch"`, `"sha256_after":"` + sha256hex("x\n") + `"`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the audit log lacks %s:\n%s", want, text)
		}
	}
}

func sha256hex(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}
