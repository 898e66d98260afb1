package codexpatch

import "testing"

// Codex's own cases (codex-rs/apply-patch/src/lib.rs tests) of what is
// and is not an apply_patch call.
func TestParseCall(t *testing.T) {
	script := func(prefix string) string {
		return prefix + "apply_patch <<'PATCH'\n*** Begin Patch\n*** Add File: foo\n+hi\n*** End Patch\nPATCH"
	}
	for _, c := range []struct {
		script string
		ok     bool
		dir    string
	}{
		{script(""), true, ""},
		{"applypatch <<'PATCH'\n*** Begin Patch\n*** Add File: foo\n+hi\n*** End Patch\nPATCH", true, ""},
		{"apply_patch <<EOF\n*** Begin Patch\n*** Add File: foo\n+hi\n*** End Patch\nEOF\n", true, ""},
		{script("cd foo && "), true, "foo"},
		{script("cd 'foo bar' && "), true, "foo bar"},
		{script("cd \"foo bar\" && "), true, "foo bar"},
		{script("cd foo; "), false, ""},
		{script("cd bar || "), false, ""},
		{script("cd bar | "), false, ""},
		{script("echo foo && "), false, ""},
		{"apply_patch foo <<'PATCH'\n*** Begin Patch\n*** Add File: foo\n+hi\n*** End Patch\nPATCH", false, ""},
		{script("cd foo && cd bar && "), false, ""},
		{script("cd foo bar && "), false, ""},
		{script("cd bar && ") + " && echo done", false, ""},
		{script("echo foo; cd bar && "), false, ""},
		{script("cd $HOME && "), false, ""},
		{"*** Begin Patch\n*** Add File: foo\n+hi\n*** End Patch", false, ""},
	} {
		call, ok := ParseCall(c.script)
		if ok != c.ok || call.Dir != c.dir {
			t.Errorf("%q: got %v %+v", c.script, ok, call)
			continue
		}
		if ok {
			p, err := Parse(call.Patch)
			if err != nil || len(p.Hunks) != 1 || string(AddContent(p.Hunks[0])) != "hi\n" {
				t.Errorf("%q: body %q: %v", c.script, call.Patch, err)
			}
		}
	}
	if !IsBarePatch("*** Begin Patch\n*** Add File: foo\n+hi\n*** End Patch") || IsBarePatch("echo hi") {
		t.Error("IsBarePatch")
	}
}
