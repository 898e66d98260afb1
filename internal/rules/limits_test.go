package rules

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestLimit(t *testing.T) {
	for _, c := range []struct {
		name, command, want string
	}{
		{"long", strings.Repeat("a", MaxCommandBytes+1), "MaxCommandBytes"},
		{"parens", strings.Repeat("(", MaxNesting+1), "nests more than 1000 levels"},
		{"dollar parens", strings.Repeat("$(", MaxNesting+1), "nests more than"},
		{"braces", strings.Repeat("${a:-", MaxNesting+1), "nests more than"},
		{"index", "echo ${" + strings.Repeat("a[", MaxNesting+1), "nests more than"},
		{"if", strings.Repeat("if ", MaxNesting+1), "nests more than"},
		{"while", strings.Repeat("while ", MaxNesting+1), "nests more than"},
		{"quoted", "echo '" + strings.Repeat("(", MaxNesting+1) + "'", "nests more than"},
		{"past closers", strings.Repeat(")", 5000) + strings.Repeat("(", MaxNesting+1), "nests more than"},
	} {
		err := Limit(c.command)
		if err == nil || !errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error naming %q", c.name, err, c.want)
		}
	}
	for _, c := range []string{
		"",
		strings.Repeat("a", MaxCommandBytes),
		strings.Repeat("(", MaxNesting),
		strings.Repeat("(a)", 40_000),
		strings.Repeat("if a; then b; fi; ", 5000),
		strings.Repeat("for i in a; do b; done\n", 5000),
		`echo \(\(\(` + strings.Repeat(`\(`, 5000),
		"if iffy fifo do done; then ifconfig; fi; elif=1; casey=2",
		strings.Repeat("echo (a) [b] {c}\n", 5000),
	} {
		if err := Limit(c); err != nil {
			t.Errorf("%.40q: %v", c, err)
		}
	}
}

// TestLimitBeforeParse: Check denies input past a limit, naming it,
// without parsing it; and the nesting the scan cannot see (a closing
// bracket in quotes) costs so many bytes a level that the longest input
// it lets through is parsed in bounded time. Before the limits, 200,000
// ( ended the process with "fatal error: stack overflow".
func TestLimitBeforeParse(t *testing.T) {
	s := &Set{}
	for _, bomb := range []string{strings.Repeat("(", 200_000), strings.Repeat("$(", 150_000), strings.Repeat("(", 110_000)} {
		v := s.Check(bomb)
		parts := v.Parts()
		if v.Decision != Deny || len(parts) != 1 || !strings.Contains(parts[0].Reason, "past a limit") {
			t.Fatalf("%d bytes: %v %+v, want deny naming the limit", len(bomb), v.Decision, parts)
		}
	}
	hidden := strings.Repeat("$(')'", MaxCommandBytes/5)
	if err := Limit(hidden); err != nil {
		t.Fatalf("the hidden nesting is refused: %v", err)
	}
	plain := strings.Repeat("echo a; ", MaxCommandBytes/8)
	start := time.Now()
	s.Check(plain)
	flat := time.Since(start)
	start = time.Now()
	v := s.Check(hidden)
	deep := time.Since(start)
	t.Logf("%d levels hidden in quotes: %v (%v for a flat input of the same length); decision %v", MaxCommandBytes/5, deep, flat, v.Decision)
	if v.Decision == Allow {
		t.Errorf("an unparsable input was allowed")
	}
}

func FuzzLimit(f *testing.F) {
	for _, s := range []string{"", "(", "$(')'", "if a; then (b); fi", `\(`, "case x in a) ;; esac"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		err := Limit(s)
		if len(s) > MaxCommandBytes && err == nil {
			t.Fatalf("%d bytes passed", len(s))
		}
		d, at := nesting(s)
		if (d > MaxNesting) != (at >= 0) || at >= len(s) {
			t.Fatalf("nesting %d at %d", d, at)
		}
		// A bracket added in front opens one more level, never fewer.
		if d2, _ := nesting("(" + s); d2 != d+1 && d2 != d {
			t.Fatalf("nesting %d, with ( in front %d", d, d2)
		}
		if err == nil {
			// Within the limits the checker returns.
			(&Set{}).Check(s)
		}
	})
}
