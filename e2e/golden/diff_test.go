package golden

import "testing"

// The corpus's own helpers: a failing case must show what changed, and the
// squeezed runs must lose nothing.
func TestDiff(t *testing.T) {
	got := diff("a\nb\nc\nd\n", "a\nB\nc\nd\ne\n")
	want := "@@ line 1 @@\n a\n-b\n+B\n c\n d\n+e\n"
	if got != want {
		t.Errorf("diff:\n%s\nwant:\n%s", got, want)
	}
}

func TestSqueezeRuns(t *testing.T) {
	for in, want := range map[string]string{
		"1\n2\n3\n4\n5\n6\n7\n8\nx\n":       "⟦1..8⟧\nx\n",
		"1\n2\n3\n4\n5\n6\n7\nx\n":          "1\n2\n3\n4\n5\n6\n7\nx\n",
		`"9\n10\n11\n12\n13\n14\n15\n16\n"`: `"⟦9..16⟧\n"`,
		"5\n1\n2\n3\n4\n5\n6\n7\n8\n9\n":    "5\n⟦1..9⟧\n",
		"01\n2\n3\n4\n5\n6\n7\n8\n9\n":      "01\n⟦2..9⟧\n",
	} {
		if got := squeezeRuns(in); got != want {
			t.Errorf("squeezeRuns(%q) = %q, want %q", in, got, want)
		}
	}
}
