package policy

import (
	"strings"
	"testing"

	"github.com/spillway-dev/spillway/output"
)

func TestForCall(t *testing.T) {
	def := Default().Bash
	oc := mustProfile(t, "opencode").Bash
	tests := []struct {
		name                     string
		bash                     Bash
		maxLines, maxBytes       int
		full                     bool
		lines, bytes, chars, shw int
	}{
		{"nothing given keeps the policy", def, 0, 0, false, 2000, 51200, 2000, 0},
		{"max_bytes of 1 GiB is held to the ceiling", def, 0, 1 << 30, false, 2000, StreamCeiling, 2000, 0},
		{"max_lines past the ceiling", def, 1 << 40, 0, false, LinesCeiling, 51200, 2000, 0},
		{"smaller limits", def, 10, 100, false, 10, 100, 2000, 0},
		{"negative means not given", def, -1, -1, false, 2000, 51200, 2000, 0},
		{"full_output", def, 0, 0, true, LinesCeiling, StreamCeiling, 0, 0},
		{"full_output wins over max_bytes", def, 5, 1 << 30, true, LinesCeiling, StreamCeiling, 0, 0},
		{"opencode keeps 500+500 without max_lines", oc, 0, 4096, false, 2000, 4096, 0, 1000},
		{"opencode max_lines sets the shown lines too", oc, 3000, 0, false, 3000, 51200, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := tt.bash.ForCall(tt.maxLines, tt.maxBytes, tt.full)
			for _, l := range []output.Limits{b.Stdout, b.Stderr} {
				if l.MaxLines != tt.lines || l.MaxBytes != tt.bytes || l.MaxLineChars != tt.chars || l.ShownLines != tt.shw {
					t.Errorf("got lines %d bytes %d chars %d shown %d, want %d %d %d %d",
						l.MaxLines, l.MaxBytes, l.MaxLineChars, l.ShownLines, tt.lines, tt.bytes, tt.chars, tt.shw)
				}
				if err := l.Validate(); err != nil {
					t.Error(err)
				}
			}
			if b.SpillWhen != tt.bash.SpillWhen || b.MergeStreams != tt.bash.MergeStreams {
				t.Error("ForCall changed more than the limits")
			}
		})
	}
	if tt := tests[0]; tt.bash.Stdout.MaxBytes != 51200 {
		t.Error("ForCall changed the policy it was called on")
	}
	// A 1 GiB max_bytes through the pipeline: 3 MiB of output shows 1 MiB.
	b := def.ForCall(0, 1<<30, false)
	b.Stdout.MaxLines = LinesCeiling
	pl := output.New(output.Options{Limits: b.Stdout})
	line := strings.Repeat("x", 1023) + "\n"
	for range 3 << 10 {
		pl.Write([]byte(line))
	}
	pl.Close()
	if r := pl.Result(); r.Truncation.OutputBytes > StreamCeiling || r.Truncation.TotalBytes != 3<<20 {
		t.Errorf("showed %d of %d bytes, want at most %d", r.Truncation.OutputBytes, r.Truncation.TotalBytes, StreamCeiling)
	}
}

func TestForCallLimit(t *testing.T) {
	p := Default()
	for _, tt := range []struct {
		name      string
		got, want int
	}{
		{"read default", p.Read.ForCall(0).MaxLines, 2000},
		{"read 10", p.Read.ForCall(10).MaxLines, 10},
		{"read ceiling", p.Read.ForCall(1 << 30).MaxLines, LinesCeiling},
		{"grep default", p.Grep.ForCall(0).Limit, 100},
		{"grep 200", p.Grep.ForCall(200).Limit, 200},
		{"grep ceiling", p.Grep.ForCall(1 << 30).Limit, LinesCeiling},
		{"find default", p.Find.ForCall(-3).Limit, 1000},
		{"find ceiling", p.Find.ForCall(1 << 30).Limit, LinesCeiling},
		{"ls default", p.Ls.ForCall(0).Limit, 500},
		{"ls 1000", p.Ls.ForCall(1000).Limit, 1000},
		{"ls ceiling", p.Ls.ForCall(1 << 30).Limit, LinesCeiling},
	} {
		if tt.got != tt.want {
			t.Errorf("%s: %d, want %d", tt.name, tt.got, tt.want)
		}
	}
}

// TestPrecedence follows one value through every layer: defaults < profile
// < config file < flags < per-call parameters.

func TestPolicyValidate(t *testing.T) {
	for _, name := range ProfileNames() {
		if err := mustProfile(t, name).Validate(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	bad := []func(*Policy){
		func(p *Policy) { p.Shell = "" },
		func(p *Policy) { p.TimeoutMS = 0 },
		func(p *Policy) { p.Spill.BudgetBytes = 0 },
		func(p *Policy) { p.Bash.Stderr.MaxBytes = 0 },
		func(p *Policy) { p.Read.MaxLines = -1 },
		func(p *Policy) { p.Grep.MaxLineChars = -1 },
		func(p *Policy) { p.Ls.Limit = 0 },
	}
	for i, f := range bad {
		p := Default()
		f(&p)
		if p.Validate() == nil {
			t.Errorf("case %d validated", i)
		}
	}
}

func TestSpillStoreConfig(t *testing.T) {
	s := Spill{Dir: "/x", MaxBytes: 5, BudgetBytes: 6}.StoreConfig()
	if s.TempDir != "/x" || s.MaxFileBytes != 5 || s.BudgetBytes != 6 {
		t.Errorf("%+v", s)
	}
}

// TestDocsConfigExample: the config file shown in docs/profiles.md parses.
